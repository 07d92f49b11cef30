"""Turn structure: phases in order and the window of every action (core §2, R03, SG-T102, SG-T103)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

import pytest

from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    EndTurn,
    EnterPhase,
    Move,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Kind, Phase
from sgcheck.core.state import GameState, initial_state

from .helpers import HIT, ROLL_18, B, W, end_turn, enter, ok, position, rejected, sq

ALL_PHASES = list(Phase)


def test_phases_run_in_order_core_s2() -> None:
    """core §2: Upkeep, Main 1, Battle, Main 2, End."""
    assert [p.title for p in Phase] == ["Upkeep", "Main 1", "Battle", "Main 2", "End"]
    st = initial_state(sq("e1"), sq("e8"))
    for phase in ALL_PHASES[1:]:
        st = enter(st, phase)
        assert st.turn.phase is phase


@pytest.mark.parametrize(("current", "later"), [(a, b) for a, b in product(Phase, Phase) if b > a])
def test_later_phase_may_be_entered_skipping_is_allowed_r03(current: Phase, later: Phase) -> None:
    """R03: phases only move forward; skipping ahead is fine."""
    st = position("Ke1 ke8", phase=current)
    assert enter(st, later).turn.phase is later


@pytest.mark.parametrize(("current", "earlier"), [(a, b) for a, b in product(Phase, Phase) if b <= a])
def test_going_back_or_repeating_a_phase_is_t102_r03(current: Phase, earlier: Phase) -> None:
    """R03: going back (or repeating the current phase) is illegal: SG-T102."""
    st = position("Ke1 ke8", phase=current)
    verb = "repeated" if earlier is current else "revisited"
    v = rejected(st, EnterPhase(earlier), "SG-T102", earlier.title, verb, current.title)
    assert "R03" in v.diagnostic.rules


@pytest.mark.parametrize("phase", ALL_PHASES)
def test_turn_may_end_from_any_phase_and_hands_over_core_s2(phase: Phase) -> None:
    """core §2: ending the turn (End phase) hands the next turn to the other player, at Upkeep."""
    st = position("Ke1 ke8", phase=phase, turn_number=4)
    after = end_turn(st)
    assert (after.to_move, after.turn_number, after.turn.phase) == (B, 4, Phase.UPKEEP)
    again = end_turn(after)
    assert (again.to_move, again.turn_number, again.turn.phase) == (W, 5, Phase.UPKEEP)


# --- action windows (R03) ----------------------------------------------------------------------
#
# One position in which every kind of action would be legal if only the phase allowed it:
# White Rook a3 two squares below a Black Pawn a5, a free a1, plenty of LP/SP and Gem pieces.


def _base(**kw: Any) -> GameState:
    return position("Ke1 Ra3 ke8 pa5", lp=100, sp=10, **kw)


WINDOWS: dict[str, tuple[Callable[[Phase], GameState], Action, set[Phase]]] = {
    "summon": (lambda p: _base(phase=p), Summon(Kind.ROOK, sq("h1")), {Phase.UPKEEP}),
    "break": (lambda p: _base(phase=p), Break(ROLL_18), {Phase.UPKEEP}),
    "repair": (lambda p: _base(phase=p, gem_broken=(True, False)), Repair(ROLL_18), {Phase.UPKEEP}),
    "move": (lambda p: _base(phase=p), Move(sq("a3"), sq("a4")), {Phase.MAIN1, Phase.MAIN2}),
    "attack": (lambda p: _base(phase=p), Attack(sq("a3"), sq("a5"), HIT), {Phase.BATTLE}),
    "convert": (lambda p: _base(phase=p), Convert(2), {Phase.MAIN2}),
    "teleport": (lambda p: _base(phase=p), Teleport(sq("a3"), sq("a1")), {Phase.END}),
}

WHAT = {
    "summon": "Summon",
    "break": "Break",
    "repair": "Repair",
    "move": "Move",
    "attack": "Attack",
    "convert": "conversion",
    "teleport": "Teleport",
}


@pytest.mark.parametrize("phase", ALL_PHASES)
@pytest.mark.parametrize("kind", sorted(WINDOWS))
def test_action_window_r03(kind: str, phase: Phase) -> None:
    """R03 / core §2, §5: Summon, Break, Repair in Upkeep; Move in Main 1/2; Attack in Battle;
    Convert in Main 2; Teleport in End. Outside its window an action is SG-T103."""
    build, action, window = WINDOWS[kind]
    st = build(phase)
    if phase in window:
        assert isinstance(ok(st, action), Applied)
    else:
        allowed = " or ".join(p.title for p in Phase if p in window)
        v = rejected(st, action, "SG-T103", WHAT[kind], f"only allowed in {allowed}", f"not in {phase.title}")
        assert "R03" in v.diagnostic.rules


@pytest.mark.parametrize("phase", ALL_PHASES)
def test_activation_is_not_bound_to_a_core_phase_r03(phase: Phase) -> None:
    """R03: a card activation happens in the phase its card names; the core knows no card, so any phase."""
    assert isinstance(ok(_base(phase=phase), Activate("Soul Ward")), Applied)


def test_wrong_phase_leaves_state_untouched_t103() -> None:
    """An illegal action changes nothing (the engine is pure)."""
    st = _base(phase=Phase.MAIN1)
    before = st
    rejected(st, Attack(sq("a3"), sq("a5"), HIT), "SG-T103")
    assert st == before


def test_per_turn_limits_reset_next_turn_core_s2() -> None:
    """core §5: one Summon per Upkeep — a new turn's Upkeep allows another."""
    st = initial_state(sq("e1"), sq("e8"))
    st = ok(st, Summon(Kind.PAWN, sq("a2"))).state
    rejected(st, Summon(Kind.PAWN, sq("b2")), "SG-T104")
    st = end_turn(end_turn(st))
    assert st.to_move is W and st.turn.phase is Phase.UPKEEP
    assert isinstance(ok(st, Summon(Kind.PAWN, sq("b2"))), Applied)


def test_end_turn_is_always_legal_in_a_live_game() -> None:
    """core §2: the End phase always comes; nothing can prevent ending a turn."""
    st = position("Ke1 ke8", lp=0, sp=0, phase=Phase.UPKEEP)
    assert isinstance(ok(st, EndTurn()), Applied)
