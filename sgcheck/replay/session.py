"""One replay's position, findings and observer, shared by the jobs of a replay: :class:`Session`.

The header (:mod:`~sgcheck.replay.header`), the setup lines (:mod:`~sgcheck.replay.setup_lines`),
the turn loop (:mod:`~sgcheck.replay.turn_loop`, whose ``Replayer`` is a session) and the end of
the log (:mod:`~sgcheck.replay.ending`) each read the session's position (``at``, an immutable
:class:`~sgcheck.replay.position.ReplayPosition`) and replace it with the next one, and hand
their findings to :meth:`Session.report`, which places each and gives it to the session's one
:class:`~sgcheck.replay.sink.FindingSink`. What a checkpoint keeps is the position and the sink's
findings at that point, both values (:mod:`sgcheck.replay.resume`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.reader import PlainTurn
from sgcheck.replay.cascade import Key, Probe
from sgcheck.replay.findings import Stop, Where, context
from sgcheck.replay.observer import STOP, Event, Flow, ReplayObserver
from sgcheck.replay.options import ReplayOptions
from sgcheck.replay.position import START, Opening, ReplayPosition
from sgcheck.replay.sink import FindingSink, Found

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario


def _header_where(turn: PlainTurn) -> Where:
    """Where a turn's header is: its turn, and the phase of a label written on the same line, if any."""
    for step in turn.steps:
        if step.phase is not None:
            same_line = turn.label_span(step).line == turn.header_span().line
            return turn.number, turn.color, step.phase if same_line else None
        if step.word is not None:
            break  # a statement before any label
    return turn.number, turn.color, None


class Session:
    """One replay's position and findings: what the header, the setup lines, the turn loop
    (:class:`~sgcheck.replay.turn_loop.Replayer`, a session) and the end of the log share.

    ``at`` is where the replay stands (replaced, never changed); ``sink`` takes the findings.
    The rest is the step being played: the phase label being replayed (``where``), the action
    being judged (``judged``), the counterfactual a step is replayed in (``probing``) and what
    each counterfactual found on the step (``probes``, sgcheck.replay.cascade)."""

    def __init__(
        self,
        source: str,
        options: ReplayOptions,
        folder: str | None = None,
        observer: ReplayObserver | None = None,
        at: ReplayPosition = START,
        found: Found | None = None,
    ) -> None:
        self.source = source
        self.options = options
        events = observer.events if observer is not None else Event.NONE
        # the replay's observer (sgcheck.replay.observer), by what it watches: told of each step of
        # the turn loop (``observer``; None while a counterfactual is replayed), and told of what
        # each applied statement did instead of judging its claims (``observe``)
        self.observer = observer if Event.STEPS in events else None
        self.observe = observer if Event.EFFECTS in events else None
        self.folder = folder  # the log's folder: a [Pack] tag is read relative to it, and may not leave it
        self.at = at
        self.sink = FindingSink(found, self.observer)
        self.halted = False  # the observer stopped the replay
        # the line being replayed (for findings after the game ended): a phase label's, else the
        # header of the position's ``where_turn`` (worked out when asked)
        self.where: Where | None = None
        # the action being judged: the state before it and, once the core applied it, after it;
        # every finding on it shows these two (None between actions)
        self.judged: tuple[GameState, GameState | None] | None = None
        # the counterfactual a step is being replayed in (its findings are kept apart), what each
        # counterfactual found on the step (by its error's number), and whether the step being
        # replayed is one its open counterfactuals have replayed too
        self.probing: Probe | None = None
        self.probes: dict[int, Probe] = {}
        self.attributing = False

    def went_on(self, flow: Flow) -> bool:
        """Whether the observer's answer lets the replay go on; if not, it is halted."""
        if flow is STOP:
            self.halted = True
            return False
        return True

    @property
    def opening(self) -> Opening:
        """What the header and the setup lines settled so far."""
        return self.at.opening

    def settle(self, opening: Opening) -> None:
        """The header or a setup line settled ``opening``: the position goes on with it."""
        self.at = self.at.with_opening(opening)

    # --- reporting --------------------------------------------------------------------------

    def report(
        self, diag: Diagnostic, *, fatal: bool = False, at_state: GameState | None = None, key: Key | None = None
    ) -> bool:
        """Record a finding with where it happened (turn, player, phase and the state: that of the
        action being judged, else ``at_state``, else the current one); stop replay on an error
        unless keep_going and not ``fatal``. With keep_going, an error that disappears in an
        earlier error's counterfactual is counted for that one instead (sgcheck.replay.cascade);
        ``key`` says what the finding is for that comparison. Whether it was recorded."""
        probing = self.probing
        if probing is not None:  # a counterfactual's finding: kept apart, with where it is
            if diag.is_error:
                probing.found[key if key is not None else finding_key(diag)] = self._placed(diag, at_state)
            if fatal:
                raise Stop
            return False
        sink = self.sink
        if diag.is_error:
            sink.errors += 1
        if self.attributing and diag.is_error and not fatal:
            wanted = key if key is not None else finding_key(diag)
            cascade = self.at.cascade
            cf = cascade.origin(wanted, self.probes)
            if cf is not None:
                self.at = self.at.with_cascade(cascade.follow(cf.rid, diag))
                # its own errors there are reported
                for own in cascade.surfaced(cf, self.probes[cf.rid], wanted):
                    sink.add(own)
                return False
        sink.add(self._placed(diag, at_state))
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
            st = at_state if at_state is not None else self.at.state
        if st is not None and not diag.context:
            diag = diag.with_context(*context(st, self._where() if st.result is not None else None, after))
        return diag

    def _where(self) -> Where | None:
        where_turn = self.at.progress.where_turn
        if self.where is None and where_turn is not None:
            self.where = _header_where(where_turn)
        return self.where

    @property
    def game_scenario(self) -> Scenario | None:
        scenario = self.at.opening.scenario
        return scenario.scenario if scenario is not None else None


def finding_key(diag: Diagnostic) -> Key:
    """What a finding is, to look for it in a counterfactual: its code and where it is."""
    span = diag.span
    return (diag.code, span.line, span.column) if span is not None else (diag.code, 0, 0)
