"""Card activations: at most 2 per turn, counted as actions, stated payment applied
(core §0, R17, R04, R05)."""

from __future__ import annotations

from typing import Any

import pytest

from sgcheck.core.actions import Activate, EndTurn, EnterPhase, Part
from sgcheck.core.pieces import Phase
from sgcheck.core.state import GameState, Payment

from .helpers import W, end_turn, funds, ok, play, position, rejected


def _start(**kw: Any) -> GameState:
    return position("Ke1 ke8", phase=Phase.UPKEEP, lp=20, sp=10, **kw)


def test_two_activations_then_t105_r17() -> None:
    """core §0 / R17: at most 2 activations per turn; the third is SG-T105."""
    st = play(_start(), Activate("Soul Ward"), Activate("Soul Drain"))
    assert st.turn.activations == 2
    v = rejected(st, Activate("Temporal Rift"), "SG-T105", "at most 2", "activation 3")
    assert "R17" in v.diagnostic.rules


def test_limit_spans_all_phases_r17() -> None:
    """R17: the limit is per turn across all phases, not per phase."""
    st = play(_start(), Activate("A"), EnterPhase(Phase.BATTLE), Activate("B"), EnterPhase(Phase.END))
    rejected(st, Activate("C"), "SG-T105")


def test_limit_resets_each_turn_r17() -> None:
    st = play(_start(), Activate("A"), Activate("B"))
    st = end_turn(end_turn(st))
    assert st.to_move is W and st.turn.activations == 0
    assert ok(st, Activate("C")).state.turn.activations == 1


@pytest.mark.parametrize(
    ("pay", "after"),
    [(Payment(sp=3, lp=2), (18, 7)), (Payment(sp=0, lp=20), (0, 10)), (Payment(sp=10, lp=0), (20, 0))],
)
def test_stated_payment_is_applied_r17_r05(pay: Payment, after: tuple[int, int]) -> None:
    """R17 / R05: the core does not simulate cards, but applies the payment the log states."""
    step = ok(_start(), Activate("Arcane Surge", pay))
    assert step.effects.paid == pay and step.effects.cost == pay.total
    assert funds(step.state, W) == after


def test_unpaid_activation_costs_nothing() -> None:
    step = ok(_start(), Activate("Soul Ward"))
    assert funds(step.state, W) == (20, 10) and step.effects.paid is None


@pytest.mark.parametrize("pay", [Payment(sp=11, lp=0), Payment(sp=0, lp=21), Payment(sp=10, lp=21)])
def test_payment_beyond_means_is_r115(pay: Payment) -> None:
    rejected(_start(), Activate("Arcane Surge", pay), "SG-R115", "more than the player has", part=Part.PAY)


def test_rejected_activation_is_not_counted() -> None:
    st = ok(_start(), Activate("A")).state
    rejected(st, Activate("B", Payment(sp=50, lp=0)), "SG-R115")
    assert ok(st, Activate("B")).state.turn.activations == 2


def test_activation_is_an_action_no_pass_r04() -> None:
    """R04: card activations are actions, so the turn is not a Pass."""
    st = ok(_start(), Activate("Soul Ward")).state
    step = ok(st, EndTurn())
    assert not step.effects.passed and funds(step.state, W) == (20, 10)
