"""The core records' ``with_*`` updates stay in step with the records' fields, and the records
keep the meaning of immutable values.

Each ``with_*`` method calls its record's constructor by position. If a field is added, removed
or moved, a value can land in the wrong field. These tests build records whose fields all hold
distinct values and require every update to equal the same change made with ``replace`` (which
goes by name), so any such drift fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from sgcheck.core.formulas import Worked
from sgcheck.core.outcome import Effects
from sgcheck.core.pieces import BLACK, WHITE, Outcome, Phase
from sgcheck.core.play.predicates import resolve_payment
from sgcheck.core.record import Record
from sgcheck.core.ruleset import parse_ruleset
from sgcheck.core.scenario import Scenario, ScenarioPlay
from sgcheck.core.squares import Square
from sgcheck.core.state import GameResult, GameState, Payment, PlayerState, TurnState, initial_state


def _player(seed: int) -> PlayerState:
    return PlayerState(
        lp=seed + 1, sp=seed + 2, gem=(seed,) * 12, gem_broken=True, king_damage=seed + 3, turns_started=seed + 4
    )


def _turn() -> TurnState:
    return TurnState(
        phase=Phase.BATTLE,
        actions=2,
        activations=1,
        summoned=True,
        broke=True,
        repaired=True,
        teleported=True,
        converted_sp=6,
        income=4,
        damage=((Square(3), 1),),
    )


def _state() -> GameState:
    base = initial_state(Square(4), Square(60))
    return GameState(
        board=base.board,
        players=(_player(10), _player(20)),
        to_move=BLACK,
        turn_number=7,
        turn=_turn(),
        ruleset=parse_ruleset("king_value=3"),
        result=GameResult(WHITE, Outcome.KING_CONVERSION, 7, "detail"),
        scenario=ScenarioPlay(Scenario("distinct")),  # cards stay None: the only field left at None
    )


def _distinct(record: Record) -> None:
    """Guard the guard: a swap of two equal fields would go unnoticed."""
    values: list[Any] = [getattr(record, name) for name in record.__match_args__]
    for i, value in enumerate(values):
        assert all(value is not other or i == j for j, other in enumerate(values)), (record, i)


def test_player_updates_equal_replace() -> None:
    player = _player(1)
    _distinct(player)
    assert player.with_funds(50, 60) == player.replace(lp=50, sp=60)
    gem = (9,) * 12
    assert player.with_gem(gem, 70) == player.replace(gem=gem, sp=70)
    assert player.starting_turn(8) == player.replace(sp=player.sp + 8, turns_started=player.turns_started + 1)


def test_turn_updates_equal_replace() -> None:
    turn = _turn()
    assert turn.with_phase(Phase.MAIN2) == turn.replace(phase=Phase.MAIN2)
    assert turn.counted() == turn.replace(actions=turn.actions + 1)
    assert turn.replace(summoned=False).summoning() == turn  # R12: the turn's Summon, every other field kept
    damage = ((Square(9), 2),)
    assert turn.with_damage(damage) == turn.replace(damage=damage)


def test_game_state_updates_equal_replace() -> None:
    state = _state()
    _distinct(state)
    player = _player(30)
    assert state.with_player(WHITE, player) == state.replace(players=(player, state.players[1]))
    assert state.with_player(BLACK, player) == state.replace(players=(state.players[0], player))
    turn = TurnState()
    assert state.with_turn(turn) == state.replace(turn=turn)
    board = initial_state(Square(4), Square(60)).board[::-1]
    assert state.with_board(board) == state.replace(board=board)
    players = (_player(40), _player(50))
    assert state.handed_over(players, WHITE, 8, turn) == state.replace(
        players=players, to_move=WHITE, turn_number=8, turn=turn
    )
    assert state.with_play(board, players, turn) == state.replace(board=board, players=players, turn=turn)


def test_effects_and_payment_updates_equal_their_constructors() -> None:
    worked = Worked(7, "a test value")
    paid = Payment(3, 4)
    assert Effects.of_payment(worked, paid) == Effects(cost_worked=worked, paid=paid)
    state = _state().replace(to_move=WHITE)  # the mover has 12 SP and 11 LP
    assert resolve_payment(state, Worked(15, "15"), None, "move") == Payment(sp=12, lp=3)  # SP first (R05)


def test_records_are_values() -> None:
    """Equal fields make equal, equally hashed records; a record of another type never equals one
    (an action's equality compares its type too); ``replace`` refuses a field the record lacks."""
    state = _state()
    again = _state()
    assert state == again and hash(state) == hash(again) and state is not again
    assert state != state.with_turn(TurnState())
    assert Payment(1, 2) != (1, 2) and Payment(1, 2) == Payment(sp=1, lp=2)
    assert repr(Payment(1, 2)) == "Payment(sp=1, lp=2)"
    with pytest.raises(TypeError):
        state.replace(no_such_field=1)
