"""Re-execute a game log against the locked core and report where it goes wrong.

The replayer consumes the parser's items one at a time (so huge logs stream in
bounded memory), drives :func:`sgcheck.core.engine.apply`, and turns rejections
and contradicted claims into diagnostics placed at the exact text. By default it
stops at the first error; with ``keep_going`` it skips an illegal action (the
state stays as it was, so play continues from a consistent position) and reports
every independent error it can. Errors that leave no consistent way on (turn out
of sequence, play after the game ended, missing Kings) stop it in both modes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, TypeVar

from sgcheck.codes import diagnostic
from sgcheck.core import caps, engine
from sgcheck.core.actions import Action, EndTurn, EnterPhase
from sgcheck.core.cards.semantics import AttackCards
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.outcome import Applied, Effects, Rejected
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.play.market import forget_due, module_start, reveal_due
from sgcheck.core.play.victory import game_over_rules, scenario_start
from sgcheck.core.ruleset import CORE, Ruleset, RulesetError, parse_ruleset
from sgcheck.core.setup import (
    check_colour_choice,
    check_draft,
    check_king_placement,
    check_pack_draft,
    check_rolloff,
    rolloff_winner,
)
from sgcheck.core.squares import Square, name
from sgcheck.core.state import GameState, PlayerState, initial_state
from sgcheck.core.watch import START as WATCH_START
from sgcheck.core.watch import Breach, Watch, needs_watch, observe
from sgcheck.diagnostics import Diagnostic, Severity, Span, listing
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
    Tag,
    Turn,
)
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import PlainTurn, Step, StepClaim, read_log
from sgcheck.lang.logs.vocab import KEYWORDS
from sgcheck.lang.logs.writer import format_statement
from sgcheck.replay.cascade import INCOME, KING, LP, SP, Cascade, touched
from sgcheck.replay.claims import check_claims, claims_hold
from sgcheck.replay.describe import describe_state, statement_word, turn_label
from sgcheck.replay.explain import END_OF_TURN, explain_income, explain_step, not_a_pass
from sgcheck.replay.fill import income_fix
from sgcheck.replay.timeline import LABEL, START, STATEMENT, TURN_END, Recorder, action_squares
from sgcheck.replay.translate import span_of, translate

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario
    from sgcheck.lang.source import SourceText
    from sgcheck.replay.game_scenario import GameScenario
    from sgcheck.replay.pack import GamePack


@dataclass(frozen=True, slots=True)
class ReplayOptions:
    keep_going: bool = False
    ruleset: str | None = None  # a profile refining the log header's (the --ruleset option)
    # Replay plainly written turns without their syntax tree (sgcheck.lang.logs.quick). The results
    # are the same either way; turning it off is for cross-checking the two.
    plain_turns: bool = True
    # The game's cards: a pack folder or card file given on the command line (--pack), which
    # overrides the log's [Pack] tag; --allow-violations replays a pack that breaks the contract,
    # and reports what the cards break of core §8 in play (SG-R130-SG-R136) as warnings.
    pack: str | None = None
    allow_violations: bool = False
    # The game's scenario: a scenario file (or a pack with a scenario section) given on the
    # command line (--scenario), which overrides the log's [Scenario] tag (R24).
    scenario: str | None = None
    # Record the position after every phase label, statement and end of turn (the HTML report's
    # data, sgcheck.replay.timeline); every turn is then played from its syntax tree, whose spans
    # give each position its line. Off, replay pays nothing for it.
    timeline: bool = False
    # With the timeline: keep the position after the statements of this line (and a turn end
    # there), or after those of this turn ((number, 0 White / 1 Black)) and its end, with their
    # explanations (ReplayResult.kept: sgcheck replay --explain and --at).
    keep_line: int | None = None
    keep_turn: tuple[int, int] | None = None

    def __reduce__(self) -> tuple[type[ReplayOptions], tuple[object, ...]]:
        # Sent to the worker processes of --jobs through its constructor: compiled with mypyc, a
        # frozen dataclass is not restored field by field (its __setattr__ refuses).
        return ReplayOptions, tuple(getattr(self, name.name) for name in fields(self))


@dataclass(frozen=True, slots=True)
class ReplayResult:
    source: str
    diagnostics: tuple[Diagnostic, ...]
    state: GameState | None  # the final state, or the state where replay stopped
    ruleset: Ruleset
    header: Header | None
    statements: int  # actions replayed (passes and income notes are not actions, R04)
    turns: int  # the players' turns replayed, each player's turn counting one (core §2)
    stopped: bool  # replay stopped before the end of the log
    # The SP income of the Upkeep that began by itself after the last written turn (core §6,
    # R14): included in ``state``, which is the start of a turn the log does not contain; 0
    # when the log ends inside a turn or the game is over. The summary leaves it out of the
    # totals, which are those of the last written action.
    upkeep_income: int = 0
    pack: GamePack | None = None  # the game's cards ([Pack] tag or --pack), loaded and checked
    scenario: GameScenario | None = None  # the game's scenario ([Scenario] tag, --scenario or the pack's)
    timeline: Mapping[str, object] | None = None  # the positions replayed, with ReplayOptions(timeline=True)
    # the explanations and positions after them that ReplayOptions.keep_line/keep_turn asked for
    kept: tuple[tuple[Mapping[str, object], GameState], ...] = ()
    # the first and the last turn replayed, as the log numbers them (7 and White: ``7.``), or None
    first_turn: tuple[int, Color] | None = None
    last_turn: tuple[int, Color] | None = None

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


#: The line being replayed: its turn number, whose turn it is, and its phase (None before any label).
_Where = tuple[int, Color, Phase | None]


def _context(
    st: GameState, where: _Where | None = None, after: GameState | None = None
) -> tuple[tuple[str, str], ...]:
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


_SCORES = ("1-0", "0-1", "1/2-1/2", "*")


def _allowed(finding: Diagnostic) -> Diagnostic:
    """An error of a pack that breaks the contract, as ``--allow-violations`` reports it: the same
    code, a warning, saying why (the pack's own findings, and what the watch sees in play)."""
    return replace(
        finding, severity=Severity.WARNING, message=f"{finding.message} (downgraded to a warning by --allow-violations)"
    )


class _Stop(Exception):
    """Replay cannot (or, without keep_going, should not) continue."""


_T = TypeVar("_T")


class _NeedTree(Exception):
    """A plain turn met something to report: it is played again with its syntax tree."""


#: A step's place in the syntax tree: the phase label's span, or the statement.
_Node = tuple["Span | None", "Statement | None"]
_NO_NODE: _Node = (None, None)
_ENTER = {phase: EnterPhase(phase) for phase in Phase}
_END_TURN = EndTurn()
_NO_EFFECTS = Effects()

#: Told of each statement the core applied, with what it did and the actor after it (for an
#: ``income`` note: ``Effects(income=...)``, the Upkeep's income, and the player): what
#: ``fmt --fill-claims`` writes claims from (sgcheck.replay.fill_log). A replay with one plays
#: every turn from its syntax tree and checks no claims (the observer judges them) and no income
#: amount.
Observer = Callable[[Statement, Effects, PlayerState], None]


def _need(node: _T | None) -> _T:
    """The node to place a finding on; in a plain turn there is none, so its tree is played instead."""
    if node is None:
        raise _NeedTree
    return node


def _need_statement(stmt: Statement | None) -> Statement:
    """:func:`_need` for a statement (a union too wide for the type variable)."""
    if stmt is None:
        raise _NeedTree
    return stmt


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



def _statement_step(stmt: Statement) -> Step:
    """A statement of a syntax tree as a step of the turn loop."""
    word = KEYWORDS[type(stmt)]
    amount = stmt.amount if isinstance(stmt, IncomeStmt) else 0
    return Step(None, None, None, word, translate(stmt), (), amount)


def _end_span(turn: Turn, passes: Sequence[tuple[Step, Statement | None]]) -> Span:
    """Where a turn ends in its text: its pass, else its ``end:`` label, else its header."""
    for _, stmt in reversed(passes):
        if stmt is not None:
            return stmt.span
    if turn.phases and turn.phases[-1].phase is Phase.END:
        return turn.phases[-1].label_span
    return turn.header_span


@dataclass(slots=True)
class _Setup:
    drafts: dict[Color, tuple[str, ...]] = field(default_factory=dict)
    rolloffs: list[RollOff] = field(default_factory=list)
    kings: dict[Color, KingPlacement] = field(default_factory=dict)
    chosen: bool = False


class Replayer:
    """Consumes log items in order; see :func:`replay_items`."""

    def __init__(
        self, source: str, options: ReplayOptions, folder: str | None = None, observe: Observer | None = None
    ) -> None:
        self.source = source
        self.options = options
        self.observe = observe  # told of each applied statement, instead of checking its claims
        self.folder = folder  # the log's folder: a [Pack] tag is read relative to it, and may not leave it
        self.diagnostics: list[Diagnostic] = []
        self.ruleset: Ruleset = CORE
        self.header: Header | None = None
        self.setup = _Setup()
        self.state: GameState | None = None
        self.statements = 0
        self.turns = 0
        self.first_turn: tuple[int, Color] | None = None
        self.last_turn: tuple[int, Color] | None = None
        self.result_lines: list[ResultLine] = []
        self.items = 0
        self.warned_cards = False
        self.pack: GamePack | None = None  # the game's cards, once loaded
        self.pack_asked = False  # the pack was looked for (the --pack option or the [Pack] tag)
        self.scenario: GameScenario | None = None  # the game's scenario, once loaded (R24)
        self.where: _Where | None = None  # the line being replayed (for findings after the game ended)
        self.between_turns = True  # the state is the start of a turn the log has not reached
        self.capture: Statement | None = None  # the last capture of a market game (R26)
        # core §8 watched in play (sgcheck.core.watch), in a game with cards only: a game
        # without a pack, or with cards that cannot break what it watches, keeps None here and
        # pays nothing for it
        self.watch: Watch | None = None
        # what the watch found at the last hand-over (the End of a turn and the next Upkeep), to
        # report at the next turn's header, or, if the log ends first, at this span
        self.handover: tuple[tuple[Diagnostic, ...], Span] | None = None
        # how a statement and an end of turn are applied: the core's, or one that also keeps
        # what it returned (the timeline's explanations)
        self.apply: Callable[[GameState, Action], Applied | Rejected] = engine.apply
        # the action being judged: the state before it and, once the core applied it, after it;
        # every finding on it shows these two (None between actions)
        self.judged: tuple[GameState, GameState | None] | None = None
        self.cascade = Cascade()  # what refused actions taint (keep_going only; sgcheck.replay.cascade)

    # --- reporting --------------------------------------------------------------------------

    def report(self, diag: Diagnostic, *, fatal: bool = False, at_state: GameState | None = None) -> None:
        """Record a finding with where it happened (turn, player, phase and the state: that of the
        action being judged, else ``at_state``, else the current one); stop replay on an error
        unless keep_going and not ``fatal``."""
        after: GameState | None = None
        if self.judged is not None:
            st: GameState | None
            st, after = self.judged
        else:
            st = at_state if at_state is not None else self.state
        if st is not None and not diag.context:
            diag = diag.with_context(*_context(st, self.where if st.result is not None else None, after))
        self.diagnostics.append(diag)
        if diag.is_error and (fatal or not self.options.keep_going):
            raise _Stop

    # --- items ------------------------------------------------------------------------------

    def feed(self, item: LogItem | PlainTurn) -> None:
        self.items += 1
        if not self.pack_asked and not isinstance(item, Header):
            self._load_pack(None)
            self._load_scenario(None)
            self.ruleset = self._scenario_limit(self.ruleset, Header((), Span.point(self.source)))
        match item:
            case PlainTurn():  # first: nearly every item of a long log is one
                self._plain_turn(item)
            case Header():
                self._header(item)
            case Draft():
                self._draft(item)
            case RollOff():
                self._rolloff(item)
            case ColourChoice():
                self._choose(item)
            case KingPlacement():
                self._king(item)
            case Turn():
                self._tree_turn(item)
            case ResultLine():
                self.result_lines.append(item)

    def _header(self, header: Header) -> None:
        self.header = header
        seen: set[str] = set()
        for tag in header.tags:
            key = tag.name.lower()
            if key in seen:
                self.report(diagnostic("SG-P007", f"the tag [{tag.name}] is given twice").at(tag.span))
            seen.add(key)
        self.ruleset = self._ruleset(header)
        self._load_pack(header.get("Pack"))
        self._load_scenario(header.get("Scenario"))
        self.ruleset = self._scenario_limit(self.ruleset, header)
        ruleset_tag = header.get("Ruleset")
        for house in self.ruleset.house_rules():
            note = diagnostic(
                "SG-N303",
                f"house rule {house.setting} ({house.ruling}): {house.description}; breaks {house.breaks}",
                rules=("core §8", house.ruling),
            )
            self.report(note.at(ruleset_tag.span if ruleset_tag is not None else None))
        result_tag = header.get("Result")
        if result_tag is not None and result_tag.value not in _SCORES:
            self.report(
                diagnostic("SG-P007", f"[Result] must be 1-0, 0-1, 1/2-1/2 or *, not {result_tag.value!r}").at(
                    result_tag.span
                )
            )

    def _load_pack(self, tag: Tag | None) -> None:
        """The game's cards: --pack, else the [Pack] tag; checked against the contract first (R22).

        A pack that breaks the contract stops the replay (SG-P015) after its findings, unless
        --allow-violations replays it anyway (SG-N305), its errors reported as warnings of the same
        codes; its cards still cannot do what the contract forbids in every game (an error when
        played), and the caps still bind.
        """
        self.pack_asked = True
        from sgcheck.replay.pack import load_game_pack

        if self.options.pack is not None:
            loaded = load_game_pack(self.options.pack, log_folder=self.folder, from_tag=False)
        elif tag is not None:
            loaded = load_game_pack(tag.value, log_folder=self.folder, from_tag=True, span=tag.span)
        else:
            return
        if isinstance(loaded, Diagnostic):
            self.report(loaded if loaded.span is not None else loaded.at(Span.point(self.source)), fatal=True)
            return
        self.pack = loaded
        if not loaded.breaks_contract:
            return
        where = tag.span if tag is not None and self.options.pack is None else Span.point(self.source)
        errors = sum(1 for f in loaded.findings if f.is_error)
        if not self.options.allow_violations:
            self.diagnostics.extend(loaded.findings)
            message = f"the pack {loaded.shown} breaks the contract ({errors} error{'s' if errors != 1 else ''} above)"
            hint = "fix the cards, or replay a prototype with --allow-violations"
            self.report(diagnostic("SG-P015", message, hint=hint).at(where), fatal=True)
        self.diagnostics.extend(_allowed(finding) if finding.is_error else finding for finding in loaded.findings)
        message = (
            f"the pack {loaded.shown} breaks the contract ({errors} error{'s' if errors != 1 else ''}, reported above "
            f"as {'warnings' if errors != 1 else 'a warning'}) and is replayed anyway (--allow-violations); forbidden "
            "effects are refused when played, the caps still bind"
        )
        self.report(diagnostic("SG-N305", message).at(where))

    def _load_scenario(self, tag: Tag | None) -> None:
        """The game's scenario: --scenario, else the [Scenario] tag, else the pack's (R24).

        Its findings are reported first; one with an error stops the replay (SG-P037): the game
        is never played under a scenario ``sgcheck check`` would refuse.
        """
        from sgcheck.replay.game_scenario import GameScenario, load_game_scenario

        if self.options.scenario is not None:
            loaded = load_game_scenario(self.options.scenario, log_folder=self.folder, from_tag=False)
        elif tag is not None:
            loaded = load_game_scenario(tag.value, log_folder=self.folder, from_tag=True, span=tag.span)
        elif self.pack is not None and self.pack.scenario is not None:
            loaded = GameScenario(self.pack.shown, self.pack.scenario, (), {})  # its findings are the pack's
        else:
            return
        if isinstance(loaded, Diagnostic):
            self.report(loaded if loaded.span is not None else loaded.at(Span.point(self.source)), fatal=True)
            return
        self.scenario = loaded
        self.diagnostics.extend(loaded.findings)
        if loaded.refused:
            errors = sum(1 for f in loaded.findings if f.is_error)
            where = tag.span if tag is not None and self.options.scenario is None else Span.point(self.source)
            message = (
                f"the scenario {loaded.shown} has {errors} error{'s' if errors != 1 else ''} (above); "
                "the game is not replayed under it"
            )
            refused = diagnostic("SG-P037", message, hint="fix the scenario, then replay again")
            self.report(refused.at(where), fatal=True)

    def _scenario_limit(self, ruleset: Ruleset, header: Header) -> Ruleset:
        """The scenario's turn limit (R18, R24), unless --ruleset sets one; a [TurnLimit] or
        [Ruleset] tag that says otherwise is reported (SG-P007)."""
        scenario = self.game_scenario
        if scenario is None or scenario.turn_limit is None:
            return ruleset
        if self.options.ruleset and parse_ruleset(self.options.ruleset, Ruleset(turn_limit=-1)).turn_limit != -1:
            return ruleset  # the command line decides
        if ruleset.turn_limit is not None and ruleset.turn_limit != scenario.turn_limit:
            tag = header.get("TurnLimit") or header.get("Ruleset")
            message = (
                f"the log's turn limit is {ruleset.turn_limit}, but its scenario {scenario.name} sets "
                f"{scenario.turn_limit}"
            )
            self.report(diagnostic("SG-P007", message).at(tag.span if tag is not None else None))
        return replace(ruleset, turn_limit=scenario.turn_limit)

    @property
    def game_scenario(self) -> Scenario | None:
        return self.scenario.scenario if self.scenario is not None else None

    def _ruleset(self, header: Header) -> Ruleset:
        """The header's [Ruleset] and [TurnLimit], refined by the --ruleset option (R09, R14, R18)."""
        ruleset = CORE
        for tag_name, setting in (("Ruleset", "{}"), ("TurnLimit", "turn_limit={}")):
            tag = header.get(tag_name)
            if tag is None:
                continue
            try:
                ruleset = parse_ruleset(setting.format(tag.value.strip()), ruleset)
            except RulesetError as exc:
                self.report(diagnostic("SG-P007", f"bad [{tag_name}]: {exc}").at(tag.span), fatal=True)
        if self.options.ruleset:
            ruleset = parse_ruleset(self.options.ruleset, ruleset)
        return ruleset

    def _setup_closed(self, what: str, span: Span) -> bool:
        if self.state is not None:
            self.report(diagnostic("SG-S101", f"{what} belongs to setup, before the first turn").at(span))
            return True
        return False

    def _draft(self, draft: Draft) -> None:
        if self._setup_closed("the draft", draft.span):
            return
        if self.setup.rolloffs or self.setup.kings:
            self.report(diagnostic("SG-S101", "the Relic draft comes before the roll-off and the Kings").at(draft.span))
        if draft.color in self.setup.drafts:
            self.report(diagnostic("SG-S101", f"{draft.color.title} drafts twice").at(draft.span))
        cards = tuple(c.name for c in draft.cards)
        if self.pack is None:
            for v in check_draft(draft.color, cards):
                self.report(v.diagnostic.at(draft.span))
        else:
            self._draft_from_pack(draft, self.pack)
        self.setup.drafts[draft.color] = cards

    def _draft_from_pack(self, draft: Draft, pack: GamePack) -> None:
        """The draft against the pack: its cards, its draw/keep and hand limit (R19)."""
        known = {card.name for card in pack.cards}
        names = tuple(c.name for c in draft.cards)
        settings = {"draw": pack.draw, "keep": pack.keep, "hand_limit": pack.hand_limit}
        for index, v in check_pack_draft(draft.color, names, known, pack.shown, **settings):
            self.report(v.diagnostic.at(draft.span if index is None else draft.cards[index].span))

    def _rolloff(self, roll: RollOff) -> None:
        if self._setup_closed("the roll-off", roll.span):
            return
        if self.setup.kings:
            self.report(diagnostic("SG-S101", "the roll-off comes before the Kings are placed").at(roll.span))
        previous = self.setup.rolloffs[-1] if self.setup.rolloffs else None
        if previous is not None and rolloff_winner(previous.white.faces, previous.black.faces) is not None:
            self.report(
                diagnostic("SG-S101", "the roll-off was already decided; only a tie is rolled again").at(roll.span)
            )
        for v in check_rolloff(roll.white.faces, roll.black.faces):
            self.report(v.diagnostic.at(roll.span))
        self.setup.rolloffs.append(roll)

    def _choose(self, choice: ColourChoice) -> None:
        """After a decided roll-off and before the Kings (R01); the choice itself is judged by the core."""
        if self._setup_closed("the colour choice", choice.span):
            return
        last = self.setup.rolloffs[-1] if self.setup.rolloffs else None
        winner = rolloff_winner(last.white.faces, last.black.faces) if last is not None else None
        if self.setup.chosen or self.setup.kings or winner is None:
            why = (
                "the colour is chosen only once" if self.setup.chosen
                else "the colour is chosen before the Kings are placed" if self.setup.kings
                else "the colour is chosen by the winner of a decided roll-off"
            )
            self.report(diagnostic("SG-S101", f"'choose' is out of place: {why}").at(choice.span))
        else:
            assert last is not None
            for v in check_colour_choice(last.white.faces, last.black.faces, choice.color):
                self.report(v.diagnostic.at(choice.span))
        self.setup.chosen = True

    def _king(self, king: KingPlacement) -> None:
        if self._setup_closed("placing a King", king.span):
            return
        if king.color in self.setup.kings:
            self.report(diagnostic("SG-S101", f"the {king.color.title} King is placed twice").at(king.span))
            return
        for v in check_king_placement(king.color, king.square.square):
            self.report(v.diagnostic.at(king.square.span))
            return
        scenario = self.game_scenario
        if scenario is not None and not self._king_fits(scenario, king):
            return
        self.setup.kings[king.color] = king

    def _king_fits(self, scenario: Scenario, king: KingPlacement) -> bool:
        """A King the log places: not one the scenario places, not on a square its pieces take (R24)."""
        placed = scenario.side(king.color).king
        if placed is not None:
            message = f"the {king.color.title} King is placed by the scenario {scenario.name} (on {name(placed)})"
            self.report(diagnostic("SG-S101", message).at(king.span))
            return False
        for color in Color:
            for sq, kind in scenario.side(color).pieces:
                if sq == king.square.square:
                    message = f"{name(sq)} is taken by the scenario's {color.title} {kind.title}"
                    self.report(diagnostic("SG-S103", message).at(king.square.span))
                    return False
        return True

    def _king_square(self, color: Color) -> Square | None:
        """Where ``color``'s King starts: where the log or the scenario places it (None: not yet)."""
        placed = self.setup.kings.get(color)
        if placed is not None:
            return placed.square.square
        scenario = self.game_scenario
        return scenario.side(color).king if scenario is not None else None

    def _start(self, at: Span | None) -> GameState:
        """The state at the start of play; ``at`` None: a plain turn, which needs its tree to report."""
        missing = [c.title for c in Color if self._king_square(c) is None]
        last_roll = self.setup.rolloffs[-1] if self.setup.rolloffs else None
        tied = last_roll is not None and rolloff_winner(last_roll.white.faces, last_roll.black.faces) is None
        if at is None and (missing or tied):
            raise _NeedTree
        if missing:
            kings = f"{' and '.join(missing)} King{'s are' if len(missing) > 1 else ' is'}"
            self.report(
                diagnostic(
                    "SG-S104",
                    f"play starts before the {kings} placed",
                    hint="add setup lines such as 'king white e1' and 'king black e8' before turn 1",
                ).at(at),
                fatal=True,
            )
        if self.setup.rolloffs:
            last = self.setup.rolloffs[-1]
            if rolloff_winner(last.white.faces, last.black.faces) is None:
                total = sum(last.white.faces)
                self.report(
                    diagnostic("SG-S102", f"the last roll-off is a tie ({total} each); a tie is rolled again").at(
                        last.span
                    )
                )
        white, black = self._king_square(Color.WHITE), self._king_square(Color.BLACK)
        assert white is not None and black is not None
        state = initial_state(white, black, self.ruleset, self.game_scenario)
        if self.pack is not None:
            drafts = self.setup.drafts
            hands = new_cards(CardsByName(self.pack.cards), drafts.get(Color.WHITE, ()), drafts.get(Color.BLACK, ()))
            state = state.replace(cards=hands)
            if self.pack.module is not None:
                state = module_start(state, self.pack.module)
        # the watch only where the cards can break what it watches (a market's deck: always)
        watched = self.pack is not None and (self.pack.module is not None or needs_watch(self.pack.cards))
        self.watch = WATCH_START if state.cards is not None and watched else None
        return state if state.scenario is None else scenario_start(state)

    # --- turns ------------------------------------------------------------------------------
    #
    # One turn loop (:meth:`_play`) for both kinds of turn. A PlainTurn (the reader's steps: core
    # actions and (kind, value) claims, no spans) is played first without a syntax tree; the
    # first thing that would be reported raises _NeedTree, the replayer's counters are put back,
    # and the turn's syntax tree is played from the same immutable state, by the same loop,
    # which reports what and where. A turn the grammar read is played with its tree at once.

    def _plain_turn(self, turn: PlainTurn) -> None:
        if self.options.plain_turns:
            saved = (self.state, self.statements, self.turns, self.where, self.between_turns)
            watched = (self.watch, self.handover)  # the watch's memory is put back with the counters
            cascade = self.cascade.copy() if self.cascade else None  # and what refusals taint
            try:
                self._play(turn.number, turn.color, turn.steps, None)
                return
            except _NeedTree:
                self.state, self.statements, self.turns, self.where, self.between_turns = saved
                self.watch, self.handover = watched
                if cascade is not None:
                    self.cascade = cascade
        try:
            tree = turn.tree()
        except LogSyntaxError as exc:
            self.report(exc.diagnostic, fatal=True)
            return
        self._tree_turn(tree)

    def _tree_turn(self, turn: Turn) -> None:
        steps: list[Step] = []
        nodes: list[_Node] = []
        for stmt in turn.loose:
            steps.append(_statement_step(stmt))
            nodes.append((None, stmt))
        for block in turn.phases:
            steps.append(Step(None, None, block.phase, None, None, (), 0))
            nodes.append((block.label_span, None))
            for stmt in block.statements:
                steps.append(_statement_step(stmt))
                nodes.append((None, stmt))
        self._play(turn.number, turn.color, steps, (turn, nodes))

    def _play(self, number: int, color: Color, steps: Sequence[Step], tree: tuple[Turn, list[_Node]] | None) -> None:
        """Play one turn: its sequence, its phase labels, its statements and claims, its end (core §2).

        Without ``tree`` nothing is reported: anything to report raises _NeedTree instead.
        """
        if self.state is None:
            self.state = self._start(tree[0].header_span if tree is not None else None)
        st = self.state
        if tree is not None:
            # the header's line: its phase is that of a label written on the same line, if any
            turn = tree[0]
            first = turn.phases[0] if turn.phases and not turn.loose else None
            same_line = first is not None and first.label_span.line == turn.header_span.line
            self.where = (number, color, first.phase if first is not None and same_line else None)
        if self.handover is not None:  # what the watch found as this turn's Upkeep began
            header = _need(tree)[0].header_span
            watched, _ = self.handover
            self.handover = None
            for diag in watched:
                self.report(diag.at(header), at_state=st)
        if st.result is not None:
            header = _need(tree)[0].header_span
            over = f"the game is already over: {st.result.detail}"
            found = diagnostic("SG-T106", over, rules=game_over_rules(st.result))
            self.report(found.at(header), fatal=True)
        if (number, color) != (st.turn_number, st.to_move):
            header = _need(tree)[0].header_span
            expected = turn_label(st.turn_number, st.to_move)
            self.report(
                diagnostic(
                    "SG-T101",
                    f"expected {st.to_move.title}'s turn {st.turn_number} ({expected}), found "
                    f"{color.title}'s turn {number} ({turn_label(number, color)})",
                    expected=expected,
                    claimed=turn_label(number, color),
                ).at(header),
                fatal=True,
            )
        self.turns += 1
        self.last_turn = (number, color)
        if self.first_turn is None:
            self.first_turn = self.last_turn
        self.between_turns = False
        nodes = tree[1] if tree is not None else None
        labelled = False
        passes: list[tuple[Step, Statement | None]] = []
        markets = st.cards is not None  # only a game with cards can have a market (R26)
        for index, step in enumerate(steps):
            label, stmt = nodes[index] if nodes is not None else _NO_NODE
            if step.phase is not None:
                self.where = (number, color, step.phase)
                self._enter(step.phase, not labelled, label)
                labelled = True
            if step.word is None:
                continue
            if not labelled:
                loose = _need_statement(stmt)
                message = f"'{statement_word(loose)}' comes before any phase label in this turn"
                self.report(diagnostic("SG-T107", message).at(loose.span, "which phase?"))
                continue
            if step.word == "pass":
                passes.append((step, stmt))
                continue
            if markets and step.word != "reveal" and reveal_due(self.state):
                self._missing_reveal()
            self._statement(step, stmt)
        self._end_turn(passes, tree)

    def _enter(self, phase: Phase, first: bool, label: Span | None) -> None:
        st = self.state
        assert st is not None
        if st.result is not None:
            return
        if first and phase is st.turn.phase:
            return
        enter = _ENTER[phase]
        step = engine.apply(st, enter)
        if isinstance(step, Applied):
            self.state = step.state
            if self.watch is not None:
                for diag in self._watched(st, enter, step):
                    self.report(diag.at(_need(label)), at_state=step.state)
            return
        self.report(step.first.diagnostic.at(_need(label)))
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

    def _statement(self, step: Step, stmt: Statement | None) -> None:
        st = self.state
        assert st is not None
        if step.word != "reveal":
            self.statements += 1  # a reveal is not an action (R04)
        if step.word == "income":
            self._income(step, stmt)
            return
        action = step.action
        assert action is not None
        applied = self.apply(st, action)
        if not isinstance(applied, Applied):
            first = applied.first
            if step.word == "reveal" and reveal_due(st):
                self.state = forget_due(st)  # the capture had its reveal, a wrong one: reported once
            stmt = _need_statement(stmt)
            self._refused(first.diagnostic.at(span_of(stmt, first.part)), action, stmt, st)
            return
        actor = st.to_move
        if st.cards is not None and reveal_due(applied.state) and not reveal_due(st):
            if stmt is None:
                raise _NeedTree  # a market's capture: the tree places a missing reveal exactly
            self.capture = stmt
        if stmt is None:
            if applied.state.result is not None or (applied.effects.cards is not None and applied.effects.cards.capped):
                raise _NeedTree  # the game ends, or a note: the tree places it exactly
            self.state = applied.state
            if self.watch is not None and self._watched(st, action, applied):
                raise _NeedTree  # core §8 broken in play: the tree places it
            claims = step.claims
            if self.cascade:  # with keep_going, after an error: totals it changed go to the tree
                claims = self._plain_claims(claims, applied.effects, applied.state, actor)
                self.cascade.clear(action)
            if claims and not claims_hold(claims, applied.effects, applied.state.players[actor], step.word):  # type: ignore[arg-type]
                raise _NeedTree
            return
        self.state = applied.state
        self.judged = (st, applied.state)
        try:
            self._judge_applied(stmt, action, applied, st)
        finally:
            self.judged = None

    def _judge_applied(self, stmt: Statement, action: Action, applied: Applied, st: GameState) -> None:
        """The findings on an action the core applied: the watch, the claims, the notes."""
        actor = st.to_move
        if self.watch is not None:
            for diag in self._watched(st, action, applied):
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

    def _plain_claims(
        self, claims: tuple[StepClaim, ...], effects: Effects, after: GameState, actor: Color
    ) -> tuple[StepClaim, ...]:
        """A plain turn's claims, as they are; a total an earlier error changed needs the tree if
        its offset is not fixed yet or the claim is off (the tree fixes it, or counts the claim)."""
        if self.cascade and claims:
            for kind, _ in claims:
                key, _ = _total(kind, effects, after, actor)
                entry = self.cascade.drift.get(key) if key is not None else None
                if entry is not None:
                    raise _NeedTree  # the tree settles the offset, counts the claim or drops the offset
        return claims

    def _income_reported(self, claimed: int, actual: int, actor: Color, line: int | None) -> bool:
        """Whether a written income is wrong, allowing for a refusal's offset (``line`` None: a
        plain turn, which asks without settling anything)."""
        key = (actor, INCOME)
        if not self.cascade or key not in self.cascade.drift:
            return claimed != actual
        if line is None:
            raise _NeedTree
        return self.cascade.judge(key, claimed, actual, line)

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

    def _income(self, step: Step, stmt: Statement | None) -> None:
        st = self.state
        assert st is not None
        if st.result is not None:
            over = f"the game is already over: {st.result.detail}"
            self.report(diagnostic("SG-T106", over, rules=game_over_rules(st.result)).at(_need_statement(stmt).span))
            return
        if st.turn.phase is not Phase.UPKEEP:
            rules = ("core §2", "core §6", "R03", "R14")
            self.report(diagnostic("SG-T103", "income is gained at Upkeep", rules=rules).at(_need_statement(stmt).span))
            return
        if self.observe is not None and stmt is not None:
            self.observe(stmt, Effects(income=st.turn.income), st.players[st.to_move])
            return
        if self._income_reported(step.amount, st.turn.income, st.to_move, stmt.span.line if stmt else None):
            _need(stmt)
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
                    f"wrong income: {st.to_move.title} gains {st.turn.income} SP ({why}), not {stmt.amount}",
                    fix=income_fix(stmt, st.turn.income),
                    expected=st.turn.income,
                    claimed=stmt.amount,
                ).at(stmt.amount_span, f"claimed {stmt.amount}")
            )
        if stmt is None:
            claims = self._plain_claims(step.claims, _NO_EFFECTS, st, st.to_move)
            if claims and not claims_hold(claims, _NO_EFFECTS, st.players[st.to_move], "income"):
                raise _NeedTree
            return
        for diag, carry in self._check_claims(stmt.claims, _NO_EFFECTS, st, st.to_move, stmt.span, "income"):
            self.report(diag)
            self._carry(carry)

    def _end_turn(self, passes: list[tuple[Step, Statement | None]], tree: object) -> None:
        st = self.state
        assert st is not None
        if st.cards is not None and reveal_due(st):
            self._missing_reveal()
            st = self.state
            assert st is not None
        if st.result is not None:
            return
        step = self.apply(st, _END_TURN)
        assert isinstance(step, Applied)
        actor = st.to_move
        if tree is None and step.state.result is not None:
            raise _NeedTree  # the game ends: the tree places what follows exactly
        for pass_step, stmt in passes:
            if not step.effects.passed:
                claimed = _need_statement(stmt)
                self.report(
                    diagnostic(
                        "SG-R209",
                        f"not a Pass: {actor.title} took {st.turn.actions} action"
                        f"{'s' if st.turn.actions != 1 else ''} this turn, so no +6 LP",
                        expected="not a Pass",
                        claimed="pass",
                    ).at(claimed.span, "claimed a Pass")
                )
            if stmt is None:
                claims = self._plain_claims(pass_step.claims, step.effects, step.state, actor)
                if claims and not claims_hold(claims, step.effects, step.state.players[actor], "pass"):
                    raise _NeedTree
                continue
            if self.observe is not None:
                self.observe(stmt, step.effects, step.state.players[actor])
                continue
            for diag, carry in self._check_claims(stmt.claims, step.effects, step.state, actor, stmt.span, "Pass"):
                self.report(diag, at_state=st)
                self._carry(carry)
        self.state = step.state
        self.between_turns = step.state.result is None
        if self.watch is not None:
            found = self._watched(st, _END_TURN, step)
            if found:
                if tree is None:
                    raise _NeedTree  # the tree says where this turn ends
                assert isinstance(tree, tuple) and isinstance(tree[0], Turn)
                at = _end_span(tree[0], passes)
                if step.state.result is None:
                    self.handover = (found, at)  # reported at the next turn's header
                else:
                    self.judged = (st, step.state)  # the end of the turn, before and after
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
            return _allowed(diag)
        return replace(
            diag,
            hint="the cards break the contract in play, whatever `sgcheck check` says about the pack; "
            "to playtest it anyway, replay with --allow-violations",
        )

    # --- the end ----------------------------------------------------------------------------

    def finish(self) -> None:
        if self.handover is not None:  # the log ends at a hand-over the watch reported on
            found, at = self.handover
            self.handover = None
            for diag in found:
                self.report(diag.at(at))
        st = self.state
        if st is None and all(self._king_square(c) is not None for c in Color):
            last = self.setup.kings.get(Color.BLACK) or self.setup.kings.get(Color.WHITE)
            self.state = st = self._start(last.span if last is not None else Span.point(self.source))
        if st is None and self.items <= 1 and not self.setup.rolloffs and not self.setup.drafts:
            self.report(
                diagnostic("SG-P006", "no game in this file: it has no setup and no turns").at(Span.point(self.source)),
                fatal=True,
            )
        for line in self.result_lines:
            self._check_result(line.score, line.reason, line.span)
        tag = self.header.get("Result") if self.header else None
        if tag is not None and tag.value in _SCORES and st is not None:
            self._check_result(tag.value, None, tag.span)

    def knock_on_notes(self) -> None:
        """SG-N306 on each error that later findings follow from (keep_going): how many, and on
        which lines; they are not reported themselves (sgcheck.replay.cascade)."""
        for origin in self.cascade.refusals:
            count = len(origin.followers)
            if not count:
                continue
            lines = [str(line) for line in origin.followers if line]
            word = "line" if len(set(lines)) == 1 else "lines"
            hint = f"they are on {word} {listing(lines, quote=str)}" if lines else None
            findings = f"{count} later finding{'s follow' if count != 1 else ' follows'}"
            are = "are" if count != 1 else "is"
            if origin.refused:
                message = (
                    f"{findings} from this refused {origin.what} and {are} not reported: "
                    f"the log goes on as if the {origin.what} had been played"
                )
            else:
                message = (
                    f"{findings} from this {origin.what} and {are} not reported: "
                    "the log's later claims carry the same difference"
                )
            first = origin.diagnostic
            note = diagnostic("SG-N306", message, hint=hint).at(first.span, first.label)
            self.report(note.with_context(*first.context))

    def _check_result(self, score: str, reason: str | None, span: Span) -> None:
        st = self.state
        actual = st.result if st is not None else None
        if actual is None:
            if score != "*":
                said = f"the log says {score}, but the game has not ended"
                ended = diagnostic("SG-R210", said, expected="*", claimed=score)
                self.report(ended.at(span))
            return
        if score == "*":
            unfinished = f"the log says the game is unfinished (*), but {actual.detail}"
            self.report(diagnostic("SG-R210", unfinished, expected=actual.score, claimed=score).at(span))
        elif score != actual.score or (reason is not None and reason != actual.outcome.value):
            said = f"{score} {reason}" if reason else score
            self.report(
                diagnostic(
                    "SG-R210",
                    f"the log says {said}, but {actual.detail} ({actual.score} {actual.outcome.value})",
                    expected=f"{actual.score} {actual.outcome.value}" if reason else actual.score,
                    claimed=said,
                ).at(span)
            )


