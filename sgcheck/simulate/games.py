"""One simulated game: a picklable task in, a small picklable record out.

A run is a list of :class:`GameTask` (one game each: its index, its seed, which colour holds
which pack, the policy) and one top-level function, :func:`play_task`, that plays a task and
returns a :class:`GameRecord`. Nothing else travels between processes (or machines): the task
carries the cards and the scenario as data, so a worker needs no file, and the record carries
what the statistics read, plus the log's text when the game is one of the sampled ones.

Every action is applied with the core engine; an action the engine refuses during a game is a
bug of the policy or of the engine, never a statistic: :class:`RefusedAction` is raised and
the run ends as an internal error.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from sgcheck.core.actions import Action, Activate, EndTurn, Play
from sgcheck.core.cards.model import Card
from sgcheck.core.outcome import Rejected
from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import Scenario
from sgcheck.core.squares import Square, in_camp
from sgcheck.core.state import GameState
from sgcheck.lang.logs.ast import LogItem
from sgcheck.lang.logs.from_actions import Claims
from sgcheck.lang.logs.writer import format_log
from sgcheck.play import search
from sgcheck.play.loop import GameLog, play, result_line
from sgcheck.play.policies import Policy, draft
from sgcheck.play.policies import choose as policy_choice
from sgcheck.play.roller import random_roll_off
from sgcheck.play.start import Start, game_ruleset, header, start_game

#: The outcome of a game that reached ``max_turns`` without ending (no turn limit was set).
UNFINISHED = "unfinished"


class RefusedAction(Exception):
    """The engine refused an action a policy chose: a bug, reported as an internal error."""


@dataclass(frozen=True, slots=True)
class Side:
    """What one side plays with: a pack's cards (none: the core alone) and its draft settings (R19)."""

    label: str  # as the report names it: the pack's path, or "core"
    cards: tuple[Card, ...] = ()
    draw: int = 0
    keep: int = 0


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play. ``pack_color`` is the colour of the side playing ``pack``; the other
    plays ``against``. The seed is the run's seed and the game's index worked together
    (:func:`game_seed`), so the game is the same whichever worker plays it."""

    index: int
    seed: int
    pack: Side
    against: Side
    pack_color: Color
    policy: Policy
    ruleset: Ruleset = CORE
    scenario: Scenario | None = None
    scenario_label: str | None = None
    max_turns: int = 200
    sample: bool = False  # keep the game's log text in the record
    against_policy: Policy | None = None  # how the ``against`` side plays; None: as ``policy`` says

    def policy_of(self, color: Color) -> Policy:
        """The policy of the side playing ``color``."""
        if color is self.pack_color or self.against_policy is None:
            return self.policy
        return self.against_policy


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the statistics read of one game. Sides are named by role: ``pack`` or ``against``."""

    index: int
    pack_color: Color
    first: Color  # who took the first turn
    winner: Color | None
    outcome: str  # an Outcome value (conversion, lp1000, turn-limit, scenario) or "unfinished"
    rounds: int  # the turn number the game ended on (or the last one played)
    drafted: tuple[tuple[str, ...], tuple[str, ...]]  # (pack side, against side)
    played: tuple[tuple[str, ...], tuple[str, ...]]  # each card once, in the order first played
    economy: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = ((), ())  # (LP, SP) after each own turn
    actions: int = 0
    log: str | None = None
    captures: int = 0  # pieces captured in the game, by either side (core §4.3)
    sp_earned: tuple[int, int] = (0, 0)  # SP gained over the game (captures, income, cards): (pack side, against side)

    @property
    def winner_role(self) -> str | None:
        if self.winner is None:
            return None
        return "pack" if self.winner is self.pack_color else "against"


