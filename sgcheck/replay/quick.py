"""Replay a quick turn (:mod:`sgcheck.lang.logs.quick`) against the core, without its syntax tree.

The same engine, the same claim checkers and the same order of events as the full replay
of a :class:`~sgcheck.lang.logs.ast.Turn` in :mod:`sgcheck.replay.interpreter`; what differs
is only what happens when something is wrong. Here the answer is just "not this way": the
interpreter then replays the turn's syntax tree from the same (immutable) state, and that
replay says what is wrong and where. Tests check that both give the same result.
"""

from __future__ import annotations

from sgcheck.core.actions import EndTurn, EnterPhase
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied, Effects
from sgcheck.core.pieces import Phase
from sgcheck.core.state import GameState
from sgcheck.lang.logs.quick import QuickClaim, QuickTurn
from sgcheck.replay.claims import claims_hold

_ENTER = {phase: EnterPhase(phase) for phase in Phase}
_END_TURN = EndTurn()
_NO_EFFECTS = Effects()


def replay_quick_turn(state: GameState, turn: QuickTurn) -> tuple[GameState, int] | None:
    """The state after ``turn`` and the number of statements replayed (passes aside), if the
    turn is the one due, every action is legal, every claim holds and the game goes on;
    otherwise None, and the caller replays the turn's syntax tree to find out why.
    """
    if state.result is not None or turn.number != state.turn_number or turn.color is not state.to_move:
        return None
    actor = state.to_move
    first_label = True
    passes: list[tuple[QuickClaim, ...]] = []
    statements = 0
    for _number, _color, phase, word, action, claims, amount in turn.steps:
        if phase is not None:
            if not (first_label and phase is state.turn.phase):
                entered = apply(state, _ENTER[phase])
                if not isinstance(entered, Applied):
                    return None
                state = entered.state
            first_label = False
        if word is None:
            continue
        if first_label:
            return None  # a statement before any phase label (SG-T107)
        if word == "pass":
            passes.append(claims)
            continue
        statements += 1
        if action is None:  # income
            if state.turn.phase is not Phase.UPKEEP or amount != state.turn.income:
                return None
            if claims and not claims_hold(claims, _NO_EFFECTS, state.players[actor], word):
                return None
            continue
        done = apply(state, action)
        if not isinstance(done, Applied) or done.state.result is not None:
            return None
        state = done.state
        if claims and not claims_hold(claims, done.effects, state.players[actor], word):
            return None
    ended = apply(state, _END_TURN)
    if not isinstance(ended, Applied) or ended.state.result is not None:
        return None
    for claims in passes:
        if not ended.effects.passed:
            return None
        if claims and not claims_hold(claims, ended.effects, ended.state.players[actor], "pass"):
            return None
    return ended.state, statements