class _Recording(Replayer):
    """A replayer that records the position after each phase label, statement and end of turn
    (``ReplayOptions(timeline=True)``), the position each finding is shown at, and why each
    statement and end of turn came out as it did (:mod:`sgcheck.replay.explain`). It plays every
    turn from its syntax tree, so each position has its line."""

    def __init__(
        self, source: str, options: ReplayOptions, folder: str | None = None, observe: Observer | None = None
    ) -> None:
        super().__init__(source, replace(options, plain_turns=False), folder, observe)
        self.recorder = Recorder()
        self.in_step = False  # a frame is being replayed: its findings are shown at it
        self.apply = self._kept
        self.last: tuple[GameState, Action, Applied | Rejected] | None = None  # the step's application
        self.kept: list[tuple[Mapping[str, object], GameState]] = []

    def _kept(self, state: GameState, action: Action) -> Applied | Rejected:
        step = engine.apply(state, action)
        self.last = (state, action, step)
        return step

    def report(self, diag: Diagnostic, *, fatal: bool = False, at_state: GameState | None = None) -> None:
        frames = len(self.recorder.frames)
        self.recorder.mark(len(self.diagnostics), frames if self.in_step else frames - 1)
        super().report(diag, fatal=fatal, at_state=at_state)

    def _step(
        self,
        kind: int,
        line: int,
        squares: tuple[int, int],
        run: Callable[[], None],
        explain: Callable[[GameState | None, int], dict[str, object] | None] | None = None,
    ) -> None:
        self.in_step = True
        self.last = None
        before, found = self.state, len(self.diagnostics)
        try:
            run()
        finally:
            self.in_step = False
            if self.state is not None:
                explained = explain(before, found) if explain is not None else None
                self.recorder.record(self.state, kind, line, squares, explained)
                if explained is not None and self._wanted(kind, line, explained):
                    self.kept.append((explained, self.state))

    def _wanted(self, kind: int, line: int, explained: Mapping[str, object]) -> bool:
        """Whether --explain or --at asked for this frame: a statement at the line (or the end of
        the turn there, when it is a written Pass), or a statement or end of the turn."""
        options = self.options
        if options.keep_line is not None:
            return line == options.keep_line and (kind == STATEMENT or explained["statement"] != END_OF_TURN)
        if options.keep_turn is not None:
            side = 0 if explained["side"] == "white" else 1
            return (explained["turn"], side) == options.keep_turn
        return False

    def _start(self, at: Span | None) -> GameState:
        state = super()._start(at)
        self.recorder.record(state, START, at.line if at is not None else 0)
        return state

    # Each step names the base class's method outright (``Replayer._enter(self, ...)``) rather than
    # ``super()`` inside a lambda, which a module compiled with mypyc cannot run.
    def _enter(self, phase: Phase, first: bool, label: Span | None) -> None:
        line = label.line if label is not None else 0
        self._step(LABEL, line, (-1, -1), lambda: Replayer._enter(self, phase, first, label))

    def _statement(self, step: Step, stmt: Statement | None) -> None:
        line = stmt.span.line if stmt is not None else 0
        squares = action_squares(step.action)

        def explain(before: GameState | None, found: int) -> dict[str, object] | None:
            return self._explain_statement(step, stmt, line, before, found)

        self._step(STATEMENT, line, squares, lambda: Replayer._statement(self, step, stmt), explain)

    def _explain_statement(
        self, step: Step, stmt: Statement | None, line: int, before: GameState | None, found: int
    ) -> dict[str, object] | None:
        after = self.state
        if before is None or after is None:
            return None
        written = _written(stmt, step.word or "")
        if self.last is None:  # not applied: an income note, or refused before the core saw it
            refused = next((d for d in self.diagnostics[found:] if d.is_error and not _claim(d)), None)
            if step.word == "income":
                return explain_income(line, before, written, refused)
            return explain_step(line, before, after, written, step.action, None, refused)
        state, action, applied = self.last
        if isinstance(applied, Rejected):
            return explain_step(line, state, after, written, action, None, applied.first.diagnostic)
        return explain_step(line, state, after, written, action, applied.effects)

    def _end_turn(self, passes: list[tuple[Step, Statement | None]], tree: object) -> None:
        line = 0
        if isinstance(tree, tuple) and tree and isinstance(tree[0], Turn):
            line = tree[0].span.end_line

        def explain(before: GameState | None, found: int) -> dict[str, object] | None:
            after = self.state
            if self.last is None or after is None:
                return None  # the game was over: nothing was worked out
            state, action, applied = self.last
            if not isinstance(applied, Applied):
                return None
            written = "; ".join(_written(stmt, "pass") for _, stmt in passes) or END_OF_TURN
            explained = explain_step(line, state, after, written, action, applied.effects)
            if passes and not applied.effects.passed:
                facts = explained["facts"]
                assert isinstance(facts, list)
                facts.insert(0, not_a_pass(state))
            return explained

        self._step(TURN_END, line, (-1, -1), lambda: Replayer._end_turn(self, passes, tree), explain)


