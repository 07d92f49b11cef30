"""One replay's state and findings, shared by the jobs of a replay: :class:`Session`.

The header (:mod:`~sgcheck.replay.header`), the setup lines (:mod:`~sgcheck.replay.setup_lines`),
the turn loop (:mod:`~sgcheck.replay.turn_loop`, whose ``Replayer`` is a session) and the end of
the log (:mod:`~sgcheck.replay.ending`) each read and change it, and report through
:meth:`Session.report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.state import GameState
from sgcheck.core.watch import Watch
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import Header, KingPlacement, ResultLine, RollOff, Statement
from sgcheck.lang.logs.reader import PlainTurn
from sgcheck.replay.cascade import Cascade, Counterfactual, Key
from sgcheck.replay.findings import Stop, Where, context
from sgcheck.replay.observer import TurnObserver
from sgcheck.replay.options import Observer, ReplayOptions

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario
    from sgcheck.play.game_scenario import GameScenario
    from sgcheck.play.pack import GamePack


def _header_where(turn: PlainTurn) -> Where:
    """Where a turn's header is: its turn, and the phase of a label written on the same line, if any."""
    for step in turn.steps:
        if step.phase is not None:
            same_line = turn.label_span(step).line == turn.header_span().line
            return turn.number, turn.color, step.phase if same_line else None
        if step.word is not None:
            break  # a statement before any label
    return turn.number, turn.color, None


@dataclass(slots=True)
class Setup:
    """The setup lines read so far (core §1, R19)."""

    drafts: dict[Color, tuple[str, ...]] = field(default_factory=dict)
    rolloffs: list[RollOff] = field(default_factory=list)
    kings: dict[Color, KingPlacement] = field(default_factory=dict)
    chosen: bool = False


class SavedSession:
    """A session's fields at a point of its replay (:meth:`Session.saved`), in the order
    :meth:`Session.restore` reads them; never changed once made."""

    __slots__ = ("fields",)

    def __init__(
        self,
        fields: tuple[
            list[Diagnostic],
            Ruleset,
            Header | None,
            Setup,
            GameState | None,
            int,
            int,
            tuple[int, Color] | None,
            tuple[int, Color] | None,
            list[ResultLine],
            int,
            bool,
            GamePack | None,
            bool,
            GameScenario | None,
            Where | None,
            PlainTurn | None,
            bool,
            Statement | None,
            Watch | None,
            tuple[tuple[Diagnostic, ...], Span] | None,
            tuple[GameState, GameState | None] | None,
            Cascade,
        ],
    ) -> None:
        self.fields = fields


