"""Replay resumed at a turn: checkpoints kept from one replay, and a later replay of the same log,
changed further on, that reads and plays only from the last checkpoint before the change.

A checkpoint (:class:`~sgcheck.replay.position.Checkpoint`) is the replay's position and its
findings just before a turn the line reader read, with where that turn starts. Both are immutable
values the replay goes on from without changing them, so a checkpoint is simply kept, shared with
the replay, and costs nothing to take; one is kept every :data:`EVERY` turns. A checkpoint is
valid for a changed text when every line up to and including its turn's first line is unchanged:
the items before it are then read exactly as before (the reader ends an item where the next one
starts, which that line shows), so going on from it gives the result of a replay from the start,
which the tests hold on generated logs in every layout. The language server
(:mod:`sgcheck.server`) keeps the checkpoints of each open log; a change at the end of a long log
is replayed from the last turns, not from the first.
"""

from __future__ import annotations

from collections.abc import Sequence

from sgcheck.lang.logs.reader import PlainTurn
from sgcheck.lang.source import SourceText
from sgcheck.replay.dice_check import has_dice_tags
from sgcheck.replay.interpreter import DEFAULTS, replay_source
from sgcheck.replay.observer import GO, Event, Flow, ReplayObserver, joined
from sgcheck.replay.options import ReplayOptions, ReplayResult
from sgcheck.replay.position import Checkpoint, ReplayPosition
from sgcheck.replay.sink import Found

__all__ = ["EVERY", "Checkpoint", "first_change", "replay_kept", "usable"]

#: A checkpoint every this many turns (both sides' turns counted).
EVERY = 25


class _Keeper(ReplayObserver):
    """Keeps a checkpoint before every ``every``-th turn the line reader read."""

    events = Event.TURNS

    def __init__(self, every: int) -> None:
        self.every = every
        self.kept: list[Checkpoint] = []
        self.seen = 0

    def turn_begins(self, turn: PlainTurn, position: ReplayPosition, found: Found | None) -> Flow:
        self.seen += 1
        if self.seen % self.every == 0:
            self.kept.append(Checkpoint(turn.offset, turn.line, turn.line_start, position, found))
        return GO


def replay_kept(
    source: SourceText,
    options: ReplayOptions = DEFAULTS,
    *,
    folder: str | None = None,
    start: Checkpoint | None = None,
    observer: ReplayObserver | None = None,
    every: int = EVERY,
) -> tuple[ReplayResult, list[Checkpoint]]:
    """Replay ``source`` (from ``start``, a checkpoint of an earlier replay of the same log with
    the same options and files around it, when given) and keep checkpoints as it goes (an
    observer of the turns, beside ``observer`` if one is given): the result and the checkpoints
    after ``start`` (with ``start``'s, the checkpoints of the whole log)."""
    keeper = _Keeper(every)
    kept = keeper.kept
    result = replay_source(source, options, folder=folder, observer=joined(keeper, observer), start=start)
    if result.header is not None and has_dice_tags(result.header):
        # verifiable dice are checked in log order from the first roll (sgcheck.replay.dice_check):
        # such a log is replayed from the start each time, so no checkpoint is kept
        return result, []
    if start is not None and kept and kept[0].offset == start.offset:
        kept.pop(0)  # the turn resumed at is seen again
    return result, kept


def first_change(old: str, new: str) -> int:
    """The line (1-based) of the first character where ``new`` differs from ``old``; a line past
    both when they are equal."""
    limit = min(len(old), len(new))
    low, high = 0, limit
    # the longest common prefix, compared in large slices first
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    if low == limit and len(old) == len(new):
        return new.count("\n") + 2
    return new.count("\n", 0, low) + 1


def usable(checkpoints: Sequence[Checkpoint], changed_line: int) -> tuple[Checkpoint | None, list[Checkpoint]]:
    """The last checkpoint still valid when the text changes from ``changed_line`` on (its turn's
    first line comes before it), and every valid one up to it."""
    valid = [point for point in checkpoints if point.line < changed_line]
    return (valid[-1] if valid else None), valid
