"""Every layout a log may be written in replays exactly like the canonical text.

``sgcheck.replay.layouts`` rewrites a log into the layouts people write by hand (capitals, other
indentation, comments, continued lines, CRLF and a BOM, all of them at once). Whatever the layout,
replay must give the same findings (code, message and context; lines and columns differ, so they
are not compared), the same counts and the same final position, and the log must read into the
same items. The rewriting itself must change the text (no layout is a no-op) and never touch what
is case-sensitive.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText, decode
from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.generate import Claims, Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_text
from sgcheck.replay.layouts import LAYOUTS, relayout, relayout_bytes, relayout_lines
from sgcheck.replay.summary import summary_facts

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
ALL_EXAMPLES = sorted(EXAMPLES.rglob("*.sglog"))
OTHER_LAYOUTS = [layout for layout in LAYOUTS if layout != "plain"]

#: Every kind of line of docs/log-format.md, and the whole game of a turn with each action kind
#: (not a legal game: replay stops at the pass of turn 1..., and with keep_going goes on).
EVERY_KIND = """\
; a comment runs to the end of the line   { a brace comment may span lines }
[Event "Friday league"]
[White "Ana"]
[Black "Ben"]
[Ruleset "core"]
[Result "1-0"]

draft white "Soul Ward" "Temporal Rift" "Soul Drain"
draft black "Mirror Barrier" "Arcane Surge" "Spirit Exchange"
rolloff white 3 3 3 black 3 3 3
rolloff white 6 5 3 black 2 2 1
choose white
king white e1
king black e8

1. upkeep: summon R a1 cost 10 pay 10lp lp 10 sp 0
   main1: move Ra1 a3 cost 7 lp 3
1... upkeep: summon Q d8 cost 14
     end: pass
2. end: pass lp 9
2... main1: move Qd8 d6
     battle: attack Qd6 d2 roll 4 1 threshold 90 hit damage 1 king-damage 1
     main2: convert 4 gain 2lp
3. upkeep: income 2 sp 2
   break roll 4 5 6 success
   repair roll 1 2 3 fail
   main1: move Ng1 f3 d4
          move Ng1 h3
          summon Qd1
          activate "Soul \\"Drain\\"" pay 3sp
   battle: attack Ra3 Pa5 roll 0 0 miss
   end: teleport Rf3 a1 cost 10
        activate "Soul Drain" pay 3sp
