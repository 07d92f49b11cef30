"""The one loop of a game played here: choose, apply with the engine, write the log's turns.

:func:`play` applies each chosen action with :func:`sgcheck.core.engine.apply` and hands out
each :class:`Step` (the state before, the action, what the engine returned); an action the
engine refuses is never played: the caller says which error it is. :class:`GameLog` writes
applied actions as the log's turns, each statement with the claims the engine's effects justify
(:mod:`sgcheck.lang.logs.from_actions`), so replay reads the same numbers back. The generator,
the simulator and the contract's proofs are drivers over these two.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sgcheck.core import engine
from sgcheck.core.actions import Action, EndTurn, EnterPhase
from sgcheck.core.outcome import Applied, Rejected
from sgcheck.core.pieces import Color
from sgcheck.core.state import GameState
from sgcheck.lang.logs.ast import ClaimKind, ResultLine, Turn
from sgcheck.lang.logs.from_actions import NOWHERE, Claims, TurnWriter, claims_for, statement_for


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action: the state it was taken in, the action, and what the engine returned."""

    before: GameState
    action: Action
    applied: Applied

    @property
    def mover(self) -> Color:
        return self.before.to_move

    @property
    def after(self) -> GameState:
        return self.applied.state

    @property
    def counted(self) -> bool:
        """An action of the log's count (R04): neither a phase change nor the end of a turn."""
        return not isinstance(self.action, EnterPhase | EndTurn)


def never(state: GameState) -> bool:
    return False


def play(
    state: GameState,
    choose: Callable[[GameState], Action | None],
    refused: Callable[[GameState, Action, Rejected], Exception],
    *,
    stop: Callable[[GameState], bool] = never,
) -> Iterator[Step]:
    """Each step of the game from ``state`` until it ends, ``choose`` has nothing more (None) or,
    at the start of a turn, ``stop`` says so. An action the engine refuses raises what
    ``refused`` makes of it."""
    at_turn_start = True
    while state.result is None:
        if at_turn_start and stop(state):
            return
        action = choose(state)
        if action is None:
            return
        outcome = engine.apply(state, action)
        if not isinstance(outcome, Applied):
            raise refused(state, action, outcome)
        yield Step(state, action, outcome)
        at_turn_start = isinstance(action, EndTurn)
        state = outcome.state


class GameLog:
    """Applied actions written as the log's turns. ``claims`` says which claims each statement
    takes, picked with ``rng`` (all of them draw nothing that moves the game)."""

    def __init__(self, state: GameState, claims: Claims, rng: random.Random) -> None:
        self._claims, self._rng = claims, rng
        self._writer = TurnWriter(state.turn_number, state.to_move)
        self._open = False  # the current turn has had a step: written if the game stops in it

    def write(self, step: Step) -> Turn | None:
        """Write ``step``; the turn it ends, if it ends one (an end of turn, or the game's end)."""
        action, fx, after = step.action, step.applied.effects, step.after
        if isinstance(action, EnterPhase):
            self._writer.enter(action.phase)
            self._open = True
            return None
        claims = claims_for(action, fx, after, step.mover, self._claims, self._rng)
        if isinstance(action, EndTurn):  # a Pass's claims are the totals it leaves
            turn = self._writer.finish(fx.passed, tuple(c for c in claims if c.kind in (ClaimKind.LP, ClaimKind.SP)))
            self._writer = TurnWriter(after.turn_number, after.to_move)
            self._open = False
            return turn
        self._writer.add(statement_for(step.before, action, claims))
        self._open = True
        if after.result is not None:  # the game ends here: no more steps can follow
            self._open = False
            return self._writer.finish(False, ())
        return None

    def write_refused(self, before: GameState, action: Action) -> Turn:
        """An action the core refuses, written without claims, closing its turn: the last line of
        a contract proof for a card the contract forbids in every game (SG-R123)."""
        self._writer.add(statement_for(before, action, ()))
        self._open = False
        return self._writer.finish(False, ())

    def close(self) -> Turn | None:
        """The turn the game stopped in, written as far as it went; None when no turn is open."""
        if not self._open:
            return None
        self._open = False
        return self._writer.finish(False, ())


def result_line(state: GameState) -> ResultLine | None:
    """The result line of a game that ended (core §7); None for one still in play."""
    if state.result is None:
        return None
    return ResultLine(state.result.score, state.result.outcome.value, NOWHERE)
