"""The dispute report of an illegal game (``sgcheck replay --dispute``): the first illegal action
or wrong claim, the position had it not been written, and what each ruling of the house-rule
profile of docs/disputes.md makes of the game. Not a core rule: a table's way of settling a
game that replay finds illegal.

Nothing here works a rule out: every number comes from replaying the log, or a changed copy of
it, with :func:`sgcheck.replay.interpreter.replay_source`:

- the log as written, stopping at its first error, with an observer of the steps (a
  :class:`~sgcheck.replay.observer.ReplayObserver`) that notes the statement the error is on
  and the positions before and after it;
- ``claim-corrected``: the log with the wrong claim replaced by the core's number (the
  finding's own fix), replayed with ``keep_going``; its later findings are compared with those
  of the log as written, replayed the same way;
- ``action-undone``: the log with the illegal statement blanked out (its characters turned to
  spaces, so every later line and column stays where it was), replayed with ``keep_going`` and
  its claims not checked (its observer watches the statements' effects); the same observer compares
  every later LP, SP and income figure the log wrote with the game's, and the refused actions are the later actions
  that are now illegal;
- ``dice-corrected`` (a roll that is not the one the dice protocol derives, SG-D103, DR4): the
  log with the derived dice written in place of the false ones, replayed the same way: the
  action as the verified dice decide it, and the later figures that no longer hold;
- a commitment not opened (SG-D102, SG-D106, DR1): the withholder forfeits.

The report is a tree of typed records (:class:`sgcheck.results.DisputeReport`, kept in
``ReplayFacts.dispute``), whose ``as_json`` is the JSON report's ``dispute``; the report layer
writes it as text (:mod:`sgcheck.report.dispute_text`) and the HTML page draws the same records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from sgcheck.codes import Family, Trait, family_of, has
from sgcheck.core.outcome import Effects
from sgcheck.core.pieces import Color
from sgcheck.core.state import GameState, PlayerState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.ast import ClaimKind, IncomeStmt, Statement
from sgcheck.lang.logs.reader import PlainTurn, TurnStep
from sgcheck.lang.source import SourceText
from sgcheck.replay.describe import statement_word
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source
from sgcheck.replay.observer import GO, Event, Flow, ReplayObserver, joined
from sgcheck.replay.summary import headline, replay_summary, state_facts
from sgcheck.results import (
    ActionUndone,
    ClaimCorrected,
    DiceCorrected,
    DisputedEnd,
    DisputedFinding,
    DisputedPosition,
    DisputedResult,
    DisputeReport,
    FigureDiffers,
    FigureTotal,
    FirstError,
    Forfeit,
    GameVoid,
    NotApplying,
    PlayedOn,
    ResultWritten,
    Ruling,
)

#: The name and version of the house-rule profile (docs/disputes.md).
PROFILE = "disputes-1"

#: What the first error is about, by its code's family and traits (sgcheck.codes): a number
#: written about a legal action (SG-R2xx), an action the core refuses or a turn out of its
#: structure (SG-R1xx, SG-T1xx), the setup (SG-S1xx), or a log that cannot be read (anything
#: else: SG-P, SG-X, a pack's own findings); for verifiable dice, a roll that is not the derived
#: one (SG-D103), a commitment not opened (SG-D102, SG-D106), or dice that cannot be checked (the
#: other SG-D codes).
CLAIM, ACTION, SETUP, INPUT = "claim", "action", "setup", "input"
DICE, WITHHELD, PROTOCOL = "dice", "withheld", "protocol"

CLAIM_CORRECTED, ACTION_UNDONE, FORFEIT, GAME_VOID = "claim-corrected", "action-undone", "forfeit", "game-void"
DICE_CORRECTED = "dice-corrected"
RULINGS = (CLAIM_CORRECTED, ACTION_UNDONE, DICE_CORRECTED, FORFEIT, GAME_VOID)

#: The most later findings or figures the report lists one by one (the rest are counted).
LISTED = 5

_KIND_WORDS = {
    CLAIM: "wrong claim",
    ACTION: "illegal action",
    SETUP: "illegal setup",
    INPUT: "unreadable log",
    DICE: "falsified roll",
    WITHHELD: "commitment not opened",
    PROTOCOL: "dice that cannot be checked",
}


#: The kind of a first error of each family, when no trait of its code decides it.
_KINDS = {Family.DICE: PROTOCOL, Family.CLAIM: CLAIM, Family.ACTION: ACTION, Family.TURN: ACTION, Family.SETUP: SETUP}


def finding_kind(code: str) -> str:
    """:data:`CLAIM`, :data:`ACTION`, :data:`SETUP`, :data:`INPUT`, :data:`DICE`,
    :data:`WITHHELD` or :data:`PROTOCOL` for a finding's code."""
    if has(code, Trait.FALSIFIED_ROLL):
        return DICE
    if has(code, Trait.WITHHELD):
        return WITHHELD
    family = family_of(code)
    return _KINDS.get(family, INPUT) if family is not None else INPUT


