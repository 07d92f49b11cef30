"""No input makes iter_log raise anything but LogSyntaxError, and errors always point into the text."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.lang.logs.ast import Header
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import iter_log
from sgcheck.lang.source import SourceText

from .test_log_parser import EXAMPLE

FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(text: str) -> None:
    """Parse ``text`` completely; only LogSyntaxError may escape, with a sane diagnostic."""
    items = 0
    try:
        for item in iter_log(SourceText("fuzz.sglog", text)):
            if items == 0:
                assert isinstance(item, Header)
            items += 1
    except LogSyntaxError as exc:
        d = exc.diagnostic
        assert d.code in {"SG-P001", "SG-P002", "SG-P003", "SG-P012"}, d
        assert "internal error" not in d.message, d
        assert d.span is not None and d.label
        assert 0 <= d.span.offset <= d.span.end_offset <= len(text), d.span
        assert d.span.line >= 1 and d.span.column >= 1
        return
    assert items >= 1


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    check(text)


FRAGMENTS = (
    "1.", "2...", "0.", "12....", "upkeep:", "main1:", "battle:", "main2:", "end:", "upkeep", "main 1:",
    "summon", "move", "attack", "roll", "convert", "teleport", "break", "repair", "activate", "pass", "income",
    "cost", "pay", "lp", "sp", "threshold", "hit", "miss", "damage", "king-damage", "capture", "converts",
    "success", "fail", "gain", "draft", "rolloff", "king", "white", "black", "result", "1-0", "0-1", "1/2-1/2",
    "*", "conversion", "lp1000", "turn-limit", "Q", "R", "Ra1", "a1", "h8", "i9", "A1", "Pa5", "Ng1", "Qd1",
    "0", "6", "99", "5sp", "7lp", "5", '"Soul Drain"', '"open', "[", "]", "[Event", '"x"]', "{", "}",
    "{ c }", "; note\n", "\n", "\r\n", "\t", "@", "é", "\x00", "9" * 60,
)  # fmt: skip


@FUZZ
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40), st.sampled_from([" ", "", "\n"]))
def test_token_soup(parts: list[str], sep: str) -> None:
    check(sep.join(parts))


@st.composite
def mutated_example(draw: st.DrawFn) -> str:
    chars = list(EXAMPLE)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["delete", "insert", "swap", "duplicate"]))
        i = draw(st.integers(0, len(chars) - 1))
        if op == "delete":
            del chars[i]
        elif op == "insert":
            chars.insert(i, draw(st.sampled_from(list('abh18KQR .:;{}[]"\\\n-/*0é\x00'))))
        elif op == "swap":
            j = draw(st.integers(0, len(chars) - 1))
            chars[i], chars[j] = chars[j], chars[i]
        else:
            chars.insert(i, chars[i])
    return "".join(chars)


@FUZZ
@given(mutated_example())
def test_mutated_valid_log(text: str) -> None:
    check(text)


def test_every_truncation_of_the_example() -> None:
    for end in range(len(EXAMPLE) + 1):
        check(EXAMPLE[:end])


def test_random_byte_garbage_decoded_as_text() -> None:
    rng = random.Random(1234)
    for _ in range(50):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000)))
        check(data.decode("latin-1"))
        check(data.decode("utf-8", errors="replace"))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("{" * 100_000, id="100k-open-braces"),
        pytest.param("[" * 100_000, id="100k-open-brackets"),
        pytest.param("x" * 10_000_000, id="10MB-line"),
        pytest.param('draft white "' + "a" * 10_000_000, id="10MB-unclosed-string"),
        pytest.param("; " + "a" * 10_000_000, id="10MB-comment"),
        pytest.param("1. pass lp " + "9" * 200_000, id="200k-digit-number"),
        pytest.param("9" * 100_000 + ".", id="100k-digit-turn"),
        pytest.param("1" + "." * 100_000, id="100k-dots"),
        pytest.param("}" * 1000, id="closing-braces"),
        pytest.param("1. " + "pass " * 20_000, id="20k-statements-on-one-line"),
    ],
)
def test_adversarial_inputs(text: str) -> None:
    check(text)
