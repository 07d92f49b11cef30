"""``sgcheck fmt`` on game logs: idempotent, meaning-preserving, every comment kept.

Generated games (``replay/generate.py``) are written in every hand-written layout of
``replay/layouts.py`` (capitals, other indentation, brace comments, statements over two lines)
with comments added anywhere between words; formatting must give a text that formats to itself,
reads into the same items and keeps the comments in order. The shipped logs must also replay
with the same findings (codes) after formatting.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.lang.formatting import comment_texts, shape
from sgcheck.lang.logs.format_logs import _SCAN, format_log_text, log_comments
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText, normalise_newlines
from sgcheck.replay.generate import generate_game
from sgcheck.replay.interpreter import replay_text
from sgcheck.replay.layouts import LAYOUTS, relayout

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_LOGS = sorted((ROOT / "examples").rglob("*.sglog"))
READABLE = [p for p in EXAMPLE_LOGS if p.name != "syntax-error.sglog"]


def items(text: str) -> object:
    return shape(parse_log(SourceText("t.sglog", text)))


def comments(text: str) -> list[str]:
    return comment_texts(log_comments(text))


def check_format(text: str) -> str:
    out = format_log_text(text, "t.sglog")
    assert format_log_text(out, "t.sglog") == out, "not idempotent"
    assert items(out) == items(text), "reads as another log"
    assert comments(out) == comments(text), "lost or reordered a comment"
    return out


_NOTES = ("; a note", "{ brace }", "{ two\nlines }", "; note { with brace", "{}", '; "quoted"')


def with_comments(text: str, rng: random.Random, count: int) -> str:
    """``text`` with comments put at random places between words (and at line ends)."""
    # quoted names and comments (with the line end of a ';' comment: text put there joins the comment)
    taken = [(m.start(), m.end() + (m.group(1) is not None)) for m in _SCAN.finditer(text)]
    gaps = [i for i, ch in enumerate(text) if ch in " \n" and not any(a <= i < b for a, b in taken)] or [len(text)]
    for at in sorted(rng.sample(gaps, min(count, len(gaps))), reverse=True):
        note = rng.choice(_NOTES)
        if note.startswith(";"):  # a line comment only where a line ends: it must not swallow later notes
            note = note + "\n" if text[at] == "\n" else "{ brace }"
        text = text[:at] + " " + note + " " + text[at:]
    return text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    layout=st.sampled_from(LAYOUTS),
    notes=st.integers(0, 12),
    turns=st.integers(1, 12),
)
def test_generated_logs_in_every_layout(seed: int, layout: str, notes: int, turns: int) -> None:
    game = generate_game(seed, max_turns=turns)
    canonical = format_log(game.items)
    text = normalise_newlines(relayout(canonical, layout, seed=seed)).removeprefix("\ufeff")
    text = with_comments(text, random.Random(seed), notes)
    out = check_format(text)
    assert items(out) == items(canonical)
    if notes == 0 and layout in ("plain", "capitalised", "indented", "two-line"):
        assert out == canonical  # no comment: the canonical text of the writer


@pytest.mark.parametrize("path", READABLE, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_format_to_the_same_log(path: Path) -> None:
    text = normalise_newlines(path.read_text(encoding="utf-8"))
    out = check_format(text)
    before = replay_text(text, str(path))
    after = replay_text(out, str(path))
    assert [d.code for d in after.diagnostics] == [d.code for d in before.diagnostics]
    assert (after.statements, after.turns, after.stopped) == (before.statements, before.turns, before.stopped)


def test_syntax_error_is_raised() -> None:
    with pytest.raises(LogSyntaxError):
        format_log_text("1. upkeep: summon R a1 cost\n", "t.sglog")


def test_comment_attachment() -> None:
    text = (
        "; file comment\n"
        '[Event "x"] ; tag note\n'
        "\n"
        "king white e1\n"
        "king black e8\n"
        "\n"
        "; before turn one\n"
        "1.   UPKEEP: summon R a1 {cost} cost 10\n"
        "     main1: move Ra1\n"
        "     a3 ; inside the move\n"
        "  ; own line inside the turn\n"
        "     end: pass\n"
        "; at the end\n"
    )
    assert format_log_text(text) == (
        "; file comment\n"
        '[Event "x"]  ; tag note\n'
        "\n"
        "king white e1\n"
        "king black e8\n"
        "\n"
        "; before turn one\n"
        "1.   upkeep: summon R a1 cost 10  {cost}\n"
        "     main1: move Ra1 a3  ; inside the move\n"
        "     ; own line inside the turn\n"
        "     end: pass\n"
        "; at the end\n"
    )


def test_a_line_comment_ends_its_line() -> None:
    text = "1. upkeep: summon R ; first\n a1 {second} cost 10\n1... end: pass\n"
    out = format_log_text(text)
    assert out == "1.   upkeep: summon R a1 cost 10  ; first\n{second}\n1... end: pass\n"
    assert format_log_text(out) == out


def test_empty_and_comment_only_logs() -> None:
    assert format_log_text("") == ""
    assert format_log_text("\n\n  \n") == ""
    assert format_log_text("; only\n\n\n{ this }  \n") == "; only\n\n{ this }\n"