class _Noted(ReplayObserver):
    """Notes the first statement ``wanted`` picks (it is given the statement and its findings),
    and the positions before and after it."""

    def __init__(self, wanted: Callable[[Statement, Sequence[Diagnostic]], bool]) -> None:
        self.wanted = wanted
        self.found: tuple[Statement, GameState | None, GameState | None] | None = None

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        if self.found is None:
            stmt = turn.statement(step)
            if self.wanted(stmt, findings):
                self.found = (stmt, before, state)
        return GO


def _first_error(stmt: Statement, findings: Sequence[Diagnostic]) -> bool:
    return any(d.is_error for d in findings)


def _holding(offset: int) -> Callable[[Statement, Sequence[Diagnostic]], bool]:
    """Picks the statement whose text holds ``offset``."""
    return lambda stmt, findings: stmt.span.offset <= offset < stmt.span.end_offset


class _Figures(ReplayObserver):
    """Compares the LP, SP and income figures the log wrote after ``line`` with the game's. It
    watches the statements' effects too (and leaves them be), so that the replay judges no claim:
    the figures are compared here."""

    events = Event.STEPS | Event.EFFECTS

    def __init__(self, line: int) -> None:
        self.line = line
        self.checked = 0
        self.differ: list[FigureDiffers] = []
        self.last: dict[tuple[str, str], tuple[int, int]] = {}  # (side, lp/sp): (value, line)

    def statement_played(
        self,
        turn: PlainTurn,
        step: TurnStep,
        before: GameState | None,
        state: GameState | None,
        findings: Sequence[Diagnostic],
    ) -> Flow:
        stmt = turn.statement(step)
        if before is None or state is None:
            return GO
        actor = turn.color
        if isinstance(stmt, IncomeStmt):
            self._figure(stmt.span.line, actor, "income", stmt.amount, before.turn.income)
        self._claims(stmt, actor, state.players[actor])
        return GO

    def turn_ended(self, turn: PlainTurn, passes: Sequence[TurnStep], state: GameState | None) -> Flow:
        if state is not None:
            for step in passes:
                self._claims(turn.statement(step), turn.color, state.players[turn.color])
        return GO

    def _claims(self, stmt: Statement, actor: Color, player: PlayerState) -> None:
        for claim in stmt.claims:
            if claim.value is None:
                continue
            if claim.kind is ClaimKind.LP:
                self._figure(claim.span.line, actor, "LP", claim.value, player.lp)
            elif claim.kind is ClaimKind.SP:
                self._figure(claim.span.line, actor, "SP", claim.value, player.sp)

    def _figure(self, line: int, actor: Color, what: str, written: int, game: int) -> None:
        if what != "income":
            self.last[(actor.title, what)] = (written, line)
        if line <= self.line:
            return
        self.checked += 1
        if written != game:
            self.differ.append(FigureDiffers(line, actor.title, what, written, game))


def _first(finding: Diagnostic, kind: str, statement: str | None) -> FirstError:
    span = finding.span
    context = dict(finding.context)
    return FirstError(
        source=span.source if span is not None else None,
        line=span.line if span is not None else None,
        column=span.column if span is not None else None,
        turn=int(context["turn"]) if context.get("turn", "").isdigit() else None,
        player=context.get("player"),
        phase=context.get("phase"),
        code=finding.code,
        kind=kind,
        message=finding.message,
        rules=tuple(finding.rules),
        statement=statement,
        expected=finding.expected,
        claimed=finding.claimed,
    )


