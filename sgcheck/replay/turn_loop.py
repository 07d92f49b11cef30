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
(:class:`~sgcheck.replay.observer.TurnObserver`, the HTML report's timeline) is told of every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sgcheck.codes import diagnostic
from sgcheck.core import caps, engine
from sgcheck.core.actions import Action, EndTurn, EnterPhase
from sgcheck.core.cards.semantics import AttackCards
from sgcheck.core.outcome import Applied, Effects
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.play.market import forget_due, reveal_due
from sgcheck.core.play.victory import game_over_rules
from sgcheck.core.state import GameState, PlayerState
from sgcheck.core.watch import Breach, observe
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
from sgcheck.replay.cascade import INCOME, KING, LP, SP, touched
from sgcheck.replay.claims import check_claims, claims_hold
from sgcheck.replay.describe import statement_word, turn_label
from sgcheck.replay.fill import income_fix
from sgcheck.replay.findings import allowed
from sgcheck.replay.observer import TurnObserver
from sgcheck.replay.session import Session
from sgcheck.replay.translate import span_of, translate

_ENTER = {phase: EnterPhase(phase) for phase in Phase}
_END_TURN = EndTurn()
_NO_EFFECTS = Effects()
#: Statements that name a card: in a game without a pack, each has its notes (SG-N301, SG-N302).
_CARD_WORDS = frozenset({"activate", "play"})


def _total(
    kind: ClaimKind, effects: Effects, after: GameState, actor: Color
) -> tuple[tuple[Color, str] | None, int | None]:
    """The total a claim is about, as the cascade keys it, and its value in the game (None, None:
    not a total a refusal re-bases)."""
    if kind is ClaimKind.LP:
        return (actor, LP), after.players[actor].lp
    if kind is ClaimKind.SP:
        return (actor, SP), after.players[actor].sp
    if kind is ClaimKind.KING_DAMAGE:
        return (actor.other, KING), effects.king_damage
    return None, None


def _richer(claim: Claim, before: PlayerState) -> bool:
    """Whether a claim on a refused action has its player gain, or end with more than they had."""
    if claim.value is None:
        return False
    if claim.kind in (ClaimKind.GAIN_SP, ClaimKind.GAIN_LP):
        return claim.value > 0
    if claim.kind is ClaimKind.LP:
        return claim.value > before.lp
    if claim.kind is ClaimKind.SP:
        return claim.value > before.sp
    return False


#: A total the log may carry forward after a wrong claim of it: its key and the claim's offset.
_Carry = tuple[tuple[Color, str], int]


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
    claims = tuple((c.kind, c.value) for c in stmt.claims if c.kind is not ClaimKind.PAY)
    return TurnStep(None, None, None, word, translate(stmt), claims, amount, node=stmt)


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
        self.items += 1
        if not self.pack_asked and not isinstance(item, Header):
            header_items.no_header(self)
        match item:
            case PlainTurn():  # first: nearly every item of a long log is one
                self._play(item)
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
            case Turn():
                self._play(turn_of_tree(item))
            case ResultLine():
                self.result_lines.append(item)

    def start(self, at: Span | PlainTurn) -> GameState:
        """The state at the start of play (``at``: where play starts, a span or the first turn)."""
        state = setup_lines.start(self, at)
        if self.observer is not None:
            self.observer.started(state, (at.header_span() if isinstance(at, PlainTurn) else at).line)
        return state

    # --- turns ------------------------------------------------------------------------------

    def _play(self, turn: PlainTurn) -> None:
        """Play one turn: its sequence, its phase labels, its statements and claims, its end (core §2)."""
        number, color = turn.number, turn.color
        if self.state is None:
            self.state = self.start(turn)
        st = self.state
        self.where, self.where_turn = None, turn
        if self.handover is not None:  # what the watch found as this turn's Upkeep began
            watched, _ = self.handover
            self.handover = None
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
        self.turns += 1
        self.last_turn = (number, color)
        if self.first_turn is None:
            self.first_turn = self.last_turn
        self.between_turns = False
        labelled = False
        passes: list[TurnStep] = []
        markets = st.cards is not None  # only a game with cards can have a market (R26)
        observer = self.observer
        for step in turn.steps:
            if step.phase is not None:
                self.where = (number, color, step.phase)
                if observer is None:
                    self._enter(step.phase, not labelled, turn, step)
                else:
                    self._observed_label(observer, turn, step, not labelled)
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
            if markets and step.word != "reveal" and reveal_due(self.state):
                self._missing_reveal()
            if observer is None:
                self._statement(turn, step)
            else:
                self._observed_statement(observer, turn, step)
        if observer is None:
            self._end_turn(turn, passes)
        else:
            self._observed_end(observer, turn, passes)

    def _observed_label(self, observer: TurnObserver, turn: PlainTurn, step: TurnStep, first: bool) -> None:
        assert step.phase is not None
        observer.step_begins()
        try:
            self._enter(step.phase, first, turn, step)
        finally:
            observer.label_played(turn.label_span(step).line, self.state)

    def _observed_statement(self, observer: TurnObserver, turn: PlainTurn, step: TurnStep) -> None:
        observer.step_begins()
        before, found = self.state, len(self.diagnostics)
        try:
            self._statement(turn, step)
        finally:
            observer.statement_played(turn, step, before, self.state, self.diagnostics[found:])

    def _observed_end(self, observer: TurnObserver, turn: PlainTurn, passes: list[TurnStep]) -> None:
        observer.step_begins()
        try:
            self._end_turn(turn, passes)
        finally:
            observer.turn_ended(turn, passes, self.state)

    def _enter(self, phase: Phase, first: bool, turn: PlainTurn, step: TurnStep) -> None:
        st = self.state
        assert st is not None
        if st.result is not None:
            return
        if first and phase is st.turn.phase:
            return
        enter = _ENTER[phase]
        applied = engine.apply(st, enter)
        if isinstance(applied, Applied):
            self.state = applied.state
            if self.watch is not None:
                for diag in self._watched(st, enter, applied):
                    self.report(diag.at(turn.label_span(step)), at_state=applied.state)
            return
        self.report(applied.first.diagnostic.at(turn.label_span(step)))
        self.state = st.replace(turn=st.turn.replace(phase=phase))  # keep going from the label

    def _missing_reveal(self) -> None:
        """SG-T108: a capture of a market game whose reveal the log does not record (R26)."""
        st = self.state
        assert st is not None and self.capture is not None
        self.state = forget_due(st)
        if st.result is not None:
            return  # the capture ended the game: nothing more is revealed
        capture = self.capture
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
        st = self.state
        assert st is not None
        word = step.word
        if word != "reveal":
            self.statements += 1  # a reveal is not an action (R04)
        if word == "income":
            self._income(turn, step)
            return
        action = step.action
        assert action is not None
        applied = engine.apply(st, action)
        if self.observer is not None:
            self.observer.applied(st, action, applied)
        if not isinstance(applied, Applied):
            first = applied.first
            if word == "reveal" and reveal_due(st):
                self.state = forget_due(st)  # the capture had its reveal, a wrong one: reported once
            stmt = turn.statement(step)
            self._refused(first.diagnostic.at(span_of(stmt, first.part)), action, stmt, st)
            return
        if st.cards is not None and reveal_due(applied.state) and not reveal_due(st):
            self.capture = turn.statement(step)
        self.state = applied.state
        watched = self._watched(st, action, applied) if self.watch is not None else ()
        if not watched and self.observe is None and (
            (not step.claims and st.cards is None and step.word not in _CARD_WORDS) or self._clean(step, applied, st)
        ):
            if self.cascade:
                self.cascade.clear(action)
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
        actor = st.to_move
        after = applied.state
        if self.cascade and self._drifting(claims, effects, after, actor):
            return False
        return claims_hold(claims, effects, after.players[actor], step.word or "")

    def _judge_applied(
        self, stmt: Statement, action: Action, applied: Applied, st: GameState, watched: tuple[Diagnostic, ...]
    ) -> None:
        """The findings on an action the core applied: the watch's, the claims, the notes."""
        actor = st.to_move
        for diag in watched:
            self.report(diag.at(stmt.span))
        if self.observe is not None:
            self.observe(stmt, applied.effects, applied.state.players[actor])
        elif stmt.claims:
            what = statement_word(stmt)
            found = self._check_claims(stmt.claims, applied.effects, applied.state, actor, stmt.span, what)
            rid = self.cascade.origin(touched(action)) if self.cascade else None
            for diag, carry in found:
                if rid is not None and diag.is_error:
                    self.cascade.follow(rid, stmt.span.line)  # a claim about what a refusal changed
                else:
                    self.report(diag)
                    self._carry(carry)
            if not found and self.cascade:
                self.cascade.clear(action)
        elif self.cascade:
            self.cascade.clear(action)
        if isinstance(stmt, ActivateStmt | PlayStmt) and st.cards is None:
            self._card_notes(stmt, actor)
        capped = applied.effects.cards
        if capped is not None and capped.capped:
            self._cap_note(stmt, capped)

    def _refused(self, diag: Diagnostic, action: Action, stmt: Statement, st: GameState) -> None:
        """An action the core refused. With keep_going, a refusal that follows from an earlier one
        (it touches what that one tainted, or its player could not pay because of it) is counted
        for that one, not reported (sgcheck.replay.cascade)."""
        actor = st.to_move
        if self.options.keep_going:
            rid = self.cascade.origin(touched(action))
            if rid is None:
                rid = self.cascade.short_of_funds(diag.code, action, st)
            if rid is not None:
                self.cascade.follow(rid, stmt.span.line)
                self.cascade.taint(rid, action)
                return
        self.judged = (st, None)
        try:
            self.report(diag)
        finally:
            self.judged = None
        if self.options.keep_going:
            richer = any(_richer(claim, st.players[actor]) for claim in stmt.claims)
            self.cascade.refuse(self.diagnostics[-1], statement_word(stmt), action, actor, richer=richer)

    # --- claims, allowing for what refused actions changed (keep_going) ------------------------

    def _check_claims(
        self, claims: tuple[Claim, ...], effects: Effects, after: GameState, actor: Color, span: Span, what: str
    ) -> list[tuple[Diagnostic, _Carry | None]]:
        """:func:`check_claims`, except that with keep_going a total that an earlier error changed
        is judged by the cascade (off by that error's offset, it agrees); each finding comes with
        the total it makes the log carry forward, if it is a wrong total (to :meth:`_carry`)."""
        if not self.options.keep_going:
            return [(diag, None) for diag in check_claims(claims, effects, after, actor, span, what)]
        out: list[tuple[Diagnostic, _Carry | None]] = []
        for claim in claims:
            key, actual = _total(claim.kind, effects, after, actor)
            if key is None or actual is None or claim.value is None:
                out.extend((diag, None) for diag in check_claims((claim,), effects, after, actor, span, what))
                continue
            entry = self.cascade.drift.get(key)
            if entry is not None and not self.cascade.judge(key, claim.value, actual, claim.span.line):
                continue
            carry = (key, claim.value - actual)
            hint = self._drift_hint(key, actual) if entry is not None else None
            for diag in check_claims((claim,), effects, after, actor, span, what):
                out.append((replace(diag, hint=hint) if hint is not None else diag, carry))
        return out

    def _drift_hint(self, key: tuple[Color, str], actual: int) -> str | None:
        """For a total reported although the log's claims of it run off by an earlier error's
        offset: what the claim would be at that offset."""
        rid, offset = self.cascade.drift[key]
        if not offset:
            return None
        origin = self.cascade.refusals[rid].diagnostic
        since = f" since line {origin.span.line}" if origin.span is not None else ""
        side = "above" if offset > 0 else "below"
        return (
            f"the log's {key[0].title} {key[1]} figures have run {abs(offset)} {side} the game's{since}; "
            f"at that difference this claim would be {actual + offset}"
        )

    def _carry(self, carry: _Carry | None) -> None:
        """A wrong total was just reported: the log's later claims of it may carry the same
        difference, which then follows from this error (keep_going)."""
        if carry is not None:
            key, offset = carry
            self.cascade.carry(self.diagnostics[-1], f"wrong {key[1]} total", key, offset)

    def _drifting(self, claims: tuple[StepClaim, ...], effects: Effects, after: GameState, actor: Color) -> bool:
        """Whether a claim is about a total an earlier error changed (keep_going): the cascade
        then judges it, from the statement's node."""
        for kind, _ in claims:
            key, _ = _total(kind, effects, after, actor)
            if key is not None and key in self.cascade.drift:
                return True
        return False

    def _cap_note(self, stmt: Statement, on_attack: AttackCards) -> None:
        """Card bonuses past a cap of R20 are clamped; the note shows each card's share."""
        parts = []
        if on_attack.raw_to_hit > caps.TO_HIT_BONUS_CAP:
            parts.append(f"to-hit +{on_attack.raw_to_hit} ({on_attack.to_hit_text()})")
        if on_attack.raw_damage > caps.DAMAGE_BONUS_CAP:
            parts.append(f"damage per hit {on_attack.damage_text()}")
        self.report(diagnostic("SG-N304", "card bonuses over a cap: " + "; ".join(parts)).at(stmt.span))

    def _card_notes(self, stmt: ActivateStmt | PlayStmt, actor: Color) -> None:
        kept = self.setup.drafts.get(actor)
        if kept is not None and stmt.card.name not in kept:
            self.report(
                diagnostic(
                    "SG-N302", f"{actor.title} plays {stmt.card.name!r}, which is not among the drafted cards"
                ).at(stmt.card.span)
            )
        if not self.warned_cards:
            self.warned_cards = True
            self.report(
                diagnostic(
                    "SG-N301",
                    f"card {stmt.card.name!r}: the game names no pack, so its activation is counted (R17) and "
                    "its stated payment applied, but its effect (and any later card's) is not played",
                    hint="name the game's pack with a [Pack] tag or --pack to have its cards played",
                ).at(stmt.span)
            )

    def _income(self, turn: PlainTurn, step: TurnStep) -> None:
        st = self.state
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
            self.observe(turn.statement(step), Effects(income=income), st.players[actor])
            return
        key = (actor, INCOME)
        if self.cascade and key in self.cascade.drift:
            wrong = self.cascade.judge(key, step.amount, income, turn.statement(step).span.line)
        else:
            wrong = step.amount != income
        if wrong:
            stmt = turn.statement(step)
            assert isinstance(stmt, IncomeStmt)
            why = (
                "none on a player's first turn"
                if st.mover.turns_started == 1
                else "none while the Gem is broken"
                if st.mover.gem_broken
                else "2 × the value of the enemy pieces in the Gem"
            )
            self.report(
                diagnostic(
                    "SG-R208",
                    f"wrong income: {actor.title} gains {income} SP ({why}), not {stmt.amount}",
                    fix=income_fix(stmt, income),
                    expected=income,
                    claimed=stmt.amount,
                ).at(stmt.amount_span, f"claimed {stmt.amount}")
            )
        claims = step.claims
        if not claims:
            return
        if not (self.cascade and self._drifting(claims, _NO_EFFECTS, st, actor)) and claims_hold(
            claims, _NO_EFFECTS, st.players[actor], "income"
        ):
            return
        stmt = turn.statement(step)
        for diag, carry in self._check_claims(stmt.claims, _NO_EFFECTS, st, actor, stmt.span, "income"):
            self.report(diag)
            self._carry(carry)

    def _end_turn(self, turn: PlainTurn, passes: list[TurnStep]) -> None:
        st = self.state
        assert st is not None
        if st.cards is not None and reveal_due(st):
            self._missing_reveal()
            st = self.state
            assert st is not None
        if st.result is not None:
            return
        ended = engine.apply(st, _END_TURN)
        if self.observer is not None:
            self.observer.applied(st, _END_TURN, ended)
        assert isinstance(ended, Applied)
        actor = st.to_move
        for pass_step in passes:
            if not ended.effects.passed:
                self.report(
                    diagnostic(
                        "SG-R209",
                        f"not a Pass: {actor.title} took {st.turn.actions} action"
                        f"{'s' if st.turn.actions != 1 else ''} this turn, so no +6 LP",
                        expected="not a Pass",
                        claimed="pass",
                    ).at(turn.statement(pass_step).span, "claimed a Pass")
                )
            if self.observe is not None:
                self.observe(turn.statement(pass_step), ended.effects, ended.state.players[actor])
                continue
            claims = pass_step.claims
            if not claims:
                continue
            if not (self.cascade and self._drifting(claims, ended.effects, ended.state, actor)) and claims_hold(
                claims, ended.effects, ended.state.players[actor], "pass"
            ):
                continue
            stmt = turn.statement(pass_step)
            for diag, carry in self._check_claims(stmt.claims, ended.effects, ended.state, actor, stmt.span, "Pass"):
                self.report(diag, at_state=st)
                self._carry(carry)
        self.state = ended.state
        self.between_turns = ended.state.result is None
        if self.watch is not None:
            found = self._watched(st, _END_TURN, ended)
            if found:
                at = _end_span(turn, passes)
                if ended.state.result is None:
                    self.handover = (found, at)  # reported at the next turn's header
                else:
                    self.judged = (st, ended.state)  # the end of the turn, before and after
                    try:
                        for diag in found:
                            self.report(diag.at(at))
                    finally:
                        self.judged = None

    def _watched(self, before: GameState, action: Action, applied: Applied) -> tuple[Diagnostic, ...]:
        """Core §8 watched in play (:mod:`sgcheck.core.watch`, the contract checker's own semantics):
        the applied action goes through the watch, and what it breaks comes back as findings,
        without a span. Errors; warnings with --allow-violations (playtesting a pack that breaks
        the contract)."""
        assert self.watch is not None
        self.watch, breaches = observe(self.watch, before, action, applied)
        return tuple(self._breach(breach) for breach in breaches) if breaches else ()

    def _breach(self, breach: Breach) -> Diagnostic:
        diag = breach.diagnostic
        if self.options.allow_violations:
            return allowed(diag)
        return replace(
            diag,
            hint="the cards break the contract in play, whatever `sgcheck check` says about the pack; "
            "to playtest it anyway, replay with --allow-violations",
        )
