"""Random legal games, written as logs: for property tests, fuzzing and benchmarks.

A policy picks among :func:`sgcheck.core.legal.legal_actions`; dice come from a
seeded RNG; every chosen action is applied with the engine and written back as a
log statement with the claims the engine's effects justify
(:mod:`sgcheck.lang.logs.from_actions`). The result is a log
that replay must accept and whose final state must equal the generator's.

Given a pack, each side drafts cards from it (R19) and the policy plays them like any
other action: cards from hand, uses of activated Relics, a second accuracy roll where a
card grants one (R20, R22, R23).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from sgcheck.core import caps, engine
from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    EndTurn,
    EnterPhase,
    Move,
    Play,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.dice import action_purpose
from sgcheck.core.legal import (
    CATEGORIES,
    Category,
    accepted,
    attacks,
    card_plays,
    converts,
    gem_attempts,
    legal_actions,
    moves,
    moves_from,
    phase_changes,
    summons,
    teleports,
    with_roll,
)
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.play.victory import scenario_start
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.squares import Square, file_of, rank_of
from sgcheck.core.state import GameState, initial_state
from sgcheck.lang.logs.ast import (
    CardName,
    ClaimKind,
    ColourChoice,
    Dice,
    Draft,
    Header,
    KingPlacement,
    LogItem,
    ResultLine,
    RollOff,
    SquareRef,
    Tag,
    Turn,
)
from sgcheck.lang.logs.from_actions import NOWHERE, Claims, TurnWriter, claims_for, statement_for

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario
    from sgcheck.replay.dice_source import DerivedDice
    from sgcheck.replay.pack import GamePack


class Style(StrEnum):
    RANDOM = "random"  # uniform over action kinds: exercises every rule
    AGGRESSIVE = "aggressive"  # heads for the enemy King: games end by conversion
    ENDLESS = "endless"  # never ends the game: for long benchmark logs


@dataclass(slots=True)
class GeneratedGame:
    items: list[LogItem]
    final: GameState
    actions: int
    kinds: dict[str, int] = field(default_factory=dict)


def _roll(rng: random.Random, action: Action, state: GameState, dice: DerivedDice | None = None) -> Action:
    if isinstance(action, Attack):
        aim = action_purpose(action, state.to_move)
        first = (rng.randrange(10), rng.randrange(10)) if dice is None else dice.roll(10, 2, aim)
        rolled = replace(action, roll=first)
        if state.cards is not None and state.cards.lasting and rng.random() < 0.6:
            return _second_roll(rng, rolled, state, dice)
        return rolled
    if isinstance(action, Break | Repair):
        if dice is None:
            return with_roll(action, tuple(rng.randint(1, 6) for _ in range(3)))
        return with_roll(action, dice.roll(6, 3, action_purpose(action, state.to_move)))
    return action


def _second_roll(rng: random.Random, action: Attack, state: GameState, dice: DerivedDice | None = None) -> Attack:
    """A reroll or advantage where a card grants one (R20): the engine says which word it takes.
    Derived dice are used up only when the second roll is written."""
    drawn = (rng.randrange(10), rng.randrange(10)) if dice is None else ()
    for advantage in rng.sample((False, True), 2):
        aim = action_purpose(replace(action, advantage=advantage), state.to_move, second=True)
        second = drawn if dice is None else dice.peek(10, 2, aim)
        again = replace(action, second=second, advantage=advantage)
        if engine.is_legal(state, again):
            if dice is not None:
                dice.roll(10, 2, aim)
            return again
    return action


def _king_distance(state: GameState, sq: Square, color: Color) -> int:
    king = state.king_square(color.other)
    if king is None:
        return 0
    return max(abs(file_of(sq) - file_of(king)), abs(rank_of(sq) - rank_of(king)))


def _aggressive_score(state: GameState, action: Action, rng: random.Random) -> float:
    """Head for the enemy King with a few strong pieces; keep enough LP to act next turn."""
    noise = rng.random()
    me = state.to_move
    funds = state.mover.lp + state.mover.sp
    if isinstance(action, Attack):
        target = state.board[action.to]
        if target is not None and target.kind is Kind.KING:
            return 9 + noise
        return 6 + noise if funds > 20 or (target is not None and target.kind is Kind.PAWN) else noise
    if isinstance(action, Summon):
        army = sum(1 for p in state.board if p is not None and p.color is me)
        if army >= 7 or funds < 12:
            return -1
        preference = {Kind.PAWN: 2.5, Kind.KNIGHT: 3.2, Kind.BISHOP: 2.0, Kind.ROOK: 3.5, Kind.QUEEN: 4.5}
        return preference[action.kind] + noise
    if isinstance(action, Move):
        mover = state.board[action.frm]
        if mover is None or mover.kind is Kind.KING:
            return -1
        gain = _king_distance(state, action.frm, me) - _king_distance(state, action.to, me)
        return gain * 2 + noise - 2.5 if funds > 15 else -1
    if isinstance(action, Convert):
        best = min(caps.CONVERSION_CAP_SP - state.turn.converted_sp, state.mover.sp) // 2 * 2
        return 3 + noise if state.mover.lp < 25 and action.sp == best else -1
    if isinstance(action, Break):
        return 4 + noise if funds > 40 else -1
    if isinstance(action, Repair):
        return 8 + noise
    if isinstance(action, Teleport):
        gain = _king_distance(state, action.frm, me) - _king_distance(state, action.to, me)
        return gain + noise - 3 if funds > 30 else -1
    if isinstance(action, Play | Activate):
        return 5 + noise if funds > 12 else -1
    if isinstance(action, EnterPhase):
        return 0.5 * noise
    return 0.4 * noise


#: How likely each kind of action is tried in the sampling styles, by phase.
_WEIGHTS: dict[Phase, tuple[tuple[Category, float], ...]] = {
    Phase.UPKEEP: ((gem_attempts, 0.08), (summons, 0.45), (card_plays, 0.2), (phase_changes, 0.6)),
    Phase.MAIN1: ((moves, 0.7), (card_plays, 0.4), (phase_changes, 0.4)),
    Phase.BATTLE: ((attacks, 0.7), (card_plays, 0.4), (phase_changes, 0.4)),
    Phase.MAIN2: ((moves, 0.5), (converts, 0.15), (card_plays, 0.3), (phase_changes, 0.5)),
    Phase.END: ((teleports, 0.06), (card_plays, 0.1), (phase_changes, 0.94)),
}


def _random_moves(state: GameState, rng: random.Random) -> list[Action]:
    """The moves of one random piece (cheaper than listing every move of every piece)."""
    own = [sq for sq, p in enumerate(state.board) if p is not None and p.color is state.to_move]
    rng.shuffle(own)
    for sq in own:
        found = list(accepted(state, moves_from(state, Square(sq))))
        if found:
            return found
    return []


def _random_summons(state: GameState, rng: random.Random) -> list[Action]:
    """The summons of one kind still in the Gem (kinds with more free squares are picked more often)."""
    every = [a for a in summons(state) if isinstance(a, Summon)]  # candidates: see _pick
    if not every:
        return []
    kind = rng.choice(every).kind
    return [a for a in every if a.kind is kind]


_FAST: dict[Category, Callable[[GameState, random.Random], list[Action]]] = {
    moves: _random_moves,
    summons: _random_summons,
}


def _endless_ok(state: GameState, action: Action) -> bool:
    """Keep the game going: no final blow on a King, no 1000 LP (for long benchmark logs)."""
    if isinstance(action, Attack):
        target = state.board[action.to]
        return not (target is not None and target.kind is Kind.KING and state.opponent.king_damage >= caps.KING_HP - 2)
    if isinstance(action, Convert):
        return state.mover.lp + action.sp < caps.LP_VICTORY - 100
    if isinstance(action, EndTurn):
        return state.turn.actions > 0 or state.mover.lp + caps.PASS_BONUS_LP < caps.LP_VICTORY - 100
    if isinstance(action, Play | Activate):
        return state.mover.lp < caps.LP_VICTORY - 200
    return True


def _weighted_index(weights: list[float], rng: random.Random) -> int:
    pick = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        pick -= weight
        if pick <= 0:
            return index
    return len(weights) - 1


def _sample(state: GameState, style: Style, rng: random.Random) -> Action | None:
    """Pick a kind of action by weight, then one action of that kind uniformly."""
    options = list(_WEIGHTS[state.turn.phase])
    while options:
        index = _weighted_index([w for _, w in options], rng)
        category = options[index][0]
        fast = _FAST.get(category)
        candidates = fast(state, rng) if fast is not None else list(category(state))
        if style is Style.ENDLESS:
            candidates = [a for a in candidates if _endless_ok(state, a)]
        if category is phase_changes and candidates:
            # mostly step to the next phase; sometimes skip ahead
            return candidates[0] if rng.random() < 0.8 else rng.choice(candidates)
        picked = _pick(state, candidates, rng)
        if picked is not None:
            return picked
        del options[index]
    return None


def _candidates(state: GameState) -> Iterator[Action]:
    for category in CATEGORIES[state.turn.phase]:
        yield from category(state)


def _pick(state: GameState, candidates: list[Action], rng: random.Random) -> Action | None:
    """One of the candidates uniformly. With cards they are only candidates (see
    :func:`sgcheck.core.legal.accepted`): try them in a random order until the engine accepts one,
    which costs far fewer checks than filtering them all first."""
    if not candidates:
        return None
    if state.cards is None:
        return rng.choice(candidates)
    return next(accepted(state, iter(rng.sample(candidates, len(candidates)))), None)


def choose(state: GameState, style: Style, rng: random.Random, dice: DerivedDice | None = None) -> Action | None:
    """The policy's next action, dice included; None when nothing is legal (the game is over)."""
    if state.result is not None:
        return None
    action: Action | None
    if style is Style.AGGRESSIVE and state.cards is None:
        action = max(legal_actions(state), key=lambda a: _aggressive_score(state, a, rng), default=None)
    elif style is Style.AGGRESSIVE:
        # the best-scored candidate the engine accepts (see _pick): the same choice, fewer checks
        scored = sorted(_candidates(state), key=lambda a: _aggressive_score(state, a, rng), reverse=True)
        action = next(accepted(state, iter(scored)), None)
    else:
        action = _sample(state, style, rng)
    if action is None and style is Style.ENDLESS:
        # all that is left would end the game (a Pass reaching 1000 LP): step a piece, or end the turn
        action = next(moves(state), None) or EndTurn()
    return None if action is None else _roll(rng, action, state, dice)