def _finding(finding: Diagnostic) -> DisputedFinding:
    return DisputedFinding(finding.code, finding.message, finding.span.line if finding.span else None)


def _end(result: ReplayResult) -> DisputedEnd:
    """How a replay ended: its headline, the result, and the final position."""
    st = result.state
    outcome = None
    if st is not None and st.result is not None:
        winner = st.result.winner.title if st.result.winner is not None else None
        outcome = DisputedResult(st.result.score, winner, st.result.detail)
    return DisputedEnd(
        headline=headline(replace(replay_summary(result), legal=True)),
        result=outcome,
        final=state_facts(st, result.upkeep_income) if st is not None else None,
    )


def _blank(text: str, start: int, end: int) -> str:
    """``text`` with the characters from ``start`` to ``end`` turned to spaces (newlines kept)."""
    cut = "".join("\n" if ch == "\n" else " " for ch in text[start:end])
    return text[:start] + cut + text[end:]


def dispute_report(source: SourceText, options: ReplayOptions, folder: str | None = None) -> DisputeReport:
    """The dispute report of the log ``source`` (its folder ``folder``), as typed records
    (``as_json`` is its JSON form); see docs/disputes.md for its fields. ``options`` are the
    replay's (its ruleset, pack and scenario); keep_going, the timeline and the dispute itself are set here."""
    plain = replace(options, keep_going=False, timeline=False, keep_line=None, keep_turn=None, dispute=False)
    finder = _Noted(_first_error)
    written = replay_source(source, plain, folder=folder, observer=finder)
    first = next((d for d in written.diagnostics if d.is_error), None)
    if first is None:
        return DisputeReport(PROFILE, True, None, None, (), _end(written))
    kind = finding_kind(first.code)
    found = finder.found
    stmt = found[0] if found is not None and first.span is not None and found[0].span.line == first.span.line else None
    derived: _Derived | None = None
    if kind == DICE:
        derived = _derived(first, source, plain, folder)
        found = derived.found
        stmt = found[0] if found is not None else None
    statement = source.text[stmt.span.offset : stmt.span.end_offset] if stmt is not None else None
    keep = replace(plain, keep_going=True)
    rulings = (
        _claim_corrected(kind, first, source, keep, folder),
        _action_undone(kind, first, stmt, source, keep, folder),
        _dice_corrected(kind, first, stmt, derived, source, keep, folder),
        _forfeit(kind, first, stmt is not None, written.diagnostics),
        _void(kind, written.diagnostics),
    )
    position = _position(kind, found if stmt is not None else None, written)
    return DisputeReport(PROFILE, False, _first(first, kind, statement), position, rulings, None)


def _position(
    kind: str, found: tuple[Statement, GameState | None, GameState | None] | None, written: ReplayResult
) -> DisputedPosition | None:
    """The position had the first error not been written: before an illegal action, after a
    legal one with the core's numbers in place of the log's, else where replay stopped."""
    if found is not None and kind == ACTION and found[1] is not None:
        return DisputedPosition("before", state_facts(found[1]))
    if found is not None and kind == CLAIM and found[2] is not None:
        return DisputedPosition("after", state_facts(found[2]))
    if found is not None and kind == DICE and found[2] is not None:
        return DisputedPosition("derived", state_facts(found[2]))
    if written.state is None:
        return None
    if kind in (WITHHELD, PROTOCOL, DICE) and not written.stopped:
        return DisputedPosition("end", state_facts(written.state))
    return DisputedPosition("stopped", state_facts(written.state))


def _not_applying(ruling: str, why: str) -> NotApplying:
    return NotApplying(ruling, why)


