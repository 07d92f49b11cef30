"""The explanations as the HTML page carries them (:mod:`sgcheck.report.compact`): decoded as the
page's script decodes them, they give back everything the panel shows of replay's own."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from sgcheck.replay import explain
from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.interpreter import ReplayOptions
from sgcheck.report.compact import PHASE_KEYS, encode_explanations
from sgcheck.report.html import log_lines
from sgcheck.results import (
    UNCHANGED,
    ExplainedFact,
    Explanation,
    FactPart,
    Frame,
    ReplayFacts,
    SideTotals,
    Totals,
)

ROOT = Path(__file__).resolve().parents[2]
LOGS = [
    ROOT / "examples" / "logs" / "full-game.sglog",
    *sorted((ROOT / "examples" / "logs").glob("guide-*.sglog")),
    ROOT / "examples" / "logs" / "relic-game.sglog",
    ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog",
    *sorted((ROOT / "examples" / "scenarios").glob("*.sglog"))[:2],
]


def shown(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def decode(frames: Sequence[Sequence[object]], at: int, tables: Mapping[str, list[object]], lines: Sequence[str]):  # type: ignore[no-untyped-def]
    """Frame ``at``'s explanation as ``Viewer.prototype.explanation`` in report.js reads it."""
    f = frames[at]
    x = f[11] if len(f) > 11 else None
    if not isinstance(x, list):
        return None
    told = frames[at - 1] if f[1] == 3 and at > 0 else f
    differs = x[3] if len(x) > 3 else {}
    totals = f[7]
    assert isinstance(totals, list)
    strings, kinds, rules, facts = (tables[name] for name in ("strings", "kinds", "rules", "facts"))
    statement = str(lines[int(f[0]) - 1])[x[0] :] if x[0] < 0 else strings[x[0]]  # type: ignore[call-overload]
    decoded_facts = []
    for n in x[1]:
        fact = facts[n]
        key, label = kinds[fact[0]]  # type: ignore[index]
        flat = fact[3] if len(fact) > 3 else []  # type: ignore[arg-type]
        parts = [{"label": strings[flat[k]], "value": flat[k + 1]} for k in range(0, len(flat), 2)]
        decoded_facts.append(
            {"key": key, "label": label, "text": strings[fact[1]], "rules": rules[fact[2]], "parts": parts}  # type: ignore[index]
        )
    return {
        "line": differs.get("line", f[0]),
        "turn": differs.get("turn", told[2]),
        "side": differs.get("side", ("white", "black")[told[3]]),  # type: ignore[index]
        "phase": differs.get("phase", "end" if f[1] == 3 else PHASE_KEYS[f[4]]),  # type: ignore[index]
        "statement": statement,
        "legal": x[2] != 0 if len(x) > 2 else True,
        "facts": decoded_facts,
        "after": differs.get(
            "after",
            {
                "white": {"lp": totals[0], "sp": totals[1], "king_damage": totals[2]},
                "black": {"lp": totals[3], "sp": totals[4], "king_damage": totals[5]},
            },
        ),
    }


def as_shown(explained: Mapping[str, object]) -> dict[str, object]:
    """What the panel shows of an explanation: its ``kind`` and each fact's ``value`` (when it
    has a text) are not shown, and every value is shown as text."""
    facts = [
        {
            "key": fact["key"],
            "label": fact["label"],
            "text": shown(fact["text"] if fact.get("text") is not None else fact.get("value")),
            "rules": list(fact["rules"]),
            "parts": [{"label": p["label"], "value": shown(p["value"])} for p in fact["parts"]],
        }
        for fact in explained["facts"]  # type: ignore[attr-defined]
    ]
    return {**{k: v for k, v in explained.items() if k != "kind"}, "facts": facts}