class Session:
    """One replay's state and findings: what the header, the setup lines, the turn loop
    (:class:`~sgcheck.replay.turn_loop.Replayer`, a session) and the end of the log share."""

    def __init__(
        self,
        source: str,
        options: ReplayOptions,
        folder: str | None = None,
        observe: Observer | None = None,
        observer: TurnObserver | None = None,
    ) -> None:
        self.source = source
        self.options = options
        self.observe = observe  # told of each applied statement, instead of checking its claims
        self.observer = observer  # told of each step of the turn loop (the timeline)
        self.folder = folder  # the log's folder: a [Pack] tag is read relative to it, and may not leave it
        self.diagnostics: list[Diagnostic] = []
        self.ruleset: Ruleset = CORE
        self.header: Header | None = None
        self.setup = Setup()
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
        # the line being replayed (for findings after the game ended): a phase label's, else the
        # header of ``where_turn`` (worked out when asked)
        self.where: Where | None = None
        self.where_turn: PlainTurn | None = None
        self.between_turns = True  # the state is the start of a turn the log has not reached
        self.capture: Statement | None = None  # the last capture of a market game (R26)
        # core §8 watched in play (sgcheck.core.watch), in a game with cards only: a game
        # without a pack, or with cards that cannot break what it watches, keeps None here and
        # pays nothing for it
        self.watch: Watch | None = None
        # what the watch found at the last hand-over (the End of a turn and the next Upkeep), to
        # report at the next turn's header, or, if the log ends first, at this span
        self.handover: tuple[tuple[Diagnostic, ...], Span] | None = None
        # the action being judged: the state before it and, once the core applied it, after it;
        # every finding on it shows these two (None between actions)
        self.judged: tuple[GameState, GameState | None] | None = None
        self.cascade = Cascade()  # the errors and their counterfactuals (keep_going only; sgcheck.replay.cascade)
        # the counterfactual a step is being replayed in (its findings are kept apart), and
        # whether the step being replayed is one its open counterfactuals have replayed too
        self.probing: Counterfactual | None = None
        self.attributing = False
        self.errors = 0  # errors found so far, reported or counted for an earlier one

    # --- checkpoints (sgcheck.replay.resume) ---------------------------------------------------

    def saved(self) -> SavedSession:
        """What this replay has reached, kept apart from it: a later :meth:`restore` of it into a
        new session of the same log and options goes on from here as this one would."""
        setup = Setup(dict(self.setup.drafts), list(self.setup.rolloffs), dict(self.setup.kings), self.setup.chosen)
        return SavedSession(
            (
                list(self.diagnostics),
                self.ruleset,
                self.header,
                setup,
                self.state,
                self.statements,
                self.turns,
                self.first_turn,
                self.last_turn,
                list(self.result_lines),
                self.items,
                self.warned_cards,
                self.pack,
                self.pack_asked,
                self.scenario,
                self.where,
                self.where_turn,
                self.between_turns,
                self.capture,
                self.watch,
                self.handover,
                self.judged,
                self.cascade.copy(),
            )
        )

    def restore(self, saved: SavedSession) -> None:
        """Go on from ``saved`` (see :meth:`saved`); ``saved`` itself is left as it was, so it can be
        restored again."""
        (
            diagnostics,
            self.ruleset,
            self.header,
            setup,
            self.state,
            self.statements,
            self.turns,
            self.first_turn,
            self.last_turn,
            result_lines,
            self.items,
            self.warned_cards,
            self.pack,
            self.pack_asked,
            self.scenario,
            self.where,
            self.where_turn,
            self.between_turns,
            self.capture,
            self.watch,
            self.handover,
            self.judged,
            cascade,
        ) = saved.fields
        self.diagnostics = list(diagnostics)
        self.setup = Setup(dict(setup.drafts), list(setup.rolloffs), dict(setup.kings), setup.chosen)
        self.result_lines = list(result_lines)
        self.cascade = cascade.copy()

    # --- reporting --------------------------------------------------------------------------

    def report(
        self, diag: Diagnostic, *, fatal: bool = False, at_state: GameState | None = None, key: Key | None = None
    ) -> bool:
        """Record a finding with where it happened (turn, player, phase and the state: that of the
        action being judged, else ``at_state``, else the current one); stop replay on an error
        unless keep_going and not ``fatal``. With keep_going, an error that disappears in an
        earlier error's counterfactual is counted for that one instead (sgcheck.replay.cascade);
        ``key`` says what the finding is for that comparison. Whether it was recorded."""
        if self.probing is not None:  # a counterfactual's finding: kept apart, with where it is
            if diag.is_error and self.probing.found is not None:
                self.probing.found[key if key is not None else finding_key(diag)] = self._placed(diag, at_state)
            if fatal:
                raise Stop
            return False
        if diag.is_error:
            self.errors += 1
        if self.attributing and diag.is_error and not fatal:
            wanted = key if key is not None else finding_key(diag)
            cf = self.cascade.origin(wanted)
            if cf is not None:
                self.cascade.follow(cf.rid, diag)
                for own in self.cascade.surfaced(cf, wanted):  # its own errors there are reported
                    self._record(own)
                return False
        self._record(self._placed(diag, at_state))
        if diag.is_error and (fatal or not self.options.keep_going):
            raise Stop
        return True

    def _placed(self, diag: Diagnostic, at_state: GameState | None) -> Diagnostic:
        """``diag`` with its context: the action being judged, else ``at_state``, else now."""
        after: GameState | None = None
        if self.judged is not None:
            st: GameState | None
            st, after = self.judged
        else:
            st = at_state if at_state is not None else self.state
        if st is not None and not diag.context:
            diag = diag.with_context(*context(st, self._where() if st.result is not None else None, after))
        return diag

    def _record(self, diag: Diagnostic) -> None:
        if self.observer is not None:
            self.observer.reported(len(self.diagnostics))
        self.diagnostics.append(diag)

    def _where(self) -> Where | None:
        if self.where is None and self.where_turn is not None:
            self.where = _header_where(self.where_turn)
        return self.where

    @property
    def game_scenario(self) -> Scenario | None:
        return self.scenario.scenario if self.scenario is not None else None


def finding_key(diag: Diagnostic) -> Key:
    """What a finding is, to look for it in a counterfactual: its code and where it is."""
    span = diag.span
    return (diag.code, span.line, span.column) if span is not None else (diag.code, 0, 0)
