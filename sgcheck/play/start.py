"""The set-up of a game, written once: ruleset, header, draft, roll-off, Kings, the first state.

Every game sgcheck plays itself starts here, as core §1 and R01, R19, R24 say a game starts: the
ruleset takes a scenario's turn limit (R18, R24); each side's kept cards are a draft line (a side
that keeps nothing writes none); the roll-off is thrown until one side wins it and that side
chooses a colour; a King the scenario does not place is placed on a free square of its own camp
(:func:`sgcheck.core.squares.camp`, the core's, which replay's check of a placement reads too);
the first state is the core's, with the hands dealt and a scenario's start applied. The
generator, the simulator and the contract's proofs differ only in what they hand in: who keeps
which cards, where the dice come from, and which squares of the camp a King may be placed on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from sgcheck.core.cards.model import Card
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.pieces import Color
from sgcheck.core.play.victory import scenario_start
from sgcheck.core.ruleset import Ruleset
from sgcheck.core.scenario import Scenario
from sgcheck.core.setup import rolloff_winner
from sgcheck.core.squares import Square, camp
from sgcheck.core.state import GameState, initial_state
from sgcheck.lang.logs.ast import (
    CardName,
    ColourChoice,
    Dice,
    Draft,
    Header,
    KingPlacement,
    LogItem,
    RollOff,
    SquareRef,
    Tag,
)
from sgcheck.lang.logs.from_actions import NOWHERE

Faces = tuple[int, ...]
Hands = tuple[tuple[str, ...], tuple[str, ...]]
#: Which free squares of a camp a King may be placed on: any (the rulebook's), or fewer (a policy's).
KingSquares = Callable[[Square, Color], bool]


def anywhere(sq: Square, color: Color) -> bool:
    """Every free square of the camp (core §1)."""
    return True


@dataclass(frozen=True, slots=True)
class Start:
    """A game set up: its log items so far (header, drafts, roll-off, King placements) and the first state."""

    items: list[LogItem]
    state: GameState


def game_ruleset(ruleset: Ruleset, scenario: Scenario | None) -> Ruleset:
    """The ruleset a game is played by: a scenario's own turn limit comes first (R18, R24)."""
    if scenario is not None and scenario.turn_limit is not None:
        return replace(ruleset, turn_limit=scenario.turn_limit)
    return ruleset


def header(event: str, ruleset: Ruleset, *, pack: str | None = None, scenario: str | None = None) -> list[Tag]:
    """The header tags every game written here starts with: ``[Event]``, ``[Ruleset]``, and the
    ``[Pack]`` and ``[Scenario]`` tags when the game names them."""
    tags = [Tag("Event", event, NOWHERE), Tag("Ruleset", ruleset.describe(), NOWHERE)]
    if pack is not None:
        tags.append(Tag("Pack", pack, NOWHERE))
    if scenario is not None:
        tags.append(Tag("Scenario", scenario, NOWHERE))
    return tags


def draft_lines(hands: Hands) -> list[LogItem]:
    """White's and Black's draft lines (R19); a side that kept nothing has none (a line names a card or more)."""
    return [
        Draft(color, tuple(CardName(name, NOWHERE) for name in hand), NOWHERE)
        for color, hand in zip(Color, hands, strict=True)
        if hand
    ]


def roll_off(throw: Callable[[], tuple[Faces, Faces]]) -> list[LogItem]:
    """The roll-off (core §1, R01): rounds thrown by ``throw`` (White's dice, Black's) until one
    side's total is higher, then that side's choice of colour."""
    items: list[LogItem] = []
    while True:
        white, black = throw()
        items.append(RollOff(Dice(white, NOWHERE), Dice(black, NOWHERE), NOWHERE))
        winner = rolloff_winner(white, black)
        if winner is not None:
            items.append(ColourChoice(winner, NOWHERE))
            return items


def place_kings(
    scenario: Scenario | None, rng: random.Random | None, where: KingSquares = anywhere
) -> tuple[list[LogItem], tuple[Square, Square]]:
    """Both Kings: where the scenario places them, else on a free square of the King's own camp
    (core §1) that ``where`` allows, drawn from ``rng``; the log's placement lines for the second."""
    taken = {sq for c in Color for sq, _ in scenario.side(c).pieces} if scenario is not None else set()
    items: list[LogItem] = []
    kings: list[Square] = []
    for color in Color:
        placed = scenario.side(color).king if scenario is not None else None
        if placed is None:
            if rng is None:
                raise ValueError(f"the {color.title} King has no square: the scenario does not place it")
            free = [sq for sq in camp(color) if sq not in taken and where(sq, color)]
            placed = free[rng.randrange(len(free))]
            items.append(KingPlacement(color, SquareRef(placed, NOWHERE), NOWHERE))
        kings.append(placed)
    return items, (kings[0], kings[1])


def first_state(
    kings: tuple[Square, Square],
    ruleset: Ruleset,
    scenario: Scenario | None,
    cards: Sequence[Card] | None,
    hands: Hands,
) -> GameState:
    """The state at the start of play: the core's, with the hands dealt from ``cards`` (None: a game
    without cards) and a scenario's start applied (R24)."""
    state = initial_state(kings[0], kings[1], ruleset, scenario)
    if cards is not None:
        state = state.replace(cards=new_cards(CardsByName(tuple(cards)), *hands))
    return state if scenario is None else scenario_start(state)


def start_game(
    tags: Sequence[Tag],
    ruleset: Ruleset,
    *,
    cards: Sequence[Card] | None = None,
    hands: Hands = ((), ()),
    scenario: Scenario | None = None,
    throw: Callable[[], tuple[Faces, Faces]] | None = None,
    rng: random.Random | None = None,
    where: KingSquares = anywhere,
) -> Start:
    """A game set up: the header of ``tags``, the draft lines of ``hands``, a roll-off thrown by
    ``throw`` (None: none, as in a game whose scenario places both Kings and says who moves
    first), the Kings (:func:`place_kings`) and the first state. ``ruleset`` is the game's
    (:func:`game_ruleset`)."""
    items: list[LogItem] = [Header(tuple(tags), NOWHERE), *draft_lines(hands)]
    if throw is not None:
        items += roll_off(throw)
    placements, kings = place_kings(scenario, rng, where)
    items += placements
    return Start(items, first_state(kings, ruleset, scenario, cards, hands))
