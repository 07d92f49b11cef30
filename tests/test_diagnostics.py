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