def _claim_corrected(
    kind: str, first: Diagnostic, source: SourceText, keep: ReplayOptions, folder: str | None
) -> Ruling:
    if kind != CLAIM:
        why = (
            "the action itself is illegal, not only a number written about it"
            if kind == ACTION
            else "the finding is not about a claim"
        )
        return _not_applying(CLAIM_CORRECTED, why)
    fix = first.fix
    text = source.text
    corrected_to = first.expected
    if fix is not None and fix.replacement is not None and fix.span is not None:
        text = text[: fix.span.offset] + fix.replacement + text[fix.span.end_offset :]
        corrected_to = fix.replacement if fix.replacement else None
    as_written = replay_source(SourceText(source.name, source.text), keep, folder=folder)
    corrected = replay_source(SourceText(source.name, text), keep, folder=folder)
    line = first.span.line if first.span is not None else 0

    def key(d: Diagnostic) -> tuple[str, int, int]:
        return (d.code, d.span.line if d.span else 0, d.span.column if d.span else 0)

    later_written = [d for d in as_written.diagnostics if d.is_error and key(d) != key(first)]
    later = [d for d in corrected.diagnostics if d.is_error and key(d) != key(first)]
    now = {key(d) for d in later}
    before = {key(d) for d in later_written}
    return ClaimCorrected(
        line=line,
        corrected_to=corrected_to,
        later=tuple(_finding(d) for d in later),
        disappear=tuple(_finding(d) for d in later_written if key(d) not in now),
        appear=tuple(_finding(d) for d in later if key(d) not in before),
        end=_end(corrected),
    )


def _action_undone(
    kind: str, first: Diagnostic, stmt: Statement | None, source: SourceText, keep: ReplayOptions, folder: str | None
) -> Ruling:
    if kind != ACTION:
        why = (
            "the action was legal: only a number written about it is wrong"
            if kind == CLAIM
            else "the action was legal: its dice are not the derived ones"
            if kind == DICE
            else ("the finding is not about an action of play")
        )
        return _not_applying(ACTION_UNDONE, why)
    if stmt is None:
        why = "the finding is on a turn header or a phase label, not on one action to remove"
        return _not_applying(ACTION_UNDONE, why)
    text = _blank(source.text, stmt.span.offset, stmt.span.end_offset)
    line = stmt.span.line
    return ActionUndone(line, statement_word(stmt), _played_on(source, text, line, keep, folder))


def _played_on(source: SourceText, text: str, line: int, keep: ReplayOptions, folder: str | None) -> PlayedOn:
    """The log changed to ``text`` replayed with its claims not checked: the later actions the
    core refuses, the LP, SP and income figures written after ``line`` that no longer hold, the
    totals at the end and how the game ends. The dice are not judged here: a changed log's
    rolls are the table's as written (replay reports them)."""
    figures = _Figures(line)
    undone = replay_source(SourceText(source.name, text), keep, folder=folder, observer=figures)
    errors = [d for d in undone.diagnostics if d.is_error and family_of(d.code) is not Family.DICE]
    illegal = [d for d in errors if finding_kind(d.code) != CLAIM]
    result_claims = [d for d in errors if has(d.code, Trait.RESULT_CLAIM)]
    end = _end(undone)
    totals: list[FigureTotal] = []
    if end.final is not None:
        for c in Color:
            side = end.final.side(c.title)
            for what, game in (("LP", side.lp), ("SP", side.sp)):
                last = figures.last.get((c.title, what))
                written = last[0] if last is not None else None
                totals.append(FigureTotal(c.title, what, game, written, last[1] if last is not None else None))
    return PlayedOn(
        later_illegal=tuple(_finding(d) for d in illegal),
        figures_checked=figures.checked,
        figures_differ=tuple(figures.differ),
        totals=tuple(totals),
        result_written=tuple(ResultWritten(d.span.line if d.span else None, d.claimed) for d in result_claims),
        end=end,
    )


def _withholders(findings: Sequence[Diagnostic]) -> list[Color]:
    """The players who did not open their commitment (SG-D102, SG-D106), White first."""
    named = {dict(d.context).get("player") for d in findings if finding_kind(d.code) == WITHHELD and d.is_error}
    return [c for c in Color if c.title in named]


