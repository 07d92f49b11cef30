"""What a replay tells an observer as it goes, and how an observer stops it: :class:`ReplayObserver`,
the one observer protocol of replay.

An observer says which :class:`Event` kinds it watches (:attr:`ReplayObserver.events`), and the
replay tells it of those only: a replay without an observer, or whose observer does not watch the
steps, pays nothing for them (the turn loop plays a turn with nothing to report in one go). The
kinds:

- :data:`Event.TURNS`: :meth:`~ReplayObserver.turn_begins` before each turn the line reader read,
  with the replay's position and findings then, both values (a resumed replay's checkpoints,
  :mod:`sgcheck.replay.resume`);
- :data:`Event.STEPS`: every step of the turn loop. A *step* is a phase label entered, a statement
  played or a turn ended; :meth:`~ReplayObserver.step_begins` comes before each, then any
  :meth:`~ReplayObserver.applied` and :meth:`~ReplayObserver.reported`, then the method that ends
  it (:meth:`~ReplayObserver.label_played`, :meth:`~ReplayObserver.statement_played` or
  :meth:`~ReplayObserver.turn_ended`), called even when a finding stops the replay inside the
  step; :meth:`~ReplayObserver.started` when play starts. The HTML report's timeline
  (:class:`sgcheck.replay.timeline.Recording`), the library's positions (:mod:`sgcheck.api`), the
  dispute report's notes (:mod:`sgcheck.replay.dispute`) and the language server's answers;
- :data:`Event.EFFECTS`: :meth:`~ReplayObserver.statement_effects`, what each statement the core
  applied did, *instead of* judging its claims: a replay with such an observer checks no claim and
  no income amount (``fmt --fill-claims``, :mod:`sgcheck.replay.fill_log`, writes the claims from
  them; the dispute report replays a changed log so).

Every method that answers, answers :data:`GO` or :data:`STOP`. On :data:`STOP` the replay goes no
further: no later step is played (after :meth:`~ReplayObserver.step_begins` or
:meth:`~ReplayObserver.turn_begins`, not the one about to begin either), the end of the log is not
judged, and the result says the replay stopped (``ReplayResult.stopped``). Nothing is raised: an
observer that has seen what it wanted, or whose work is no longer wanted, says so. Several
observers watch one replay as one, :class:`Observers`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sgcheck.core.actions import Action
from sgcheck.core.outcome import Applied, Effects, Rejected
from sgcheck.core.state import GameState, PlayerState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.ast import Statement
from sgcheck.lang.logs.reader import PlainTurn, TurnStep
from sgcheck.replay.chain import Link

if TYPE_CHECKING:
    from sgcheck.replay.position import ReplayPosition


class Flow(enum.Enum):
    """An observer's answer to a step: go on, or stop the replay there."""

    GO = "go"
    STOP = "stop"


GO = Flow.GO
STOP = Flow.STOP


class Event(enum.Flag):
    """What an observer may watch (see the module's docstring)."""

    NONE = 0
    TURNS = enum.auto()
    STEPS = enum.auto()
    EFFECTS = enum.auto()


class ReplayObserver:
    """Told of the :attr:`events` it watches as a replay goes; every method here does nothing and
    goes on. A subclass overrides the methods of the events it names."""

    #: The events this observer is told of (the steps, unless a subclass says otherwise).
    events: Event = Event.STEPS

    def turn_begins(self, turn: PlainTurn, position: ReplayPosition, found: Link[Diagnostic] | None) -> Flow:
        """``turn`` (read by the line reader) is about to be played from ``position``, with the
        findings ``found`` so far (:data:`sgcheck.replay.sink.Found`) (:data:`Event.TURNS`)."""
        return GO

    def statement_effects(self, stmt: Statement, effects: Effects, player: PlayerState) -> Flow:
        """The core applied ``stmt``: what it did and the actor after it (for an ``income`` note:
        ``Effects(income=...)``, the Upkeep's income, and the player); its claims are not judged
        (:data:`Event.EFFECTS`)."""
        return GO

    def started(self, state: GameState, line: int) -> Flow:
        """Play starts at ``state``; ``line``: where (the first turn's header, 0: nowhere)."""
        return GO

    def step_begins(self) -> Flow:
        """A phase label, a statement or a turn's end is about to be played (:data:`STOP`: it is not)."""
        return GO

    def applied(self, before: GameState, action: Action, outcome: Applied | Rejected) -> None:
        """The core was asked to apply ``action`` at ``before`` (a statement or a turn's end)."""

    def reported(self, index: int) -> None:
        """The replay's finding number ``index`` is about to be recorded."""

    def label_played(self, line: int, state: GameState | None) -> Flow:
        """A phase label on ``line`` was entered; ``state``: the position after it."""
        return GO

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        """``step``'s statement was played from ``before`` to ``state``, with these ``findings``."""
        return GO

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> Flow:
        """``turn`` ended (``passes``: its ``pass`` statements); ``state``: the position after it."""
        return GO


#: The protocol's former name, from when an observer watched the steps only (deprecated: use
#: :class:`ReplayObserver`, whose default events are the steps).
TurnObserver = ReplayObserver


class Observers(ReplayObserver):
    """Several observers watching one replay as one: each is told of the events it watches, in
    the order given, and the replay stops when any answers :data:`STOP` (the others are still told
    of the step that ends, as its observers always are)."""

    def __init__(self, observers: Iterable[ReplayObserver]) -> None:
        self.observers = tuple(observers)
        events = Event.NONE
        for observer in self.observers:
            events |= observer.events
        self.events = events
        self._turns = tuple(o for o in self.observers if Event.TURNS in o.events)
        self._steps = tuple(o for o in self.observers if Event.STEPS in o.events)
        self._effects = tuple(o for o in self.observers if Event.EFFECTS in o.events)

    @staticmethod
    def _all(answers: Iterable[Flow]) -> Flow:
        """STOP if any answer is (every answer is asked for)."""
        return STOP if STOP in list(answers) else GO

    def turn_begins(self, turn: PlainTurn, position: ReplayPosition, found: Link[Diagnostic] | None) -> Flow:
        return self._all(o.turn_begins(turn, position, found) for o in self._turns)

    def statement_effects(self, stmt: Statement, effects: Effects, player: PlayerState) -> Flow:
        return self._all(o.statement_effects(stmt, effects, player) for o in self._effects)

    def started(self, state: GameState, line: int) -> Flow:
        return self._all(o.started(state, line) for o in self._steps)

    def step_begins(self) -> Flow:
        return self._all(o.step_begins() for o in self._steps)

    def applied(self, before: GameState, action: Action, outcome: Applied | Rejected) -> None:
        for o in self._steps:
            o.applied(before, action, outcome)

    def reported(self, index: int) -> None:
        for o in self._steps:
            o.reported(index)

    def label_played(self, line: int, state: GameState | None) -> Flow:
        return self._all(o.label_played(line, state) for o in self._steps)

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        return self._all(o.statement_played(turn, step, before, state, findings) for o in self._steps)

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> Flow:
        return self._all(o.turn_ended(turn, passes, state) for o in self._steps)


def joined(*observers: ReplayObserver | None) -> ReplayObserver | None:
    """The observers given (None: none) as one: None, the only one, or :class:`Observers`."""
    present = [observer for observer in observers if observer is not None]
    if not present:
        return None
    return present[0] if len(present) == 1 else Observers(present)
