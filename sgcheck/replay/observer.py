"""What the turn loop tells an observer as it goes: :class:`TurnObserver`.

The turn loop (:mod:`sgcheck.replay.turn_loop`) calls these methods, and only when it has an
observer: a replay without one pays nothing for them. The HTML report's timeline
(:class:`sgcheck.replay.timeline.Recording`) is one: it keeps the position after each step and
why the step came out as it did.

A *step* is a phase label entered, a statement played or a turn ended; :meth:`step_begins`
comes before each, then any :meth:`applied` and :meth:`reported`, then the method that ends it
(:meth:`label_played`, :meth:`statement_played` or :meth:`turn_ended`), called even when a
finding stops the replay inside the step.
"""

from __future__ import annotations

from collections.abc import Sequence

from sgcheck.core.actions import Action
from sgcheck.core.outcome import Applied, Rejected
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.reader import PlainTurn, TurnStep


class TurnObserver:
    """Told of each step of the turn loop; every method here does nothing."""

    def started(self, state: GameState, line: int) -> None:
        """Play starts at ``state``; ``line``: where (the first turn's header, 0: nowhere)."""

    def step_begins(self) -> None:
        """A phase label, a statement or a turn's end is about to be played."""

    def applied(self, before: GameState, action: Action, outcome: Applied | Rejected) -> None:
        """The core was asked to apply ``action`` at ``before`` (a statement or a turn's end)."""

    def reported(self, index: int) -> None:
        """The replay's finding number ``index`` is about to be recorded."""

    def label_played(self, line: int, state: GameState | None) -> None:
        """A phase label on ``line`` was entered; ``state``: the position after it."""

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> None:
        """``step``'s statement was played from ``before`` to ``state``, with these ``findings``."""

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> None:
        """``turn`` ended (``passes``: its ``pass`` statements); ``state``: the position after it."""