def _forfeit(kind: str, first: Diagnostic, on_statement: bool, findings: Sequence[Diagnostic]) -> Ruling:
    """The player on whose turn the error was written loses. A turn out of order or a phase
    label names no one: the turn being played is the one the log skipped, not the one it wrote.
    A commitment not opened: the player who withholds it loses (DR1), the profile's ruling."""
    if kind == WITHHELD:
        withheld = _withholders(findings)
        if len(withheld) != 1:
            return _not_applying(FORFEIT, "neither player opened their commitment: no one can be said to have won")
        loser = withheld[0]
        score = "1-0" if loser.other is Color.WHITE else "0-1"
        return Forfeit(loser.title, loser.other.title, score, True, "did not open their commitment (DR1)")
    if kind == PROTOCOL:
        return _not_applying(FORFEIT, "the dice cannot be checked: the finding names no player's action")
    if kind == INPUT:
        return _not_applying(FORFEIT, "the log cannot be read that far: no one can be said to have broken a rule")
    if kind == ACTION and not on_statement:
        why = "the finding is on a turn header or a phase label, which names no player's action"
        return _not_applying(FORFEIT, why)
    player = dict(first.context).get("player")
    offender = next((c for c in Color if c.title == player), None)
    if offender is None:
        return _not_applying(FORFEIT, "the finding names no player")
    winner = offender.other
    score = "1-0" if winner is Color.WHITE else "0-1"
    return Forfeit(offender.title, winner.title, score, False)


def _void(kind: str, findings: Sequence[Diagnostic]) -> Ruling:
    if kind == INPUT:
        return _not_applying(GAME_VOID, "the log cannot be read that far: fix the text and replay it first")
    default = kind == PROTOCOL or (kind == WITHHELD and len(_withholders(findings)) != 1)
    return GameVoid(default)


class _Derived:
    """A falsified roll's log with the derived dice in place of the written ones, the statement
    they decide with the positions before and after it (None for a roll-off), and what the
    core makes of the action with those dice."""

    def __init__(
        self,
        text: str,
        found: tuple[Statement, GameState | None, GameState | None] | None,
        outcome: str | None = None,
    ) -> None:
        self.text = text
        self.found = found
        self.outcome = outcome


def _outcome(effects: Effects) -> str | None:
    """What the dice decided, in words: an attack's hit or miss (core §4.2), a Break's or
    Repair's success (core §6)."""
    if effects.hit is not None and effects.d100 is not None:
        worked = effects.threshold_worked
        against = f" against threshold {worked.value}" if worked is not None else ""
        result = "a hit" if effects.hit else "a miss"
        taken = f", {effects.captured.kind.name.title()} captured" if effects.captured is not None else ""
        return f"{result}: d100 {effects.d100}{against} (core §4.2){taken}"
    if effects.success is not None and effects.dice_total is not None:
        return f"{'a success' if effects.success else 'a failure'}: 3d6 total {effects.dice_total} (core §6)"
    return None


def _derived(first: Diagnostic, source: SourceText, plain: ReplayOptions, folder: str | None) -> _Derived:
    span = first.span
    expected = first.expected
    if span is None or not isinstance(expected, str):
        return _Derived(source.text, None)
    text = source.text[: span.offset] + expected + source.text[span.end_offset :]
    at = _Noted(_holding(span.offset))
    decided = _Decided(span.offset)
    replay_source(SourceText(source.name, text), plain, folder=folder, observer=joined(at, decided))
    return _Derived(text, at.found, decided.outcome)


class _Decided(ReplayObserver):
    """Notes what the statement whose text holds ``offset`` decided (:func:`_outcome`), told of the
    statements' effects instead of judging their claims."""

    events = Event.EFFECTS

    def __init__(self, offset: int) -> None:
        self.offset = offset
        self.seen = False
        self.outcome: str | None = None

    def statement_effects(self, stmt: Statement, effects: Effects, player: PlayerState) -> Flow:
        if not self.seen and stmt.span.offset <= self.offset < stmt.span.end_offset:
            self.seen, self.outcome = True, _outcome(effects)
        return GO


def _dice_corrected(
    kind: str,
    first: Diagnostic,
    stmt: Statement | None,
    derived: _Derived | None,
    source: SourceText,
    keep: ReplayOptions,
    folder: str | None,
) -> Ruling:
    """A falsified roll (DR4): the action as the dice the protocol derives decide it (core §4.2:
    a roll that misses is a miss, whatever the log says), and the game from there."""
    if kind != DICE or derived is None:
        return _not_applying(DICE_CORRECTED, "the finding is not about a roll the dice protocol derives")
    span = first.span
    line = span.line if span is not None else 0
    removed = statement_word(stmt) if stmt is not None else "roll-off"
    played = _played_on(source, derived.text, line - 1, keep, folder)
    return DiceCorrected(line, removed, first.expected, first.claimed, derived.outcome, played)