result 1-0 conversion
"""


def generated(seed: int, style: Style, claims: Claims, turns: int = 40) -> str:
    return format_log(generate_game(seed, style=style, claims=claims, max_turns=turns).items)


def broken(text: str) -> str:
    """``text`` with every 7th written LP total one too high: findings all over the log (with keep_going)."""
    count = 0

    def bump(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f" lp {int(match.group(1)) + 1}" if count % 7 == 0 else match.group(0)

    return re.sub(r" lp ([0-9]+)", bump, text)


GAMES = {
    "random-all": generated(1, Style.RANDOM, Claims.ALL),
    "random-some": generated(2, Style.RANDOM, Claims.SOME),
    "random-none": generated(3, Style.RANDOM, Claims.NONE),
    "aggressive": generated(9, Style.AGGRESSIVE, Claims.ALL, turns=300),  # ends on turn 92
    "endless": generated(5, Style.ENDLESS, Claims.SOME),
    "broken": broken(generated(6, Style.RANDOM, Claims.ALL)),
}


def texts() -> Iterator[tuple[str, str]]:
    yield from GAMES.items()
    yield "every-kind", EVERY_KIND
    for path in ALL_EXAMPLES:
        yield path.relative_to(EXAMPLES).as_posix(), path.read_text(encoding="utf-8")


TEXTS = dict(texts())


def decoded(text: str, layout: str) -> str:
    """The text sgcheck reads from a file holding ``text`` in ``layout`` (BOM and CRLF undone)."""
    source = decode(relayout_bytes(text, layout), "layout.sglog")
    assert isinstance(source, SourceText), source
    return source.text


def outcome(result: ReplayResult, *, capitals: bool) -> dict[str, object]:
    """What a replay says, apart from where (lines and columns depend on the layout). A syntax
    error quotes the word it found as written, so with capitals its message is compared in lower case."""
    findings = [
        (d.code, d.message.lower() if capitals and d.code.startswith("SG-P") else d.message, d.context, d.severity)
        for d in result.diagnostics
    ]
    return {
        "findings": findings,
        "count": len(result.diagnostics),
        "facts": summary_facts(result),
        "statements": result.statements,
        "turns": result.turns,
        "stopped": result.stopped,
        "state": result.state,
        "upkeep_income": result.upkeep_income,
    }


def capitals(layout: str) -> bool:
    return layout in ("capitalised", "mixed")


# --- replay --------------------------------------------------------------------------------------


@pytest.mark.parametrize("keep_going", [False, True])
@pytest.mark.parametrize("layout", OTHER_LAYOUTS)
@pytest.mark.parametrize("name", list(TEXTS))
def test_every_layout_replays_like_the_plain_text(name: str, layout: str, keep_going: bool) -> None:
    text = TEXTS[name]
    options = ReplayOptions(keep_going=keep_going)
    plain = replay_text(text, "game.sglog", options)
    other = replay_text(decoded(text, layout), "game.sglog", options)
    assert outcome(other, capitals=capitals(layout)) == outcome(plain, capitals=capitals(layout))


def test_the_comparison_has_teeth() -> None:
    """The games replayed above include legal ones that end, ones that stop, and findings by the dozen."""
    results = {name: replay_text(text, "game.sglog", ReplayOptions(keep_going=True)) for name, text in TEXTS.items()}
    assert results["random-all"].ok and results["endless"].ok
    assert results["aggressive"].state is not None and results["aggressive"].state.result is not None
    assert len(results["broken"].diagnostics) >= 5
    assert {d.code for d in results["every-kind"].diagnostics} >= {"SG-R209"}
    assert any(d.code.startswith("SG-P") for d in results["broken/syntax-error.sglog"].diagnostics)


@pytest.mark.parametrize("layout", OTHER_LAYOUTS)
@pytest.mark.parametrize("name", list(TEXTS))
def test_every_layout_reads_into_the_same_items(name: str, layout: str) -> None:
    """Parsed and written back canonically, every layout is the plain text's canonical form."""
    text = TEXTS[name]
    try:
        expected = format_log(parse_log(SourceText("game.sglog", text)))
    except LogSyntaxError as error:
        with pytest.raises(LogSyntaxError) as caught:
            parse_log(SourceText("game.sglog", decoded(text, layout)))
        assert caught.value.diagnostic.code == error.diagnostic.code
        assert caught.value.diagnostic.message.lower() == error.diagnostic.message.lower()
        return
    assert format_log(parse_log(SourceText("game.sglog", decoded(text, layout)))) == expected


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_replays_the_same_from_a_file(layout: str, tmp_path: Path) -> None:
    """Through the command line's path: the file is read in chunks, decoded and replayed."""
    text = GAMES["broken"]
    path = tmp_path / "game.sglog"
    path.write_bytes(relayout_bytes(text, layout))
    result, _ = replay_input(LogInput(str(path)), ReplayOptions(keep_going=True))
    plain = replay_text(text, str(path), ReplayOptions(keep_going=True))
    assert [(d.code, d.message) for d in result.diagnostics] == [(d.code, d.message) for d in plain.diagnostics]
    assert result.facts == summary_facts(plain)


# --- the layouts themselves ----------------------------------------------------------------------


def test_the_layouts() -> None:
    assert LAYOUTS[0] == "plain"
    assert set(LAYOUTS) == {"plain", "capitalised", "indented", "brace-comments", "two-line", "crlf-bom", "mixed"}
    text = GAMES["random-all"]
    assert relayout(text, "plain") == text
    with pytest.raises(ValueError, match="unknown layout"):
        relayout(text, "fancy")


