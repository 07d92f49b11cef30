"""What a replay is asked to do and what it gives back: :class:`ReplayOptions` and :class:`ReplayResult`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sgcheck.core.outcome import Effects
from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import Ruleset
from sgcheck.core.state import GameState, PlayerState
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.ast import Header, Statement

if TYPE_CHECKING:
    from sgcheck.play.game_scenario import GameScenario
    from sgcheck.play.pack import GamePack
    from sgcheck.results import Explanation, Timeline


@dataclass(frozen=True, slots=True)
class ReplayOptions:
    keep_going: bool = False
    ruleset: str | None = None  # a profile refining the log header's (the --ruleset option)
    # The game's cards: a pack folder or card file given on the command line (--pack), which
    # overrides the log's [Pack] tag; --allow-violations replays a pack that breaks the contract,
    # and reports what the cards break of core §8 in play (SG-R130-SG-R139) as warnings.
    pack: str | None = None
    allow_violations: bool = False
    # The game's scenario: a scenario file (or a pack with a scenario section) given on the
    # command line (--scenario), which overrides the log's [Scenario] tag (R24).
    scenario: str | None = None
    # Record the position after every phase label, statement and end of turn (the HTML report's
    # data, sgcheck.replay.timeline, an observer of the steps). Off, replay pays nothing for it.
    timeline: bool = False
    # With the timeline: keep the position after the statements of this line (and a turn end
    # there), or after those of this turn ((number, 0 White / 1 Black)) and its end, with their
    # explanations (ReplayResult.kept: sgcheck replay --explain and --at).
    keep_line: int | None = None
    keep_turn: tuple[int, int] | None = None
    # Add the dispute report (sgcheck.replay.dispute, docs/disputes.md) to each log's facts: the
    # first error, the position had it not been written, and what each ruling makes of the game.
    dispute: bool = False


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
    timeline: Timeline | None = None  # the positions replayed, with ReplayOptions(timeline=True)
    # the explanations and positions after them that ReplayOptions.keep_line/keep_turn asked for
    kept: tuple[tuple[Explanation, GameState], ...] = ()
    # the first and the last turn replayed, as the log numbers them (7 and White: ``7.``), or None
    first_turn: tuple[int, Color] | None = None
    last_turn: tuple[int, Color] | None = None

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


#: Deprecated: the callback ``replay_source(observe=...)`` took, told of each statement the core
#: applied with what it did and the actor after it; an observer of ``Event.EFFECTS``
#: (:class:`sgcheck.replay.observer.ReplayObserver`, ``statement_effects``) is told the same.
Observer = Callable[[Statement, Effects, PlayerState], None]
