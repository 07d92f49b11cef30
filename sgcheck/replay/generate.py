"""Random legal games, written as logs: for property tests, fuzzing and benchmarks.

A driver over :mod:`sgcheck.play`: the game is set up by :mod:`sgcheck.play.start`, a style of
:mod:`sgcheck.play.styles` picks each action among :func:`sgcheck.core.legal.legal_actions` with
dice from a seeded RNG, and :mod:`sgcheck.play.loop` applies it with the engine and writes it
back as a log statement with the claims the engine's effects justify. The result is a log that
replay must accept and whose final state must equal the generator's.

Given a pack, each side drafts cards from it (R19) and the policy plays them like any
other action: cards from hand, uses of activated Relics, a second accuracy roll where a
card grants one (R20, R22, R23).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sgcheck.core.actions import Action
from sgcheck.core.outcome import Rejected
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.state import GameState
from sgcheck.lang.logs.ast import LogItem, Turn
from sgcheck.lang.logs.from_actions import Claims
from sgcheck.play.loop import GameLog, play, result_line
from sgcheck.play.roller import random_roll_off
from sgcheck.play.start import Start, game_ruleset, header, start_game
from sgcheck.play.styles import Style, choose

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario
    from sgcheck.play.dice_source import DerivedDice
    from sgcheck.play.pack import GamePack

__all__ = ["Claims", "GeneratedGame", "Style", "choose", "generate_game", "iter_game"]


@dataclass(slots=True)
class GeneratedGame:
    items: list[LogItem]
    final: GameState
    actions: int
    kinds: dict[str, int] = field(default_factory=dict)


def _setup(
    rng: random.Random,
    ruleset: Ruleset,
    pack: GamePack | None,
    pack_tag: str | None,
    scenario: Scenario | None = None,
    scenario_tag: str | None = None,
    dice: DerivedDice | None = None,
) -> Start:
    """The game's start (:func:`sgcheck.play.start.start_game`): each side keeps what the pack's
    draft lets it keep, sometimes fewer (R19); the roll-off and the Kings anywhere in their camps."""
    ruleset = game_ruleset(ruleset, scenario)
    tags = header("Generated game", ruleset, pack=pack_tag, scenario=scenario_tag)
    if dice is not None:
        tags += dice.tags()
    hands: list[tuple[str, ...]] = [(), ()]
    if pack is not None:
        names = list(dict.fromkeys(card.name for card in pack.cards))
        for side in range(2):
            hands[side] = tuple(rng.sample(names, min(rng.randint(1, pack.keep), pack.hand_limit, len(names))))
    return start_game(
        tags,
        ruleset,
        cards=pack.cards if pack is not None else None,
        hands=(hands[0], hands[1]),
        scenario=scenario,
        throw=dice.rolloff if dice is not None else lambda: random_roll_off(rng),
        rng=rng,
    )


def _refused(state: GameState, action: Action, outcome: Rejected) -> Exception:
    return AssertionError((action, outcome))


def iter_game(
    seed: int | random.Random,
    *,
    style: Style = Style.RANDOM,
    claims: Claims = Claims.ALL,
    max_turns: int = 60,
    max_actions: int | None = None,
    ruleset: Ruleset = CORE,
    pack: GamePack | None = None,
    pack_tag: str | None = None,
    scenario: Scenario | None = None,
    scenario_tag: str | None = None,
    dice: DerivedDice | None = None,
) -> Iterator[LogItem | GameState]:
    """Yield the log items of one generated game, turn by turn, then the final state.

    Streaming keeps memory flat for benchmark logs of a million actions. ``seed`` may also be
    the random source itself (a property test passes one hypothesis draws from, so a failing
    game shrinks). With ``pack`` both sides draft from its cards and play them; ``pack_tag``
    is the ``[Pack]`` tag to write (none: the replay is given the pack with ``--pack``). With
    ``scenario`` the game starts from its position and ends as its win conditions say (R24);
    ``scenario_tag`` is the ``[Scenario]`` tag to write. With ``dice`` (a
    :class:`~sgcheck.play.dice_source.DerivedDice`) every roll comes from the verifiable-dice
    protocol and the header carries its tags (docs/dice.md); the random source still picks the
    actions.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    start = _setup(rng, ruleset, pack, pack_tag, scenario, scenario_tag, dice)
    yield from start.items
    state = start.state
    log = GameLog(state, claims, rng)
    actions = 0

    def stop(at: GameState) -> bool:
        return at.turn_number > max_turns or (max_actions is not None and actions >= max_actions)

    def chosen(at: GameState) -> Action:
        action = choose(at, style, rng, dice)
        assert action is not None
        return action

    for step in play(state, chosen, _refused, stop=stop):
        actions += step.counted
        turn = log.write(step)
        if turn is not None:
            yield turn
        state = step.after
    ended = result_line(state)
    if ended is not None:
        yield ended
    yield state


def generate_game(
    seed: int | random.Random,
    *,
    style: Style = Style.RANDOM,
    claims: Claims = Claims.ALL,
    max_turns: int = 60,
    max_actions: int | None = None,
    ruleset: Ruleset = CORE,
    pack: GamePack | None = None,
    pack_tag: str | None = None,
    scenario: Scenario | None = None,
    scenario_tag: str | None = None,
    dice: DerivedDice | None = None,
) -> GeneratedGame:
    """A whole generated game in memory (see :func:`iter_game` for the options)."""
    items: list[LogItem] = []
    final: GameState | None = None
    kinds: dict[str, int] = {}
    games = iter_game(
        seed,
        style=style,
        claims=claims,
        max_turns=max_turns,
        max_actions=max_actions,
        ruleset=ruleset,
        pack=pack,
        pack_tag=pack_tag,
        scenario=scenario,
        scenario_tag=scenario_tag,
        dice=dice,
    )
    for item in games:
        if isinstance(item, GameState):
            final = item
        else:
            items.append(item)
            if isinstance(item, Turn):
                for block in item.phases:
                    for stmt in block.statements:
                        kinds[type(stmt).__name__] = kinds.get(type(stmt).__name__, 0) + 1
    assert final is not None
    actions = sum(v for k, v in kinds.items() if k != "PassStmt")
    return GeneratedGame(items, final, actions, kinds)
