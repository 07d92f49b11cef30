"""The one diagnostic type: placement, context, ordering and raise_first."""

from __future__ import annotations

import pytest

from sgcheck.codes import CATALOGUE, diagnostic
from sgcheck.core.actions import Move
from sgcheck.core.engine import violations
from sgcheck.core.squares import parse_square
from sgcheck.core.state import initial_state
from sgcheck.diagnostics import Diagnostic, DiagnosticError, Severity, Span, errors, raise_first


def test_catalogued_diagnostic_takes_the_codes_severity_and_rules() -> None:
    diag = diagnostic("SG-R204", "illegal attack")
    assert diag.severity is Severity.ERROR
    assert diag.rules == CATALOGUE["SG-R204"].rules
    assert diagnostic("SG-N301", "x").severity is Severity.WARNING


def test_at_places_a_spanless_finding_and_keeps_it_immutable() -> None:
    diag = diagnostic("SG-R101", "no piece")
    span = Span("g.sglog", 3, 5, 3, 8, 20, 23)
    placed = diag.at(span, "here")
    assert (placed.span, placed.label) == (span, "here")
    assert diag.span is None  # the original is unchanged
    assert str(span) == "g.sglog:3:5"


def test_span_union_covers_both() -> None:
    a = Span("f", 2, 4, 2, 9, 10, 15)
    b = Span("f", 1, 1, 1, 3, 0, 2)
    assert a.union(b) == Span("f", 1, 1, 2, 9, 0, 15)


def test_raise_first_raises_on_the_first_error_only() -> None:
    note = Diagnostic("SG-N303", Severity.NOTE, "house rule")
    first = Diagnostic("SG-R101", Severity.ERROR, "first")
    second = Diagnostic("SG-R102", Severity.ERROR, "second")
    raise_first([note])  # notes and warnings never raise
    with pytest.raises(DiagnosticError) as caught:
        raise_first([note, first, second])
    assert caught.value.diagnostic is first
    assert list(errors([note, first, second])) == [first, second]


def test_engine_violations_feed_raise_first() -> None:
    """core §3: a Move in Upkeep is outside its window (R03); callers wanting an exception get one."""
    state = initial_state(parse_square("e1"), parse_square("e8"))
    found = [v.diagnostic for v in violations(state, Move(parse_square("e1"), parse_square("e2")))]
    assert [d.code for d in found] == ["SG-T103"]
    with pytest.raises(DiagnosticError):
        raise_first(found)


# --- each rule cited once, counts in the right number -------------------------------------------


def test_a_message_s_own_closing_citation_is_merged_into_its_rules() -> None:
    said = Diagnostic(
        "SG-C020", Severity.ERROR, "it changes the rate (core §2, R16)", rules=("core §2", "core §8", "R16")
    )
    assert said.message == "it changes the rate" and said.rules == ("core §2", "core §8", "R16")
    more = Diagnostic("SG-C020", Severity.ERROR, "past the cap (core §4.5, R20)", rules=("core §8", "R16"))
    assert more.message == "past the cap" and more.rules == ("core §4.5", "core §8", "R16", "R20")


@pytest.mark.parametrize(
    "message",
    [
        "'Wildfire' damages a King directly ('enemy pieces' includes the King)",  # not a citation
        "the King 1 (R09) and a Rook (core §3) anywhere",  # not at the end
        "no rules to print it after (R16)",  # a finding without rules keeps its citation
    ],
)
def test_other_parentheses_are_left_alone(message: str) -> None:
    rules = () if "no rules" in message else ("core §8",)
    assert Diagnostic("SG-C020", Severity.ERROR, message, rules=rules).message == message


def test_one_die_was_given() -> None:
    """core §4.2, R10: a roll of one die says so in the singular."""
    from sgcheck.core.play.predicates import dice_faces
    from sgcheck.core.rolls import ACCURACY_ROLL

    found = dice_faces((3,), ACCURACY_ROLL)
    assert found is not None and found.diagnostic.message.endswith("but 1 was given")


def test_no_shipped_example_prints_a_count_in_the_wrong_number_or_a_rule_twice() -> None:
    """Every finding replay and check print on the shipped examples, read as a user reads them."""
    import re
    from pathlib import Path

    from click.testing import CliRunner

    from sgcheck.cli import main

    examples = str(Path(__file__).resolve().parents[1] / "examples")
    shown = "".join(
        CliRunner().invoke(main, args).output
        for args in (["replay", "--keep-going", "--no-summary", examples], ["check", examples])
    )
    assert "SG-" in shown
    cite = r"(?:core §[\d.]+|R\d\d)(?:, (?:core §[\d.]+|R\d\d))*"
    assert not re.findall(rf"\({cite}\) \({cite}\)", shown)
    assert not re.findall(r"\b1 (?:errors|warnings|notes|cards|actions|markers|pieces|turns|were)\b", shown)
