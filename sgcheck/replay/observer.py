"""What the turn loop tells an observer as it goes, and how an observer stops it: :class:`TurnObserver`.

The turn loop (:mod:`sgcheck.replay.turn_loop`) calls these methods, and only when it has an
observer: a replay without one pays nothing for them. The HTML report's timeline
(:class:`sgcheck.replay.timeline.Recording`), the library's positions (:mod:`sgcheck.api`), the
dispute report's notes (:mod:`sgcheck.replay.dispute`) and the language server's answers are
observers.

A *step* is a phase label entered, a statement played or a turn ended; :meth:`step_begins`
comes before each, then any :meth:`applied` and :meth:`reported`, then the method that ends it
(:meth:`label_played`, :meth:`statement_played` or :meth:`turn_ended`), called even when a
finding stops the replay inside the step.

:meth:`started`, :meth:`step_begins` and the three that end a step answer :data:`GO` or
:data:`STOP`. On :data:`STOP` the replay goes no further: no later step is played (after
:meth:`step_begins`, not the one about to begin either), the end of the log is not judged, and
the result says the replay stopped (``ReplayResult.stopped``). Nothing is raised: an observer
that has seen what it wanted, or whose work is no longer wanted, says so.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from sgcheck.core.actions import Action
from sgcheck.core.outcome import Applied, Rejected
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.reader import PlainTurn, TurnStep


class Flow(enum.Enum):
    """An observer's answer to a step: go on, or stop the replay there."""

    GO = "go"
    STOP = "stop"


GO = Flow.GO
STOP = Flow.STOP


class TurnObserver:
    """Told of each step of the turn loop; every method here does nothing and goes on."""

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