@pytest.mark.parametrize("layout", OTHER_LAYOUTS)
@pytest.mark.parametrize("name", ["random-all", "endless", "every-kind", "full-game.sglog"])
def test_no_layout_is_a_no_op(name: str, layout: str) -> None:
    text = TEXTS[name]
    new = relayout(text, layout)
    assert new != text
    turns = len(re.findall(r"^[0-9]+\.", text, re.MULTILINE))
    if layout in ("capitalised", "mixed"):
        assert re.search(r"\b(Upkeep|Main1|Battle|Main2|End):", new)
        assert not {"move", "summon", "pass", "cost", "lp", "sp", "upkeep:"} & set(_code(new).split())
    if layout in ("indented", "mixed"):
        assert re.search(r"^(\t|    )\S", new, re.MULTILINE)
        assert re.search(r"\S  (?i:summon|move|attack|pass|convert|teleport)\b", new)
    if layout in ("brace-comments", "mixed"):
        assert new.count("{") - text.count("{") >= turns // 5
        assert re.search(r"\{[^}]*\n[^}]*\}", new)  # a comment over two lines
        assert new.count(";") > text.count(";")
    if layout in ("two-line", "mixed"):
        assert len(new.splitlines()) > len(text.splitlines()) + turns // 2
        assert re.search(r"^\s+(?i:cost|lp|sp|roll|pay|hit|miss)\b", new, re.MULTILINE)
    if layout in ("crlf-bom", "mixed"):
        data = relayout_bytes(text, layout)
        assert data.startswith(b"\xef\xbb\xbf")
        assert data.count(b"\n") == data.count(b"\r\n") > 0
    else:
        assert "\r" not in new and "\ufeff" not in new


def _code(text: str) -> str:
    """``text`` without comments, quoted names and tags."""
    text = re.sub(r"\{[^}]*\}|;[^\n]*|\"(?:[^\"\\\n]|\\.)*\"", " ", text)
    return re.sub(r"^\s*\[.*$", "", text, flags=re.MULTILINE)


def test_crlf_bom_is_the_plain_text_once_decoded() -> None:
    for text in TEXTS.values():
        assert decoded(text, "crlf-bom") == text


_PIECE_OR_SQUARE = re.compile(r"^[KQRBNP]?[a-h][1-8]$")


@pytest.mark.parametrize("layout", ["capitalised", "mixed"])
@pytest.mark.parametrize("name", list(TEXTS))
def test_capitals_touch_keywords_only(name: str, layout: str) -> None:
    """Piece letters, squares, amounts, quoted names, tag names and comments keep their case."""
    text = TEXTS[name]
    new = decoded(text, layout)
    words = _code(text).split()
    new_words = _code(new).split()
    pieces = [w for w in words if _PIECE_OR_SQUARE.match(w)]
    assert pieces == [w for w in new_words if _PIECE_OR_SQUARE.match(w)]
    assert [w.lower() for w in words] == [w.lower() for w in new_words]
    changed = {w for w, n in zip(words, new_words, strict=True) if w != n}
    assert all(re.fullmatch(r"[a-z][a-z0-9-]*:?", w) for w in changed), changed
    assert not any(_PIECE_OR_SQUARE.match(w) or re.fullmatch(r"[0-9]+(sp|lp)", w) for w in changed)
    if layout == "capitalised":
        assert new.lower() == text.lower()
        assert re.findall(r";[^\n]*|\"[^\"\n]*\"|^\[.*$", new, re.MULTILINE) == re.findall(
            r";[^\n]*|\"[^\"\n]*\"|^\[.*$", text, re.MULTILINE
        )
    if name == "every-kind":
        assert {"Summon", "Move", "Attack", "Roll", "Cost", "Hit", "King-damage", "Convert", "Teleport"} <= changed_to(
            text, new
        )
        assert {"Break", "Repair", "Activate", "Pass", "Income", "Draft", "Rolloff", "Choose", "King"} <= changed_to(
            text, new
        )


def changed_to(text: str, new: str) -> set[str]:
    return {n for w, n in zip(_code(text).split(), _code(new).split(), strict=True) if w != n}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_layouts_are_deterministic_and_stream(layout: str) -> None:
    text = GAMES["endless"]
    assert relayout(text, layout, seed=3) == relayout(text, layout, seed=3)
    assert "".join(relayout_lines(text.splitlines(keepends=True), layout, seed=3)) == relayout(text, layout, seed=3)
    if layout in ("indented", "brace-comments", "mixed"):
        assert relayout(text, layout, seed=3) != relayout(text, layout, seed=4)


@pytest.mark.parametrize("layout", OTHER_LAYOUTS)
def test_a_comment_over_several_lines_and_a_missing_last_line_end_are_kept(layout: str) -> None:
    text = "{ a note\nover three\nlines }\n" + GAMES["random-some"].rstrip("\n")
    new = relayout(text, layout)
    assert "{ a note" in new and "lines }" in new
    assert not new.endswith("\n")
    plain = replay_text(text, "game.sglog")
    assert outcome(replay_text(decoded(text, layout), "game.sglog"), capitals=capitals(layout)) == outcome(
        plain, capitals=capitals(layout)
    )
