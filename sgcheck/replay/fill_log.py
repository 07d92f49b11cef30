"""``sgcheck fmt --fill-claims``: replay a log and write its claims from what its actions did.

For each statement the core applied, the claims written wrong are corrected where they are
written (the fix replay attaches to them, :func:`sgcheck.replay.fill.claim_fix`), the right ones
are kept as written, and the missing ones are added (:func:`sgcheck.replay.fill.wanted`) in the
order of :data:`~sgcheck.lang.logs.writer.CLAIM_ORDER`, each after the claims written before it
in that order. A claim is right when replay's own checker for its kind
(:data:`sgcheck.replay.claims.CHECKERS`) accepts it, so filling keeps exactly what replay accepts.

Replay stops at the first illegal action (or whatever else stops it): the statements before it
are filled, that one and the rest are left as written, and :func:`fill_stopped` says where and
why (SG-P040). The filled text is then formatted as ``fmt`` formats any log, comments kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sgcheck.codes import diagnostic, reads_input
from sgcheck.core.outcome import Effects
from sgcheck.core.state import PlayerState
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.format_files import FileKind, Formatted, format_bytes
from sgcheck.lang.logs.ast import Claim, ClaimKind, IncomeStmt, RevealStmt, Statement
from sgcheck.lang.logs.writer import CLAIM_ORDER, format_claim
from sgcheck.replay.claims import CHECKERS
from sgcheck.replay.describe import statement_word
from sgcheck.replay.fill import PAIRS, claim_fix, income_fix, wanted
from sgcheck.replay.interpreter import ReplayOptions, replay_source
from sgcheck.replay.observer import GO, Event, Flow, ReplayObserver

if TYPE_CHECKING:
    from sgcheck.lang.source import SourceText

__all__ = ["Edit", "Filled", "apply_edits", "fill_bytes", "fill_stopped", "fill_text", "statement_edits"]

_RANK: dict[ClaimKind, int] = {kind: rank for rank, kind in enumerate(CLAIM_ORDER)}


@dataclass(frozen=True, slots=True, order=True)
class Edit:
    """Put ``text`` in place of the characters ``start``..``end`` (an insertion when they are equal)."""

    start: int
    end: int
    text: str


def statement_edits(stmt: Statement, effects: Effects, player: PlayerState) -> list[Edit]:
    """The edits that fill the claims of a statement the core applied (module docstring)."""
    edits: list[Edit] = []
    if isinstance(stmt, IncomeStmt) and effects.income is not None and stmt.amount != effects.income:
        fix = income_fix(stmt, effects.income)
        edits.append(Edit(stmt.amount_span.offset, stmt.amount_span.end_offset, fix.replacement or ""))
    what = statement_word(stmt)
    written: set[ClaimKind] = set()
    for claim in stmt.claims:
        written.add(PAIRS.get(claim.kind, claim.kind))
        if CHECKERS[claim.kind](claim.kind, claim.value, effects, player, what) is None:
            continue
        fix = claim_fix(claim, effects, player)
        edits.append(Edit(claim.span.offset, claim.span.end_offset, fix.replacement or ""))
    missing = [c for c in wanted(stmt, effects, player) if PAIRS.get(c.kind, c.kind) not in written]
    if missing:
        edits.extend(_insertions(stmt, missing))
    return edits


def _insertions(stmt: Statement, missing: list[Claim]) -> list[Edit]:
    """Each missing claim after the last claim written before it in :data:`CLAIM_ORDER` (before
    the first claim if none is; after the statement if it has none)."""
    claims = stmt.claims
    groups: dict[int, list[str]] = {}  # index of the claim written before (-1: none) -> texts
    for claim in missing:
        rank = _RANK[claim.kind]
        anchor = -1
        for index, written in enumerate(claims):
            if _RANK[written.kind] < rank:
                anchor = index
        groups.setdefault(anchor, []).append(format_claim(claim))
    edits = []
    for anchor, texts in groups.items():
        joined = " ".join(texts)
        if anchor >= 0:
            at = claims[anchor].span.end_offset
            edits.append(Edit(at, at, " " + joined))
        elif claims:
            at = claims[0].span.offset
            edits.append(Edit(at, at, joined + " "))
        else:
            at = stmt.span.end_offset
            edits.append(Edit(at, at, " " + joined))
    return edits


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with ``edits`` made (they do not overlap; an insertion at the start of a replaced
    range goes before the replacement)."""
    parts: list[str] = []
    at = 0
    for edit in sorted(edits):
        parts.append(text[at : edit.start])
        parts.append(edit.text)
        at = max(at, edit.end)
    parts.append(text[at:])
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Filled:
    """A log with its claims filled: the text (not formatted), how many statements changed, and
    where and why filling stopped (None: it went to the end of the log)."""

    text: str
    statements: int
    stopped: Diagnostic | None


class _Claims(ReplayObserver):
    """Told of what each statement did instead of judging its claims: the edits that write its
    claims, with where the statement ends."""

    events = Event.EFFECTS

    def __init__(self) -> None:
        self.found: list[tuple[int, list[Edit]]] = []

    def statement_effects(self, stmt: Statement, effects: Effects, player: PlayerState) -> Flow:
        if not isinstance(stmt, RevealStmt):
            edits = statement_edits(stmt, effects, player)
            if edits:
                self.found.append((stmt.span.end_offset, edits))
        return GO


def fill_text(source: SourceText, *, folder: str | None = None) -> Filled:
    """Replay ``source`` and fill the claims of every statement before the first thing that stops
    replay (an illegal action, a syntax error, a pack or scenario that cannot be played)."""
    claims = _Claims()
    found = claims.found
    result = replay_source(source, ReplayOptions(), folder=folder, observer=claims)
    stop = next((d for d in reversed(result.diagnostics) if d.is_error), None) if result.stopped else None
    limit = len(source.text) + 1
    stopped: Diagnostic | None = None
    if stop is not None:
        span = stop.span if stop.span is not None and stop.span.source == source.name else None
        # a log that does not read, or a header, pack or scenario that cannot be played: nothing
        limit = span.offset if span is not None and not reads_input(stop.code) else 0
        stopped = fill_stopped(stop, span or Span.point(source.name))
    edits = [edit for end, group in found if end <= limit for edit in group]
    changed = sum(1 for end, _group in found if end <= limit)
    return Filled(apply_edits(source.text, edits) if edits else source.text, changed, stopped)


def fill_stopped(stop: Diagnostic, span: Span) -> Diagnostic:
    """SG-P040: filling stopped at ``span``, because of ``stop``."""
    message = f"claims are not filled from here on: {stop.code} {stop.message}"
    hint = "correct the log here (sgcheck replay reports it), then fill it again"
    return replace(diagnostic("SG-P040", message, hint=hint), span=span)


def fill_bytes(
    data: bytes, name: str, *, diff: bool = False, folder: str | None = None
) -> tuple[Formatted, Diagnostic | None]:
    """The bytes of a log with its claims filled, in the canonical layout (what ``fmt
    --fill-claims`` writes), and SG-P040 if filling stopped before the end of the log."""
    stopped: list[Diagnostic] = []

    def rewrite(source: SourceText) -> str:
        filled = fill_text(source, folder=folder)
        if filled.stopped is not None:
            stopped.append(filled.stopped)
        return filled.text

    result = format_bytes(data, name, FileKind.LOG, diff=diff, rewrite=rewrite)
    if result.problems or result.internal is not None:
        return result, None  # nothing is written: what keeps the file as it is is reported instead
    return result, stopped[0] if stopped else None
