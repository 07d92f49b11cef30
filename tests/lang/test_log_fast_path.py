"""The fast path and the grammar read every log the same way.

The fast path (sgcheck.lang.logs.log_fast) must either produce exactly the items the Lark parser
produces, spans included, or decline; iter_log combines them. These tests compare the two on
generated games, on the shipped examples and on mutated text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.lang.logs.grammar import LogSyntaxError, _grammar_iter_log, iter_log
from sgcheck.lang.logs.log_fast import Declined, fast_iter_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText
from sgcheck.replay.generate import Claims, Style, generate_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"


def grammar_items(source: SourceText) -> tuple[list[object], bool]:
    items: list[object] = []
    try:
        for item in _grammar_iter_log(source):
            items.append(item)
    except LogSyntaxError:
        return items, False
    return items, True


def fast_items(source: SourceText) -> tuple[list[object], bool]:
    items: list[object] = []
    try:
        for item in fast_iter_log(source):
            items.append(item)
    except Declined:
        return items, False
    return items, True


def assert_agree(source: SourceText) -> bool:
    """The fast path's output is the grammar's, or a prefix of it where the fast path declined."""
    slow, slow_ok = grammar_items(source)
    fast, fast_ok = fast_items(source)
    if fast_ok:
        assert slow_ok, "the fast path accepted text the grammar rejects"
        assert fast == slow
    else:
        assert fast == slow[: len(fast)] or not slow_ok
    return fast_ok


@pytest.mark.parametrize("path", sorted(EXAMPLES.rglob("*.sglog")), ids=lambda p: p.name)
def test_examples_agree(path: Path) -> None:
    assert_agree(SourceText(path.name, path.read_text(encoding="utf-8")))


def test_full_game_takes_the_fast_path() -> None:
    text = (EXAMPLES / "full-game.sglog").read_text(encoding="utf-8")
    assert assert_agree(SourceText("full-game.sglog", text))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    style=st.sampled_from(list(Style)),
    claims=st.sampled_from(list(Claims)),
)
def test_generated_games_agree_and_take_the_fast_path(seed: int, style: Style, claims: Claims) -> None:
    game = generate_game(seed, style=style, claims=claims, max_turns=12)
    assert assert_agree(SourceText("gen.sglog", format_log(game.items)))


MUTATION_BASES = [
    (EXAMPLES / "guide-example-a.sglog").read_text(encoding="utf-8"),
    "\n".join((EXAMPLES / "full-game.sglog").read_text(encoding="utf-8").splitlines()[:60]),
    (EXAMPLES / "broken" / "activation-limit.sglog").read_text(encoding="utf-8"),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_logs_agree(data: st.DataObject) -> None:
    """Insert, delete or replace characters in a real log: never a disagreement, never a crash."""
    text = data.draw(st.sampled_from(MUTATION_BASES))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        piece = data.draw(
            st.sampled_from(
                ["", " ", "\n", "\t", ";", ":", "1", "0", ".", "a9", "K", "hit", "lp", '"', "x", "1234567890", "²"]
            )
        )
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + piece + text[at + cut :]
    assert_agree(SourceText("m.sglog", text))


def test_iter_log_falls_back_without_repeating_items() -> None:
    """A brace comment late in the file makes the fast path decline; iter_log still yields each item once."""
    text = (EXAMPLES / "guide-example-a.sglog").read_text(encoding="utf-8") + "{ a closing remark }\n"
    source = SourceText("a.sglog", text)
    assert list(iter_log(source)) == grammar_items(source)[0]


@pytest.mark.parametrize(
    "text",
    [
        'draft white "Soul Ward"\n  "Soul Drain" "Temporal Rift"\nking white e1\nking black e8\n',
        "king white e1\nking black e8\n1. end: pass\nresult *\n",
        "king white e1\nking black e8\n1. end: pass\n1... end: pass\nresult 1-0\n  conversion\n",
        "rolloff white 6 5 4 black 1 1 1\nchoose white\nking white e1\nking black e8\n",
    ],
    ids=["draft", "result", "result-reason", "rolloff"],
)
def test_an_item_continued_on_the_next_line_is_read_whole(text: str) -> None:
    """A setup item or result line may go on past its line; the fast path must never hand out
    the shorter item (it holds each one until the next word shows it is complete)."""
    source = SourceText("c.sglog", text)
    assert_agree(source)
    assert list(iter_log(source)) == grammar_items(source)[0]