def _written(stmt: Statement | None, word: str) -> str:
    """A statement in its canonical text (``attack Ra3 Pa5 roll 3 4 cost 12``), else its word."""
    if stmt is None:
        return word
    try:
        return format_statement(stmt)
    except (ValueError, TypeError):
        return statement_word(stmt)


def _claim(diag: Diagnostic) -> bool:
    """A finding about a wrong claim (SG-R2xx): the statement itself was played."""
    return diag.code.startswith("SG-R2")


def _timeline(replayer: Replayer, state: GameState | None) -> Mapping[str, object] | None:
    """The positions recorded, with the log's header tags (``ReplayOptions(timeline=True)``)."""
    if not isinstance(replayer, _Recording):
        return None
    tags = [(tag.name, tag.value) for tag in replayer.header.tags] if replayer.header is not None else []
    return replayer.recorder.data(state, replayer.source, tags)


def replay_items(
    items: Iterable[LogItem | PlainTurn],
    source: str,
    options: ReplayOptions = ReplayOptions(),
    *,
    folder: str | None = None,
    observe: Observer | None = None,
) -> ReplayResult:
    """Replay parsed log items (consumed lazily, in order); ``folder`` is the log's folder
    (None: the current one), where its [Pack] tag is looked for; ``observe`` (see
    :data:`Observer`) is told of each applied statement, whose claims are then not checked."""
    if observe is not None:
        options = replace(options, plain_turns=False)  # the observer is told of the tree's statements
    kind = _Recording if options.timeline else Replayer
    replayer = kind(source, options, folder, observe)
    stopped = False
    try:
        for item in items:
            replayer.feed(item)
        replayer.finish()
    except _Stop:
        stopped = True
    replayer.knock_on_notes()
    st = replayer.state
    return ReplayResult(
        source=replayer.source,
        diagnostics=tuple(replayer.diagnostics),
        state=st,
        ruleset=replayer.ruleset,
        header=replayer.header,
        statements=replayer.statements,
        turns=replayer.turns,
        stopped=stopped,
        upkeep_income=st.turn.income if st is not None and st.result is None and replayer.between_turns else 0,
        pack=replayer.pack,
        scenario=replayer.scenario,
        timeline=_timeline(replayer, st),
        kept=tuple(replayer.kept) if isinstance(replayer, _Recording) else (),
        first_turn=replayer.first_turn,
        last_turn=replayer.last_turn,
    )


def replay_text(text: str, source: str, options: ReplayOptions = ReplayOptions()) -> ReplayResult:
    """Read and replay a log held in memory; a syntax error is reported like any other finding."""
    from sgcheck.lang.source import SourceText

    return replay_source(SourceText(source, text), options)


def replay_source(
    source: SourceText,
    options: ReplayOptions = ReplayOptions(),
    *,
    progress: Callable[[int], None] | None = None,
    folder: str | None = None,
    observe: Observer | None = None,
) -> ReplayResult:
    """Read and replay a decoded log; a syntax error is reported like any other finding.
    ``progress`` is told how many characters have been read, as reading goes on; ``folder``
    is the log's folder and ``observe`` an :data:`Observer` (see :func:`replay_items`)."""
    syntax_error: list[Diagnostic] = []

    def items() -> Iterator[LogItem | PlainTurn]:
        try:
            yield from read_log(source, progress=progress)
        except LogSyntaxError as exc:
            syntax_error.append(exc.diagnostic)
            raise _Stop from None  # the log ends at its first syntax error

    result = replay_items(items(), source.name, options, folder=folder, observe=observe)
    if not syntax_error:
        return result
    return replace(result, diagnostics=(*result.diagnostics, *syntax_error))
