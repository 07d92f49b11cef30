"""What every part of a replay shares about its findings: where one happened (its context), how
``--allow-violations`` words a pack's error, and the exception that stops a replay."""

from __future__ import annotations

from dataclasses import replace

from sgcheck.core.pieces import Color, Phase
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic, Severity
from sgcheck.replay.describe import describe_state

#: The line being replayed: its turn number, whose turn it is, and its phase (None before any label).
Where = tuple[int, Color, Phase | None]

#: The scores a result line or a [Result] tag may give.
SCORES = ("1-0", "0-1", "1/2-1/2", "*")


class Stop(Exception):
    """Replay cannot (or, without keep_going, should not) continue."""


def context(st: GameState, where: Where | None = None, after: GameState | None = None) -> tuple[tuple[str, str], ...]:
    """Where a finding happened, for every output format: the turn, player and phase of the state,
    or those of the line ``where`` (after the game ended the state stays where it ended); the
    players' totals before the line was played (``state before``) and, for an action the core
    applied, after it (``state after``). Every finding on one action shows the same two."""
    number, player, phase = (st.turn_number, st.to_move, st.turn.phase) if where is None else where
    pairs = [("turn", str(number)), ("player", player.title)]
    if phase is not None:
        pairs.append(("phase", phase.title))
    pairs.append(("state before", describe_state(st)))
    if after is not None:
        pairs.append(("state after", describe_state(after)))
    return tuple(pairs)


def allowed(finding: Diagnostic) -> Diagnostic:
    """An error of a pack that breaks the contract, as ``--allow-violations`` reports it: the same
    code, a warning, saying why (the pack's own findings, and what the watch sees in play)."""
    return replace(
        finding, severity=Severity.WARNING, message=f"{finding.message} (downgraded to a warning by --allow-violations)"
    )