def _setup(
    rng: random.Random,
    ruleset: Ruleset,
    pack: GamePack | None,
    pack_tag: str | None,
    scenario: Scenario | None = None,
    scenario_tag: str | None = None,
    dice: DerivedDice | None = None,
) -> tuple[list[LogItem], GameState]:
    if scenario is not None and scenario.turn_limit is not None:
        ruleset = replace(ruleset, turn_limit=scenario.turn_limit)
    tags = [Tag("Event", "Generated game", NOWHERE), Tag("Ruleset", ruleset.describe(), NOWHERE)]
    if pack_tag is not None:
        tags.append(Tag("Pack", pack_tag, NOWHERE))
    if scenario_tag is not None:
        tags.append(Tag("Scenario", scenario_tag, NOWHERE))
    if dice is not None:
        tags += dice.tags()
    items: list[LogItem] = [Header(tuple(tags), NOWHERE)]
    hands: list[tuple[str, ...]] = []
    if pack is not None:
        names = list(dict.fromkeys(card.name for card in pack.cards))
        for color in (Color.WHITE, Color.BLACK):
            # each side keeps what the pack's draft lets it keep, sometimes fewer (R19)
            kept = tuple(rng.sample(names, min(rng.randint(1, pack.keep), pack.hand_limit, len(names))))
            hands.append(kept)
            items.append(Draft(color, tuple(CardName(n, NOWHERE) for n in kept), NOWHERE))
    while True:
        if dice is None:
            white = tuple(rng.randint(1, 6) for _ in range(3))
            black = tuple(rng.randint(1, 6) for _ in range(3))
        else:
            white, black = dice.rolloff()
        items.append(RollOff(Dice(white, NOWHERE), Dice(black, NOWHERE), NOWHERE))
        if sum(white) != sum(black):
            winner = Color.WHITE if sum(white) > sum(black) else Color.BLACK
            items.append(ColourChoice(winner, NOWHERE))
            break
    taken = {sq for c in Color for sq, _ in scenario.side(c).pieces} if scenario is not None else set()
    kings = []
    for color, camp in ((Color.WHITE, range(0, 32)), (Color.BLACK, range(32, 64))):
        placed = scenario.side(color).king if scenario is not None else None
        if placed is None:  # the log places this King, anywhere free in its camp (core §1)
            free = [sq for sq in camp if sq not in taken]
            placed = Square(free[rng.randrange(len(free))])
            items.append(KingPlacement(color, SquareRef(placed, NOWHERE), NOWHERE))
        kings.append(placed)
    state = initial_state(kings[0], kings[1], ruleset, scenario)
    if pack is not None:
        state = state.replace(cards=new_cards(CardsByName(pack.cards), *hands))
    return items, state if scenario is None else scenario_start(state)


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
    :class:`~sgcheck.replay.dice_source.DerivedDice`) every roll comes from the verifiable-dice
    protocol and the header carries its tags (docs/dice.md); the random source still picks the
    actions.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    items, state = _setup(rng, ruleset, pack, pack_tag, scenario, scenario_tag, dice)
    yield from items
    actions = 0
    writer = TurnWriter(state.turn_number, state.to_move)
    at_turn_start = True
    while state.result is None:
        if at_turn_start and (state.turn_number > max_turns or (max_actions is not None and actions >= max_actions)):
            break
        action = choose(state, style, rng, dice)
        assert action is not None
        step = engine.apply(state, action)
        assert isinstance(step, Applied), (action, step)
        at_turn_start = isinstance(action, EndTurn)
        if isinstance(action, EnterPhase):
            writer.enter(action.phase)
        elif isinstance(action, EndTurn):
            pass_claims = claims_for(action, step.effects, step.state, state.to_move, claims, rng)
            pass_claims = tuple(c for c in pass_claims if c.kind in (ClaimKind.LP, ClaimKind.SP))
            yield writer.finish(step.effects.passed, pass_claims)
            writer = TurnWriter(step.state.turn_number, step.state.to_move)
        else:
            actions += 1
            stmt_claims = claims_for(action, step.effects, step.state, state.to_move, claims, rng)
            writer.add(statement_for(state, action, stmt_claims))
            if step.state.result is not None:
                yield writer.finish(False, ())
        state = step.state
    if state.result is not None:
        yield ResultLine(state.result.score, state.result.outcome.value, NOWHERE)
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
