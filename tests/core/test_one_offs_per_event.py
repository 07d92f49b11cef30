"""Ruling CR2 (docs/contract-rules.md, "One-offs, per event"): a one-off acts once per event that
resolves it, reads its condition at that event, and a ``limit`` per game counts its firings over
the whole game (core §8, R23, docs/cards.md "In play").

The engine's reading is held against a model written from the ruling's words, not from the engine:
a running total of the holder's SP, one King step after another, across turns.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.core.actions import Move, Play
from sgcheck.core.cards.table import new_cards
from sgcheck.core.pieces import Color, Phase
from tests.core.helpers import cards_by_name, end_turn, enter, ok, position, sq

W, B = Color.WHITE, Color.BLACK

PURSE = cards_by_name(
    'relic "Toll Purse" passive { cost free phase main effect on move: gain 2 SP when own SP < 5 limit 3 per game }\n',
    "purse.sgcard",
)


def _model(start_sp: int, steps_per_turn: list[int]) -> tuple[int, int]:
    """CR2 by its words (every turn of White acts, so none is a Pass, R04): each step costs 1,
    paid in SP while there is some, else in LP (a King step, R05, R09); then the one-off fires
    once for that event if its condition holds *then* and the game's limit has room. The
    holder's (LP, SP) at the end."""
    lp, sp, fired = 40, start_sp, 0
    for steps in steps_per_turn:
        for _ in range(steps):
            if sp:
                sp -= 1
            else:
                lp -= 1
            if sp < 5 and fired < 3:
                sp, fired = sp + 2, fired + 1
    return lp, sp


@settings(max_examples=25, deadline=None)
@given(start=st.integers(5, 9), turns=st.lists(st.integers(1, 4), min_size=1, max_size=4))
def test_cr2_a_one_off_acts_once_per_event_its_condition_read_then_its_limit_over_the_game(
    start: int, turns: list[int]
) -> None:
    state = position("Ke1 ke8", sp=(start, 0), lp=(40, 40), phase=Phase.MAIN1)
    state = state.replace(cards=new_cards(PURSE, ("Toll Purse",), ()))
    state = ok(state, Play("Toll Purse")).state
    at_e2 = False
    for index, steps in enumerate(turns):
        if index:
            state = end_turn(state)  # White's turn ends
            state = end_turn(enter(state, Phase.MAIN1))  # Black passes through its turn
            state = enter(state, Phase.MAIN1)
        here, there = (sq("e2"), sq("e1")) if at_e2 else (sq("e1"), sq("e2"))
        for _ in range(steps):
            state = ok(state, Move(here, there)).state
            here, there = there, here
            at_e2 = not at_e2
    assert (state.players[W].lp, state.players[W].sp) == _model(start, turns)
