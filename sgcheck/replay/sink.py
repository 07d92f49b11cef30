"""Where a replay's findings go: :class:`FindingSink`, the one object every part of a replay hands
its findings to (through :meth:`~sgcheck.replay.session.Session.report`, or :meth:`FindingSink.add`
for findings already placed, a pack's and a scenario's).

The findings so far are a value, :class:`Found`: a chain that each finding extends without
changing what came before, so a checkpoint (:mod:`sgcheck.replay.resume`) keeps the findings of
its position by keeping the chain's head, and a replay resumed from it extends that same chain.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, final

from sgcheck.diagnostics import Diagnostic
from sgcheck.replay.observer import TurnObserver


@final
class Found:
    """The findings of a replay so far, newest first: ``diagnostic``, after the ``earlier`` ones;
    ``count`` of them in all. Never changed once made; compared by identity (two chains are the
    same findings when they are the same chain), so that no comparison walks a long chain."""

    __slots__ = ("count", "diagnostic", "earlier")

    diagnostic: Final[Diagnostic]
    earlier: Final[Found | None]
    count: Final[int]

    def __init__(self, diagnostic: Diagnostic, earlier: Found | None, count: int) -> None:
        self.diagnostic = diagnostic
        self.earlier = earlier
        self.count = count

    def __repr__(self) -> str:
        return f"Found({self.count} findings, the last {self.diagnostic.code})"


def listed(found: Found | None, since: int = 0) -> list[Diagnostic]:
    """The findings of ``found`` in the order they were made, from number ``since`` on."""
    out: list[Diagnostic] = []
    node = found
    while node is not None and node.count > since:
        out.append(node.diagnostic)
        node = node.earlier
    out.reverse()
    return out


class FindingSink:
    """Takes a replay's findings in order; tells the observer of each (its number) before it is
    kept. ``amend`` changes one already kept, as the end of the log does (the ``SG-N306`` hints):
    the change shows in :meth:`findings`, while every kept :class:`Found` stays as it was."""

    def __init__(self, kept: Found | None = None, observer: TurnObserver | None = None) -> None:
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
        self.kept = Found(diag, kept, count + 1)

    def extend(self, findings: Iterable[Diagnostic]) -> None:
        """Keep ``findings`` made before play (a pack's, a scenario's), of which no step tells the
        observer."""
        for diag in findings:
            kept = self.kept
            self.kept = Found(diag, kept, kept.count + 1 if kept is not None else 1)

    def last(self) -> Diagnostic:
        """The finding kept last (there is one)."""
        kept = self.kept
        assert kept is not None
        return self._amended.get(kept.count - 1, kept.diagnostic)

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
