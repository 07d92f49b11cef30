"""Regular expressions applied to user text must run in linear time (issue: hostile input
may not hang the checker). Every pattern in sgcheck/ that sees user text was probed with
repeated fragments; the two that were not linear are tested here.

The blank-and-comment pattern before a file's first card (``_BLANK`` in lang/cards/parser.py) used
to backtrack exponentially: a card file whose first keyword was misspelt after a 30-character
``#`` banner took 36 s, and 40 characters never finished. Each check runs in a subprocess with
a budget (a hang fails the test instead of the suite); at these sizes the old pattern would
need longer than the age of the universe, the linear one a millisecond. No time is measured.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from sgcheck.lang.cards.parser import _BLANK, parse_cards

BUDGET_SECONDS = 20


def _run_within_budget(code: str) -> str:
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=BUDGET_SECONDS,
            check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {BUDGET_SECONDS} s: the pattern backtracks")
    return done.stdout


@pytest.mark.parametrize("banner", ["#" * 60, "# " * 30, "#\t" * 30, "##  " * 15])
def test_a_misspelt_first_card_after_a_banner_is_reported_within_budget(banner: str) -> None:
    """A 60-character banner then a misspelt keyword: the syntax error comes back at once."""
    output = _run_within_budget(
        f"""
        from sgcheck.lang.cards.parser import parse_cards
        result = parse_cards({banner!r} + "\\nrelc 'X' {{ cost 1 SP }}\\n", "c.sgcard")
        print(result.diagnostics[0].code, result.diagnostics[0].span.line)
        """
    )
    assert output.split() == ["SG-P020", "2"]


def test_the_blank_pattern_fails_fast_on_a_long_run_before_text() -> None:
    """The same shape as the banner, a hundred thousand characters long, in a subprocess."""
    output = _run_within_budget(
        """
        from sgcheck.lang.cards.parser import _BLANK
        for run in ("#" * 100_000, "# " * 50_000, " " * 100_000):
            print(_BLANK.fullmatch(run + "\\nx") is None, _BLANK.fullmatch(run + "\\n") is not None)
        """
    )
    assert output.split() == ["True"] * 6


def test_the_blank_pattern_still_means_blank_lines_and_comments() -> None:
    """Making it linear changed no answer: blanks, BOMs and comments only."""
    assert _BLANK.fullmatch("  # banner ###\n\n\ufeff\t# more\n") is not None
    assert _BLANK.fullmatch("") is not None
    assert _BLANK.fullmatch("# ok\nrelic") is None
    text = "# cards\n\n" + 'spell "A" { cost 1 SP phase main1 effect gain 1 SP }\n'
    assert [card.name for card in parse_cards(text, "c.sgcard").cards] == ["A"]


def test_the_log_reader_patterns_stay_linear_on_runs_of_blanks_digits_and_open_comments() -> None:
    """The line reader (lang/logs/reader.py) matches its patterns on user text: a statement
    (``_STEP``), whitespace and comments (``_BLANK``), the start of an item (``_ITEM_START``).
    A pattern that tried every split of a run of blanks, or every end of an unclosed ``{`` or
    of a run of digits, would be quadratic on lines of the longest length a log may have
    (10,000 characters). Two thousand such attempts take milliseconds."""
    output = _run_within_budget(
        """
        from sgcheck.lang.logs.reader import _BLANK, _ITEM_START, _STEP
        texts = [
            " " * 9_999 + "!",
            "1. " + " \t" * 4_990 + "!",
            "1. main1: move a1 a2" + " " * 9_970 + "!",
            "1. main1: move a1 a2 {" + " x" * 4_980,
            "1. main1: attack a1 a2 roll" + " 1" * 4_980 + "x",
            "7" * 9_999 + "!",
            "1. main1: pass" + " ;" * 4_990,
        ]
        done = 0
        for i in range(2_000):
            text = texts[i % len(texts)]
            _STEP.match(text, 0)
            _BLANK.match(text, 0)
            _ITEM_START.match(text, 0)
            done += 1
        print(done)
        """
    )
    assert output.split() == ["2000"]
