"""The replayer and its turn loop: a log's items fed in order, each turn played against the core.

The replayer consumes the reader's items one at a time (so huge logs stream in bounded memory),
drives :func:`sgcheck.core.engine.apply`, and turns rejections and contradicted claims into
diagnostics placed at the exact text. By default it stops at the first error; with
``keep_going`` it skips an illegal action (the state stays as it was, so play continues from a
consistent position) and reports every independent error it can. Errors that leave no
consistent way on (turn out of sequence, play after the game ended, missing Kings) stop it in
both modes.

A turn comes from the line reader (:class:`~sgcheck.lang.logs.reader.PlainTurn`: its steps are
core actions and ``(kind, value)`` claims) and is played once. Where the loop has something to
report it asks the turn for the statement's node or the label's span, which the reader works
out from the text it read; a clean turn never asks. A turn the grammar read (the items before a
syntax error) is played the same way, its nodes given. The header, the setup lines and the
result lines are the jobs of :mod:`~sgcheck.replay.header`, :mod:`~sgcheck.replay.setup_lines`
and :mod:`~sgcheck.replay.ending`; the state they share is a
:class:`~sgcheck.replay.session.Session`. An observer
(:class:`~sgcheck.replay.observer.ReplayObserver`, the HTML report's timeline) that watches the
steps is told of every step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from sgcheck.codes import Trait, diagnostic, has
from sgcheck.core import caps, engine
from sgcheck.core.actions import Action, EndTurn, EnterPhase
from sgcheck.core.cards.semantics import AttackCards
from sgcheck.core.outcome import Applied, Effects
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.play.market import forget_due, reveal_due
from sgcheck.core.play.victory import game_over_rules
from sgcheck.core.state import GameState
from sgcheck.core.watch import Breach, Watch, observe
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import (
    ActivateStmt,
    Claim,
    ClaimKind,
    ColourChoice,
    Draft,
    Header,
    IncomeStmt,
    KingPlacement,
    LogItem,
    PlayStmt,
    ResultLine,
    RollOff,
    Statement,
    Turn,
)
from sgcheck.lang.logs.reader import PlainTurn, StepClaim, TurnStep
from sgcheck.lang.logs.vocab import KEYWORDS
from sgcheck.replay import header as header_items
from sgcheck.replay import setup_lines
from sgcheck.replay.cascade import Counterfactual, Probe, reading, written_totals
from sgcheck.replay.claims import check_claims, claims_hold
from sgcheck.replay.describe import statement_word, turn_label
from sgcheck.replay.fill import income_fix
from sgcheck.replay.findings import Stop, allowed
from sgcheck.replay.observer import ReplayObserver
from sgcheck.replay.session import Session
from sgcheck.replay.translate import span_of, translate

_ENTER = {phase: EnterPhase(phase) for phase in Phase}
_END_TURN = EndTurn()
_NO_EFFECTS = Effects()
#: Statements that name a card: in a game without a pack, each has its notes (SG-N301, SG-N302).
_CARD_WORDS = frozenset({"activate", "play"})


#: Statements :meth:`Replayer._quick` leaves to the general loop: an income (its amount and its
#: counterfactual), a reveal and the statements that name a card (their notes in a game without a pack).
_QUICK_NOT = frozenset({"income", "reveal", *_CARD_WORDS})

#: The totals a wrong claim of which the log carries forward (sgcheck.replay.cascade).
_CARRIED = {ClaimKind.LP: "LP", ClaimKind.SP: "SP"}

#: A wrong total the log may carry forward: the claim, and the position it was claimed about.
_Carry = tuple[Claim, GameState, Color]


def _claims_of(stmt: Statement) -> tuple[StepClaim, ...]:
    return tuple((c.kind, c.value) for c in stmt.claims if c.kind is not ClaimKind.PAY)


def turn_of_tree(turn: Turn) -> PlainTurn:
    """A turn the grammar read, as the turn loop plays it: its statements as steps, nodes given."""
    steps: list[TurnStep] = []
    for stmt in turn.loose:
        steps.append(_statement_step(stmt))
    for block in turn.phases:
        steps.append(TurnStep(None, None, block.phase, None, None, (), 0, label=block.label_span))
        steps.extend(_statement_step(stmt) for stmt in block.statements)
    return PlainTurn.from_tree(turn, steps)


def _statement_step(stmt: Statement) -> TurnStep:
    word = KEYWORDS[type(stmt)]
    amount = stmt.amount if isinstance(stmt, IncomeStmt) else 0
    return TurnStep(None, None, None, word, translate(stmt), _claims_of(stmt), amount, node=stmt)


def _end_span(turn: PlainTurn, passes: Sequence[TurnStep]) -> Span:
    """Where a turn ends in its text: its pass, else its ``end:`` label, else its header."""
    if passes:
        return turn.statement(passes[-1]).span
    last = next((step for step in reversed(turn.steps) if step.phase is not None), None)
    if last is not None and last.phase is Phase.END:
        return turn.label_span(last)
    return turn.header_span()


class Replayer(Session):
    """Consumes log items in order and plays each turn; see :func:`sgcheck.replay.interpreter.replay_items`."""

    # --- items ------------------------------------------------------------------------------

    def feed(self, item: LogItem | PlainTurn) -> None:
        """Play ``item``; the observer may halt the replay (``halted``)."""
        if not self.at.opening.pack_asked and not isinstance(item, Header):
            header_items.no_header(self)
        if isinstance(item, PlainTurn):  # first: nearly every item of a long log is one
            self._play(item)  # counted as an item with the turn
            return
        if isinstance(item, Turn):
            self._play(turn_of_tree(item))
            return
        at = self.at
        if isinstance(item, ResultLine):
            self.at = at.with_progress(at.progress.with_result_line(item))
            return
        self.at = at.with_progress(at.progress.with_item())
        match item:
            case Header():
                header_items.read_header(self, item)
            case Draft():
                setup_lines.draft(self, item)
            case RollOff():
                setup_lines.rolloff(self, item)
            case ColourChoice():
                setup_lines.choose(self, item)
            case KingPlacement():
                setup_lines.king(self, item)

    def start(self, at: Span | PlainTurn) -> GameState:
        """The state at the start of play (``at``: where play starts, a span or the first turn)."""
        state = setup_lines.start(self, at)
        observer = self.observer
        if observer is not None:
            self.went_on(observer.started(state, (at.header_span() if isinstance(at, PlainTurn) else at).line))
        return state

    # --- turns ------------------------------------------------------------------------------

    def _play(self, turn: PlainTurn) -> None:
        """Play one turn: its sequence, its phase labels, its statements and claims, its end (core §2)."""
        number, color = turn.number, turn.color
        st = self.at.state
        if st is None:
            st = self.start(turn)
            if self.halted:
                return
        self.where = None
        progress = self.at.progress
        handover = progress.handover
        read = 1
        if handover is not None or st.result is not None or number != st.turn_number or color is not st.to_move:
            self.at = self.at.with_progress(progress.at_turn(turn))  # findings are placed on this turn
            read = 0
        if handover is not None:  # what the watch found as this turn's Upkeep began
            watched, _ = handover
            for diag in watched:
                self.report(diag.at(turn.header_span()), at_state=st)
        if st.result is not None:
            over = f"the game is already over: {st.result.detail}"
            found = diagnostic("SG-T106", over, rules=game_over_rules(st.result))
            self.report(found.at(turn.header_span()), fatal=True)
        if number != st.turn_number or color is not st.to_move:
            expected = turn_label(st.turn_number, st.to_move)
            self.report(
                diagnostic(
                    "SG-T101",
                    f"expected {st.to_move.title}'s turn {st.turn_number} ({expected}), found "
                    f"{color.title}'s turn {number} ({turn_label(number, color)})",
                    expected=expected,
                    claimed=turn_label(number, color),
                ).at(turn.header_span()),
                fatal=True,
            )
        observer = self.observer
        at = self.at
        steps = turn.steps
        if observer is None and self.observe is None and at.watch is None and st.cards is None and not at.cascade.open:
            index = self._quick(turn, st, read)
            if index < 0:
                return  # played whole
            # the general loop goes on from step ``index``, as if it had played the ones before
            played = steps[:index]
            labels = [step.phase for step in played if step.phase is not None]
            labelled = bool(labels)
            if labelled:
                self.where = (number, color, labels[-1])
            passes = [step for step in played if step.word == "pass"]
            steps = steps[index:]
        else:
            self.at = at.with_progress(at.progress.with_turn(turn, read))
            labelled = False
            passes = []
        markets = st.cards is not None  # only a game with cards can have a market (R26)
        for step in steps:
            if step.phase is not None:
                self.where = (number, color, step.phase)
                first = not labelled
                if observer is None:
                    if self.at.cascade.open:
                        self._step(partial(self._enter, step.phase, first, turn, step))
                    else:
                        self._enter(step.phase, first, turn, step)
                elif not self._observed_label(observer, turn, step, first):
                    return
                labelled = True
            if step.word is None:
                continue
            if not labelled:
                loose = turn.statement(step)
                message = f"'{statement_word(loose)}' comes before any phase label in this turn"
                self.report(diagnostic("SG-T107", message).at(loose.span, "which phase?"))
                continue
            if step.word == "pass":
                passes.append(step)
                continue
            if observer is None:
                if self.at.cascade.open:
                    self._step(partial(self._statement_of, turn, step, markets))
                else:
                    self._statement_of(turn, step, markets)
            elif not self._observed_statement(observer, turn, step, markets):
                return
            if self.halted:
                return  # the observer of the statements' effects stopped the replay
        if observer is None:
            if self.at.cascade.open:
                self._step(partial(self._end_turn, turn, passes))
            else:
                self._end_turn(turn, passes)
        else:
            self._observed_end(observer, turn, passes)

    def _quick(self, turn: PlainTurn, st: GameState, read: int) -> int:
        """Play a turn of a game without cards, watch, observer or open counterfactual, as far as
        it has nothing to report: its phase labels, its statements whose claims hold and its end,
        with the state in hand, building one position for the whole turn. Where a step has
        something to report (a refusal, a claim that does not hold, a statement before any label,
        an income or a card), the position before that step is kept and the index of the step is
        returned, for the general loop to play it and the rest; -1 when the turn was played whole.
        What is played is exactly what the general loop plays (a test holds the two equal)."""
        at = self.at
        counted = at.statements
        steps = turn.steps
        labelled = False
        passes = False
        last: Phase | None = None  # the last label entered
        index = 0
        for step in steps:
            before = st
            phase = step.phase
            if phase is not None:
                if st.result is None and (labelled or phase is not st.turn.phase):
                    entered = engine.apply(st, _ENTER[phase])
                    if not isinstance(entered, Applied):
                        break
                    st = entered.state
                labelled = True
                last = phase
            word = step.word
            if word is not None:
                if not labelled or word in _QUICK_NOT:
                    st = before  # the label, if any, is played again with its statement
                    break
                if word == "pass":
                    passes = True
                else:
                    action = step.action
                    assert action is not None
                    applied = engine.apply(st, action)
                    if (
                        not isinstance(applied, Applied)
                        or applied.effects.cards is not None
                        or (
                            step.claims
                            and not claims_hold(step.claims, applied.effects, applied.state.players[st.to_move], word)
                        )
                    ):
                        st = before
                        break
                    st = applied.state
                    counted += 1
            index += 1
        else:
            if last is not None:
                self.where = (turn.number, turn.color, last)  # as the general loop leaves it
            if st.result is not None:
                self.at = at.with_moved(st, counted, at.progress.with_turn(turn, read))
                return -1  # the game ended in this turn: the turn does not end (as _end_turn)
            ended = engine.apply(st, _END_TURN)
            assert isinstance(ended, Applied)
            if not passes or self._passes_hold(turn, ended, st):
                over = ended.state.result is not None
                self.at = at.with_moved(ended.state, counted, at.progress.with_turn(turn, read, not over))
                return -1
        self.at = at.with_moved(st, counted, at.progress.with_turn(turn, read))
        return index

    def _passes_hold(self, turn: PlainTurn, ended: Applied, st: GameState) -> bool:
        """Whether a turn that ended (``ended``, from ``st``) was a Pass (R04) and every claim of
        its ``pass`` statements holds: what :meth:`_passes` would report nothing on."""
        if not ended.effects.passed:
            return False
        player = ended.state.players[st.to_move]
        return all(
            not step.claims or claims_hold(step.claims, ended.effects, player, "pass")
            for step in turn.steps
            if step.word == "pass"
        )

    # each step an observer sees: told before it (it may stop the replay there) and after it,
    # even when a finding stops the replay inside it; whether the replay goes on

    def _observed_label(self, observer: ReplayObserver, turn: PlainTurn, step: TurnStep, first: bool) -> bool:
        assert step.phase is not None
        if not self.went_on(observer.step_begins()):
            return False
        try:
            self._step(partial(self._enter, step.phase, first, turn, step))
        except Stop:
            observer.label_played(turn.label_span(step).line, self.at.state)
            raise
        return self.went_on(observer.label_played(turn.label_span(step).line, self.at.state))

    def _observed_statement(self, observer: ReplayObserver, turn: PlainTurn, step: TurnStep, markets: bool) -> bool:
        if not self.went_on(observer.step_begins()):
            return False
        before, found = self.at.state, self.sink.count
        try:
            self._step(partial(self._statement_of, turn, step, markets))
        except Stop:
            observer.statement_played(turn, step, before, self.at.state, self.sink.since(found))
            raise
        return self.went_on(observer.statement_played(turn, step, before, self.at.state, self.sink.since(found)))

    def _observed_end(self, observer: ReplayObserver, turn: PlainTurn, passes: list[TurnStep]) -> bool:
        if not self.went_on(observer.step_begins()):
            return False
        try:
            self._step(partial(self._end_turn, turn, passes))
        except Stop:
            observer.turn_ended(turn, passes, self.at.state)
            raise
        return self.went_on(observer.turn_ended(turn, passes, self.at.state))

    # --- counterfactuals (keep_going; sgcheck.replay.cascade) -----------------------------------

    def _step(self, run: Callable[[], None]) -> None:
        """Replay one step of the log (a phase label, a statement, the end of a turn): first in
        each open counterfactual, then in the game, where an error the step has in no
        counterfactual of an earlier error follows from that error."""
        cascade = self.at.cascade
        if not cascade.open:
            run()
            return
        self.probes = {}
        reached = [self._probe(cf, run) for cf in cascade.open]
        self.at = self.at.with_cascade(cascade.moved(reached))  # each counterfactual's game moved on
        self.attributing = True
        sink = self.sink
        errors = sink.errors
        try:
            run()
        finally:
            self.attributing = False
        at = self.at
        self.at = at.with_cascade(at.cascade.settle(at.state, sink.errors == errors, self.probes))

    def _probe(self, cf: Counterfactual, run: Callable[[], None]) -> GameState:
        """Replay a step in counterfactual ``cf``: by the same code, from its position (no watch,
        no observer), its findings kept in its probe (``probes``); the game's own position is put
        back as it was. The counterfactual's position after the step."""
        kept, judged, observer = self.at, self.judged, self.observer
        probe = Probe()
        self.probes[cf.rid] = probe
        self.at, self.observer, self.probing = kept.with_played(cf.state, None), None, probe
        try:
            run()
        except Stop:
            pass
        finally:
            reached = self.at.state
            self.at = kept
            self.judged, self.observer, self.probing = judged, observer, None
        return reached if reached is not None else cf.state

    def _branch(
        self, what: str, state: GameState | None, within: Span | None, *, refused: bool
    ) -> Counterfactual | None:
        """An error just reported, on the statement at ``within``: later findings that disappear in
        its counterfactual (the game at ``state``) follow from it."""
        if not self.options.keep_going or self.observe is not None:
            return None
        sink = self.sink
        cascade = self.at.cascade.add(sink.last(), what, sink.count - 1, within, refused=refused)
        cascade, opened = cascade.branch(state)
        self.at = self.at.with_cascade(cascade)
        return opened

    def _statement_of(self, turn: PlainTurn, step: TurnStep, markets: bool) -> None:
        if markets and step.word != "reveal" and reveal_due(self.at.state):
            self._missing_reveal()
        self._statement(turn, step)

    def _enter(self, phase: Phase, first: bool, turn: PlainTurn, step: TurnStep) -> None:
        at = self.at
        st = at.state
        assert st is not None
        if st.result is not None:
            return
        if first and phase is st.turn.phase:
            return
        enter = _ENTER[phase]
        applied = engine.apply(st, enter)
        if isinstance(applied, Applied):
            watch = at.watch
            if watch is None:
                self.at = at.with_state(applied.state)
                return
            watch, watched = self._watched(watch, st, enter, applied)
            self.at = at.with_played(applied.state, watch)
            for diag in watched:
                self.report(diag.at(turn.label_span(step)), at_state=applied.state)
            return
        self.report(applied.first.diagnostic.at(turn.label_span(step)))
        self.at = self.at.with_state(st.replace(turn=st.turn.replace(phase=phase)))  # keep going from the label

    def _missing_reveal(self) -> None:
        """SG-T108: a capture of a market game whose reveal the log does not record (R26)."""
        st, capture = self.at.state, self.at.capture
        assert st is not None and capture is not None
        self.at = self.at.with_state(forget_due(st))
        if st.result is not None:
            return  # the capture ended the game: nothing more is revealed
        left = st.cards.market.market.remaining(st.cards.market.revealed) if st.cards and st.cards.market else 0
        self.report(
            diagnostic(
                "SG-T108",
                f"this capture reveals the top card of the market's deck ({left} left), and the log records no reveal",
                hint='write the reveal right after the capture, in the same turn: reveal "Card" to white (or black)',
            ).at(capture.span, "no reveal after this capture"),
            at_state=st,
        )

    def _statement(self, turn: PlainTurn, step: TurnStep) -> None:
        at = self.at
        st = at.state
        assert st is not None
        word = step.word
        counted = at.statements if word == "reveal" else at.statements + 1  # a reveal is not an action (R04)
        if word == "income":
            self.at = at.with_count(counted)
            self._income(turn, step)
            return
        action = step.action
        assert action is not None
        applied = engine.apply(st, action)
        if self.observer is not None:
            self.observer.applied(st, action, applied)
        if not isinstance(applied, Applied):
            at = at.with_count(counted)
            if word == "reveal" and reveal_due(st):
                at = at.with_state(forget_due(st))  # the capture had its reveal, a wrong one: reported once
            self.at = at
            first = applied.first
            stmt = turn.statement(step)
            self._refused(first.diagnostic.at(span_of(stmt, first.part)), action, stmt, st)
            return
        capture = at.capture
        if st.cards is not None and reveal_due(applied.state) and not reveal_due(st):
            capture = turn.statement(step)
        watch = at.watch
        watched: tuple[Diagnostic, ...] = ()
        if watch is not None:
            watch, watched = self._watched(watch, st, action, applied)
        self.at = at.with_applied(applied.state, counted, watch, capture)
        if (
            not watched
            and self.observe is None
            and (
                (not step.claims and st.cards is None and step.word not in _CARD_WORDS)
                or self._clean(step, applied, st)
            )
        ):
            return
        self.judged = (st, applied.state)
        try:
            self._judge_applied(turn.statement(step), action, applied, st, watched)
        finally:
            self.judged = None

    def _clean(self, step: TurnStep, applied: Applied, st: GameState) -> bool:
        """Whether an applied statement has nothing to report: no note, and its claims hold
        (allowing for no refusal's offset)."""
        effects = applied.effects
        if effects.cards is not None and effects.cards.capped:
            return False  # a note on the cards' bonuses
        if st.cards is None and step.word in _CARD_WORDS:
            return False  # a card's notes in a game without a pack
        claims = step.claims
        if not claims:
            return True
        return claims_hold(claims, effects, applied.state.players[st.to_move], step.word or "")

    def _judge_applied(
        self, stmt: Statement, action: Action, applied: Applied, st: GameState, watched: tuple[Diagnostic, ...]
    ) -> None:
        """The findings on an action the core applied: the watch's, the claims, the notes."""
        actor = st.to_move
        for diag in watched:
            self.report(diag.at(stmt.span))
        if self.observe is not None:
            self.went_on(self.observe.statement_effects(stmt, applied.effects, applied.state.players[actor]))
        elif stmt.claims:
            what = statement_word(stmt)
            for diag, carry in self._check_claims(stmt.claims, applied.effects, applied.state, actor, stmt.span, what):
                self._carry(carry, self.report(diag))
        if isinstance(stmt, ActivateStmt | PlayStmt) and st.cards is None:
            self._card_notes(stmt, actor)
        capped = applied.effects.cards
        if capped is not None and capped.capped:
            self._cap_note(stmt, capped)

    def _refused(self, diag: Diagnostic, action: Action, stmt: Statement, st: GameState) -> None:
        """An action the core refused. With keep_going, one that is not refused in an earlier
        error's counterfactual follows from that error and is counted for it, not reported; one
        reported opens its own counterfactual, the action as the log wrote it (sgcheck.replay.cascade)."""
        key = (diag.code, stmt.span.line, stmt.span.column)  # refused for the same reason
        if self.probing is not None:  # refused in a counterfactual too: taken as written there
            self.judged = (st, None)
            try:
                self.report(diag, key=key)
            finally:
                self.judged = None
            self.probing.blocked = self.probing.blocked or not has(diag.code, Trait.SHORT_OF_FUNDS)
            self.at = self.at.with_state(reading(st, action, _claims_of(stmt), statement_word(stmt)))
            return
        self.judged = (st, None)
        try:
            reported = self.report(diag, key=key)
        finally:
            self.judged = None
        if reported and self.options.keep_going and self.observe is None:
            taken = reading(st, action, _claims_of(stmt), statement_word(stmt))
            self._branch(statement_word(stmt), taken, stmt.span, refused=True)

    # --- claims ------------------------------------------------------------------------------

    def _check_claims(
        self, claims: tuple[Claim, ...], effects: Effects, after: GameState, actor: Color, span: Span, what: str
    ) -> list[tuple[Diagnostic, _Carry | None]]:
        """:func:`check_claims`, each finding with the wrong total it makes the log carry forward,
        if it is one (to :meth:`_carry`)."""
        out: list[tuple[Diagnostic, _Carry | None]] = []
        for claim in claims:
            carried = claim.kind in _CARRIED and claim.value is not None
            for diag in check_claims((claim,), effects, after, actor, span, what):
                out.append((diag, (claim, after, actor) if carried else None))
        return out

    def _carry(self, carry: _Carry | None, reported: bool) -> None:
        """A wrong LP or SP total: the players go on from their own figure. One just reported opens
        its counterfactual, the game with that total as claimed; in a counterfactual, the total
        becomes the claimed one (keep_going)."""
        if carry is None or not self.options.keep_going:
            return
        claim, after, actor = carry
        if self.probing is not None:  # the state after the action: the claim's
            st = self.at.state
            assert st is not None
            self.at = self.at.with_state(written_totals(st, actor, ((claim.kind, claim.value),)))
            return
        if reported:
            total = _CARRIED[claim.kind]
            taken = written_totals(after, actor, ((claim.kind, claim.value),))
            self._branch(f"wrong {total} total", taken, self.sink.last().span, refused=False)

    def _cap_note(self, stmt: Statement, on_attack: AttackCards) -> None:
        """Card bonuses past a cap of R20 are clamped; the note shows each card's share."""
        parts = []
        if on_attack.raw_to_hit > caps.TO_HIT_BONUS_CAP:
            parts.append(f"to-hit +{on_attack.raw_to_hit} ({on_attack.to_hit_text()})")
        if on_attack.raw_damage > caps.DAMAGE_BONUS_CAP:
            parts.append(f"damage per hit {on_attack.damage_text()}")
        self.report(diagnostic("SG-N304", "card bonuses over a cap: " + "; ".join(parts)).at(stmt.span))

    def _card_notes(self, stmt: ActivateStmt | PlayStmt, actor: Color) -> None:
        kept = self.at.opening.setup.drafted(actor)
        if kept is not None and stmt.card.name not in kept:
            self.report(
                diagnostic(
                    "SG-N302", f"{actor.title} plays {stmt.card.name!r}, which is not among the drafted cards"
                ).at(stmt.card.span)
            )
        progress = self.at.progress
        if not progress.warned_cards:
            self.at = self.at.with_progress(progress.replace(warned_cards=True))
            self.report(
                diagnostic(
                    "SG-N301",
                    f"card {stmt.card.name!r}: the game names no pack, so its activation is counted (R17) and "
                    "its stated payment applied, but its effect (and any later card's) is not played",
                    hint="name the game's pack with a [Pack] tag or --pack to have its cards played",
                ).at(stmt.span)
            )

    def _income(self, turn: PlainTurn, step: TurnStep) -> None:
        st = self.at.state
        assert st is not None
        if st.result is not None:
            over = f"the game is already over: {st.result.detail}"
            self.report(diagnostic("SG-T106", over, rules=game_over_rules(st.result)).at(turn.statement(step).span))
            return
        if st.turn.phase is not Phase.UPKEEP:
            rules = ("core §2", "core §6", "R03", "R14")
            self.report(diagnostic("SG-T103", "income is gained at Upkeep", rules=rules).at(turn.statement(step).span))
            return
        actor, income = st.to_move, st.turn.income
        if self.observe is not None:
            self.went_on(
                self.observe.statement_effects(turn.statement(step), Effects(income=income), st.players[actor])
            )
            return
        opened: Counterfactual | None = None
        if step.amount != income:
            stmt = turn.statement(step)
            assert isinstance(stmt, IncomeStmt)
            why = (
                "none on a player's first turn"
                if st.mover.turns_started == 1
                else "none while the Gem is broken"
                if st.mover.gem_broken
                else "2 × the value of the enemy pieces in the Gem"
            )
            wrong = diagnostic(
                "SG-R208",
                f"wrong income: {actor.title} gains {income} SP ({why}), not {stmt.amount}",
                fix=income_fix(stmt, income),
                expected=income,
                claimed=stmt.amount,
            ).at(stmt.amount_span, f"claimed {stmt.amount}")
            if self.report(wrong):
                # the players go on from the income they wrote: its counterfactual has it, and the
                # line's own claims are judged in it too
                mine = st.mover.replace(sp=max(0, st.mover.sp + stmt.amount - income))
                opened = self._branch("wrong income", st.with_player(actor, mine), stmt.span, refused=False)
                if opened is not None:
                    reached = self._probe(opened, lambda: self._income_claims(turn, step))
                    cascade = self.at.cascade
                    self.at = self.at.with_cascade(cascade.moved_one(opened.rid, reached))
        attributing = self.attributing
        self.attributing = attributing or opened is not None
        try:
            self._income_claims(turn, step)
        finally:
            self.attributing = attributing

    def _income_claims(self, turn: PlainTurn, step: TurnStep) -> None:
        """The claims of an income statement (its SP total): judged against the state after the income."""
        state = self.at.state
        assert state is not None
        actor = state.to_move
        if not step.claims or claims_hold(step.claims, _NO_EFFECTS, state.players[actor], "income"):
            return
        stmt = turn.statement(step)
        for diag, carry in self._check_claims(stmt.claims, _NO_EFFECTS, state, actor, stmt.span, "income"):
            self._carry(carry, self.report(diag))

    def _end_turn(self, turn: PlainTurn, passes: list[TurnStep]) -> None:
        st = self.at.state
        assert st is not None
        if st.cards is not None and reveal_due(st):
            self._missing_reveal()
            st = self.at.state
            assert st is not None
        if st.result is not None:
            return
        ended = engine.apply(st, _END_TURN)
        if self.observer is not None:
            self.observer.applied(st, _END_TURN, ended)
        assert isinstance(ended, Applied)
        if passes:
            self._passes(turn, passes, st, ended)
        at = self.at
        state = at.state if passes else ended.state  # (a counterfactual goes on from a Pass's written totals)
        assert state is not None
        over = ended.state.result is not None
        watch = at.watch
        found: tuple[Diagnostic, ...] = ()
        if watch is not None:
            watch, found = self._watched(watch, st, _END_TURN, ended)
        at_end = _end_span(turn, passes) if found else None
        handover = (found, at_end) if at_end is not None and not over else None  # reported at the next turn's header
        self.at = at.with_ended(state, watch, at.progress.with_turn_ended(not over, handover))
        if at_end is not None and over:
            self.judged = (st, ended.state)  # the end of the turn, before and after
            try:
                for diag in found:
                    self.report(diag.at(at_end))
            finally:
                self.judged = None

    def _passes(self, turn: PlainTurn, passes: list[TurnStep], st: GameState, ended: Applied) -> None:
        """The ``pass`` statements of a turn that ended (``ended``, from ``st``): whether the turn
        was a Pass (R04), and their claims, about the state after it."""
        actor = st.to_move
        self.at = self.at.with_state(ended.state)
        try:
            for pass_step in passes:
                if not ended.effects.passed:
                    self.report(
                        diagnostic(
                            "SG-R209",
                            f"not a Pass: {actor.title} took {st.turn.actions} action"
                            f"{'s' if st.turn.actions != 1 else ''} this turn, so no +6 LP",
                            expected="not a Pass",
                            claimed="pass",
                        ).at(turn.statement(pass_step).span, "claimed a Pass"),
                        at_state=st,
                    )
                if self.observe is not None:
                    effects, player = ended.effects, ended.state.players[actor]
                    self.went_on(self.observe.statement_effects(turn.statement(pass_step), effects, player))
                    continue
                claims = pass_step.claims
                if not claims:
                    continue
                if claims_hold(claims, ended.effects, ended.state.players[actor], "pass"):
                    continue
                stmt = turn.statement(pass_step)
                for diag, carry in self._check_claims(
                    stmt.claims, ended.effects, ended.state, actor, stmt.span, "Pass"
                ):
                    self._carry(carry, self.report(diag, at_state=st))
        except Stop:
            self.at = self.at.with_state(st)  # replay stopped before the end of this turn
            raise

    def _watched(
        self, watch: Watch, before: GameState, action: Action, applied: Applied
    ) -> tuple[Watch, tuple[Diagnostic, ...]]:
        """Core §8 watched in play (:mod:`sgcheck.core.watch`, the contract checker's own semantics):
        the applied action goes through the watch, and what it breaks comes back as findings,
        without a span, with the watch's memory after it. Errors; warnings with --allow-violations
        (playtesting a pack that breaks the contract)."""
        watch, breaches = observe(watch, before, action, applied)
        return watch, tuple(self._breach(breach) for breach in breaches) if breaches else ()

    def _breach(self, breach: Breach) -> Diagnostic:
        diag = breach.diagnostic
        if self.options.allow_violations:
            return allowed(diag)
        return replace(
            diag,
            hint="the cards break the contract in play, whatever `sgcheck check` says about the pack; "
            "to playtest it anyway, replay with --allow-violations",
        )