def choose(state: GameState, policy: Policy, rng: random.Random) -> Action:
    """The next action of ``policy`` in ``state``, its dice rolled from ``rng``."""
    if policy is Policy.SEARCH:
        return search.choose(state, rng)
    return policy_choice(state, policy, rng)


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: from the run's seed and the index alone (never from
    which worker plays it or when), spread by a fixed 64-bit mix so neighbouring games differ."""
    mixed = (run_seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) % (1 << 64)
    mixed ^= mixed >> 31
    return (mixed * 0xD6E8FEB86659FD93) % (1 << 64)


def _off_the_edges(sq: Square, color: Color) -> bool:
    """A King's square kept off the back rank and the camp's front rank: the squares before and
    behind it are in its camp too (core §1 allows the whole camp; the policies start safer)."""
    return in_camp(Square(sq - 8), color) and in_camp(Square(sq + 8), color)


def _setup(task: GameTask, rng: random.Random, draft_rng: random.Random) -> tuple[Start, tuple[tuple[str, ...], ...]]:
    """The draft (R19), roll-off and King placement (core §1, R01) as log items, and the start of play."""
    ruleset = game_ruleset(task.ruleset, task.scenario)
    by_name: dict[str, Card] = {}
    for side in (task.pack, task.against):
        for card in side.cards:
            by_name.setdefault(card.name, card)
    hands: dict[Color, tuple[str, ...]] = {}
    for color in (Color.WHITE, Color.BLACK):
        side = task.pack if color is task.pack_color else task.against
        names = list(dict.fromkeys(card.name for card in side.cards))
        hands[color] = draft(names, by_name, side.draw, side.keep, task.policy_of(color), draft_rng) if names else ()
    start = start_game(
        header(f"Simulated game {task.index + 1}", ruleset, scenario=task.scenario_label),
        ruleset,
        cards=tuple(by_name.values()) if by_name else None,
        hands=(hands[Color.WHITE], hands[Color.BLACK]),
        scenario=task.scenario,
        throw=lambda: random_roll_off(rng),
        rng=rng,
        where=_off_the_edges,
    )
    return start, (hands[task.pack_color], hands[task.pack_color.other])


def _refused(task: GameTask) -> Callable[[GameState, Action, Rejected], Exception]:
    def refused(state: GameState, action: Action, outcome: Rejected) -> Exception:
        reasons = "; ".join(v.diagnostic.message for v in outcome.violations)
        return RefusedAction(
            f"game {task.index + 1} (seed {task.seed}): the engine refused {action} "
            f"on {state.to_move.title}'s turn {state.turn_number}: {reasons}"
        )

    return refused


def play_task(task: GameTask) -> GameRecord:
    """Play the game ``task`` describes; the same record for the same task, in any process."""
    rng = random.Random(task.seed)
    claims_rng = random.Random(task.seed ^ 0x5A5A5A5A)  # the log's claims never move the game's dice
    # nor does the draft: a pack with a card taken away (impact by ablation) rolls the same dice
    draft_rng = random.Random(task.seed ^ 0x3C3C3C3C)
    start, drafted = _setup(task, rng, draft_rng)
    items: list[LogItem] = start.items
    state = start.state
    first = state.to_move
    played: dict[Color, dict[str, None]] = {Color.WHITE: {}, Color.BLACK: {}}
    economy: dict[Color, list[tuple[int, int]]] = {Color.WHITE: [], Color.BLACK: []}
    log = GameLog(state, Claims.ALL, claims_rng) if task.sample else None
    actions = 0
    captures = 0
    earned = {Color.WHITE: 0, Color.BLACK: 0}
    steps = play(
        state,
        lambda at: choose(at, task.policy_of(at.to_move), rng),
        _refused(task),
        stop=lambda at: at.turn_number > task.max_turns,
    )
    for step in steps:
        action, mover = step.action, step.mover
        if isinstance(action, Play | Activate):
            played[mover].setdefault(action.card, None)
        if isinstance(action, EndTurn):
            player = step.after.player(mover)
            economy[mover].append((player.lp, player.sp))
        if log is not None:
            turn = log.write(step)
            if turn is not None:
                items.append(turn)
        actions += step.counted
        if step.applied.effects.captured is not None:
            captures += 1
        for color in earned:
            earned[color] += max(0, step.after.player(color).sp - step.before.player(color).sp)
        state = step.after
    result = state.result
    text = None
    if task.sample:
        ended = result_line(state)
        text = format_log([*items, ended] if ended is not None else items)
    pack_color = task.pack_color
    return GameRecord(
        index=task.index,
        pack_color=pack_color,
        first=first,
        winner=result.winner if result is not None else None,
        outcome=result.outcome.value if result is not None else UNFINISHED,
        rounds=result.turn_number if result is not None else state.turn_number - 1,
        drafted=(drafted[0], drafted[1]),
        played=(tuple(played[pack_color]), tuple(played[pack_color.other])),
        economy=(tuple(economy[pack_color]), tuple(economy[pack_color.other])),
        actions=actions,
        log=text,
        captures=captures,
        sp_earned=(earned[pack_color], earned[pack_color.other]),
    )