def test_the_page_uses_the_phase_names_of_the_explanations() -> None:
    assert PHASE_KEYS == explain.PHASE_KEYS


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_every_explanation_decodes_to_what_the_panel_showed(log: Path) -> None:
    result, sources = replay_input(LogInput(str(log.relative_to(ROOT))), ReplayOptions(timeline=True))
    assert isinstance(result.facts, ReplayFacts)
    timeline = result.facts.timeline
    assert timeline is not None
    frames = timeline.frames
    lines = log_lines(dict(sources)[timeline.source])
    encoded, tables = encode_explanations(frames, lines)
    assert encoded != [frame.as_json() for frame in frames] or not frames
    explained = 0
    for at, frame in enumerate(frames):
        assert encoded[at][:11] == frame.as_json()[:11]
        if frame.explained is None:
            assert encoded[at][11] is None
            continue
        explained += 1
        entry = encoded[at][11]
        assert isinstance(entry, list)
        assert len(entry) <= 3, entry  # replay's explanations agree with their frames: nothing differs
        assert decode(encoded, at, tables, lines) == as_shown(frame.explained.as_json())  # type: ignore[arg-type]
    assert explained or not frames
    assert encode_explanations(frames, lines) == (encoded, tables)  # deterministic


def _frame(line: int, kind: int, totals: tuple[int, int, int, int, int, int], explained: Explanation | None) -> Frame:
    return Frame(line, kind, 1, 0, 2, "", (), totals, UNCHANGED, None, (-1, -1), explained)


def _totals(white: tuple[int, int, int], black: tuple[int, int, int]) -> Totals:
    return Totals(SideTotals(*white), SideTotals(*black))


def test_an_explanation_written_otherwise_keeps_what_differs() -> None:
    hand = Explanation(
        line=4,
        turn=17,
        side="black",
        phase="battle",
        statement="attack \u202e é",
        legal=False,
        kind="statement",
        facts=(
            ExplainedFact("hit", "Hit", True, "yes", ("R10",), (FactPart("x", True),)),
            ExplainedFact("hit", "Hit", 1, "yes", ("R10",), (FactPart("x", 1),)),
        ),
        after=_totals((1, 2, 3), (9, 9, 9)),
    )
    frames = [
        Frame(0, 0, 1, 0, -1, "e1K", (), (0, 0, 0, 0, 0, 0), "0/0", None, (-1, -1), None),
        _frame(3, 2, (1, 2, 3, 4, 5, 6), None),
        _frame(4, 2, (1, 2, 3, 4, 5, 6), hand),
    ]
    lines = ["", "", "", "attack \u202e é"]
    encoded, tables = encode_explanations(frames, lines)
    assert encoded[0][11] is None and encoded[1][11] is None
    entry = encoded[2][11]
    assert isinstance(entry, list) and entry[2] == 0
    assert entry[3] == {"turn": 17, "side": "black", "after": hand.after.as_json()}
    strings = tables["strings"]
    assert isinstance(strings, list)
    assert strings[entry[0]] == "attack \u202e é"  # not ASCII: written out, never counted
    decoded = decode(encoded, 2, tables, lines)  # type: ignore[arg-type]
    assert decoded == as_shown(hand.as_json())
    assert [f["text"] for f in decoded["facts"]] == ["yes", "yes"]
    assert [f["parts"] for f in decoded["facts"]] == [
        [{"label": "x", "value": "true"}],  # a flag and a number, equal in Python, are shown apart
        [{"label": "x", "value": "1"}],
    ]


def test_a_statement_the_line_ends_with_points_into_it() -> None:
    explained = Explanation(
        line=1,
        turn=1,
        side="white",
        phase="battle",
        statement="move Ra1 a3 cost 5",
        legal=True,
        kind="statement",
        facts=(),
        after=_totals((0, 0, 0), (0, 0, 0)),
    )
    frames = [Frame(1, 2, 1, 0, 2, "", (), (0, 0, 0, 0, 0, 0), UNCHANGED, None, (-1, -1), explained)]
    encoded, tables = encode_explanations(frames, ["1. main1: move Ra1 a3 cost 5"])
    assert encoded[0][11] == [-len("move Ra1 a3 cost 5"), []]
    assert tables["strings"] == []
    encoded, tables = encode_explanations(frames, ["1. main1: move Ra1 a3 cost 5 ; a note"])
    assert encoded[0][11] == [0, []] and tables["strings"] == ["move Ra1 a3 cost 5"]
    encoded, tables = encode_explanations(frames)  # no log text: written out
    assert tables["strings"] == ["move Ra1 a3 cost 5"]
