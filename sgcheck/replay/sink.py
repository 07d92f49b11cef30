"""Where a replay's findings go: :class:`FindingSink`, the one object every part of a replay hands
its findings to (through :meth:`~sgcheck.replay.session.Session.report`, or :meth:`FindingSink.add`
for findings already placed, a pack's and a scenario's).

The findings so far are a value, :class:`Found`: a chain that each finding extends without
changing what came before, so a checkpoint (:mod:`sgcheck.replay.resume`) keeps the findings of
its position by keeping the chain's head, and a replay resumed from it extends that same chain.
"""

from __future__ import annotations

from collections.abc import Iterable

from sgcheck.diagnostics import Diagnostic
from sgcheck.replay.chain import Link, in_order
from sgcheck.replay.observer import ReplayObserver

#: The findings of a replay so far, newest first (a chain, :mod:`sgcheck.replay.chain`).
Found = Link[Diagnostic]


def listed(found: Found | None, since: int = 0) -> list[Diagnostic]:
    """The findings of ``found`` in the order they were made, from number ``since`` on."""
    return in_order(found, since)


class FindingSink:
    """Takes a replay's findings in order; tells the observer of each (its number) before it is
    kept. ``amend`` changes one already kept, as the end of the log does (the ``SG-N306`` hints):
    the change shows in :meth:`findings`, while every kept :class:`Found` stays as it was."""

    def __init__(self, kept: Found | None = None, observer: ReplayObserver | None = None) -> None:
        self.kept = kept
        self.observer = observer
        self.errors = 0  # errors found since the sink was made, reported or counted for an earlier one
        self._amended: dict[int, Diagnostic] = {}

    @property
    def count(self) -> int:
        kept = self.kept
        return kept.count if kept is not None else 0

    def add(self, diag: Diagnostic) -> None:
        """Keep ``diag`` (placed and final)."""
        kept = self.kept
        count = kept.count if kept is not None else 0
        if self.observer is not None:
            self.observer.reported(count)
        self.kept = Link(diag, kept)

    def extend(self, findings: Iterable[Diagnostic]) -> None:
        """Keep ``findings`` made before play (a pack's, a scenario's), of which no step tells the
        observer."""
        for diag in findings:
            self.kept = Link(diag, self.kept)

    def last(self) -> Diagnostic:
        """The finding kept last (there is one)."""
        kept = self.kept
        assert kept is not None
        return self._amended.get(kept.count - 1, kept.value)

    def since(self, index: int) -> list[Diagnostic]:
        """The findings from number ``index`` on."""
        return listed(self.kept, index)

    def amend(self, index: int, diag: Diagnostic) -> None:
        """Finding number ``index`` is ``diag`` instead (it exists)."""
        self._amended[index] = diag

    def findings(self) -> list[Diagnostic]:
        """Every finding, in order, with the amendments."""
        out = listed(self.kept)
        for index, diag in self._amended.items():
            out[index] = diag
        return out
