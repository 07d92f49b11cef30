"""A log's setup lines in a replay (core §1, R19, R24): the draft, the roll-off, the colour
choice, the Kings, and the state at the start of play.

Each function takes the :class:`~sgcheck.replay.session.Session` being fed and reports through it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from sgcheck.codes import diagnostic
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.pieces import Color
from sgcheck.core.play.market import module_start
from sgcheck.core.play.victory import scenario_start
from sgcheck.core.ruleset import Ruleset
from sgcheck.core.setup import (
    check_colour_choice,
    check_draft,
    check_king_placement,
    check_pack_draft,
    check_rolloff,
    rolloff_winner,
)
from sgcheck.core.squares import Square, name
from sgcheck.core.state import GameState, initial_state
from sgcheck.core.watch import START as WATCH_START
from sgcheck.core.watch import needs_watch
from sgcheck.diagnostics import NameIndex, Span
from sgcheck.lang.logs.ast import ColourChoice, Draft, KingPlacement, RollOff
from sgcheck.lang.logs.reader import PlainTurn

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario
    from sgcheck.play.pack import GamePack
    from sgcheck.replay.session import Session


def _closed(replayer: Session, what: str, span: Span) -> bool:
    if replayer.at.state is not None:
        replayer.report(diagnostic("SG-S101", f"{what} belongs to setup, before the first turn").at(span))
        return True
    return False


def draft(replayer: Session, item: Draft) -> None:
    if _closed(replayer, "the draft", item.span):
        return
    setup = replayer.opening.setup
    if setup.rolloff is not None or setup.kings:
        replayer.report(diagnostic("SG-S101", "the Relic draft comes before the roll-off and the Kings").at(item.span))
    if setup.drafted(item.color) is not None:
        replayer.report(diagnostic("SG-S101", f"{item.color.title} drafts twice").at(item.span))
    cards = tuple(c.name for c in item.cards)
    pack = replayer.opening.pack
    if pack is None:
        for v in check_draft(item.color, cards):
            replayer.report(v.diagnostic.at(item.span))
    else:
        _draft_from_pack(replayer, item, pack)
    opening = replayer.opening
    replayer.settle(opening.replace(setup=opening.setup.with_draft(item.color, cards)))


def _draft_from_pack(replayer: Session, item: Draft, pack: GamePack) -> None:
    """The draft against the pack: its cards, its draw/keep and hand limit (R19)."""
    known = _names_of(pack)
    names = tuple(c.name for c in item.cards)
    settings = {"draw": pack.draw, "keep": pack.keep, "hand_limit": pack.hand_limit}
    for index, v in check_pack_draft(item.color, names, known, pack.shown, **settings):
        replayer.report(v.diagnostic.at(item.span if index is None else item.cards[index].span))


#: The card names of the packs drafted from lately, indexed (by the pack's identity, the pack kept
#: so that it stays the same object): a corpus of logs shares a few packs.
_INDEXED: dict[int, tuple[GamePack, NameIndex]] = {}


def _names_of(pack: GamePack) -> NameIndex:
    kept = _INDEXED.get(id(pack))
    if kept is not None and kept[0] is pack:
        return kept[1]
    index = NameIndex(card.name for card in pack.cards)
    if len(_INDEXED) >= 8:
        del _INDEXED[next(iter(_INDEXED))]
    _INDEXED[id(pack)] = (pack, index)
    return index


def rolloff(replayer: Session, roll: RollOff) -> None:
    if _closed(replayer, "the roll-off", roll.span):
        return
    setup = replayer.opening.setup
    if setup.kings:
        replayer.report(diagnostic("SG-S101", "the roll-off comes before the Kings are placed").at(roll.span))
    previous = setup.rolloff
    if previous is not None and rolloff_winner(previous.white.faces, previous.black.faces) is not None:
        replayer.report(
            diagnostic("SG-S101", "the roll-off was already decided; only a tie is rolled again").at(roll.span)
        )
    for v in check_rolloff(roll.white.faces, roll.black.faces):
        replayer.report(v.diagnostic.at(roll.span))
    opening = replayer.opening
    replayer.settle(opening.replace(setup=opening.setup.with_rolloff(roll)))


def choose(replayer: Session, choice: ColourChoice) -> None:
    """After a decided roll-off and before the Kings (R01); the choice itself is judged by the core."""
    if _closed(replayer, "the colour choice", choice.span):
        return
    setup = replayer.opening.setup
    last = setup.rolloff
    winner = rolloff_winner(last.white.faces, last.black.faces) if last is not None else None
    if setup.chosen or setup.kings or winner is None:
        why = (
            "the colour is chosen only once"
            if setup.chosen
            else "the colour is chosen before the Kings are placed"
            if setup.kings
            else "the colour is chosen by the winner of a decided roll-off"
        )
        replayer.report(diagnostic("SG-S101", f"'choose' is out of place: {why}").at(choice.span))
    else:
        assert last is not None
        for v in check_colour_choice(last.white.faces, last.black.faces, choice.color):
            replayer.report(v.diagnostic.at(choice.span))
    opening = replayer.opening
    replayer.settle(opening.replace(setup=opening.setup.with_choice()))


def king(replayer: Session, item: KingPlacement) -> None:
    if _closed(replayer, "placing a King", item.span):
        return
    setup = replayer.opening.setup
    if setup.king(item.color) is not None:
        replayer.report(diagnostic("SG-S101", f"the {item.color.title} King is placed twice").at(item.span))
        return
    for v in check_king_placement(item.color, item.square.square):
        replayer.report(v.diagnostic.at(item.square.span))
        return
    scenario = replayer.game_scenario
    if scenario is not None and not _king_fits(replayer, scenario, item):
        return
    opening = replayer.opening
    replayer.settle(opening.replace(setup=opening.setup.with_king(item)))


def _king_fits(replayer: Session, scenario: Scenario, item: KingPlacement) -> bool:
    """A King the log places: not one the scenario places, not on a square its pieces take (R24)."""
    placed = scenario.side(item.color).king
    if placed is not None:
        message = f"the {item.color.title} King is placed by the scenario {scenario.name} (on {name(placed)})"
        replayer.report(diagnostic("SG-S101", message).at(item.span))
        return False
    for color in Color:
        for sq, kind in scenario.side(color).pieces:
            if sq == item.square.square:
                message = f"{name(sq)} is taken by the scenario's {color.title} {kind.title}"
                replayer.report(diagnostic("SG-S103", message).at(item.square.span))
                return False
    return True


def king_square(replayer: Session, color: Color) -> Square | None:
    """Where ``color``'s King starts: where the log or the scenario places it (None: not yet)."""
    placed = replayer.opening.setup.king(color)
    if placed is not None:
        return placed.square.square
    scenario = replayer.game_scenario
    return scenario.side(color).king if scenario is not None else None


@functools.lru_cache(maxsize=256)
def _opening(white: Square, black: Square, ruleset: Ruleset) -> GameState:
    """The state at the start of a game without a scenario: the same for every log of a run that
    places its Kings alike under one ruleset, and immutable, so it is built once."""
    return initial_state(white, black, ruleset)


def start(replayer: Session, at: Span | PlainTurn) -> GameState:
    """The state at the start of play, which the position goes on from (with the watch, if the
    cards need one); ``at``: where play starts (a span, or the first turn, whose header a finding
    is placed at)."""
    opening = replayer.opening
    setup = opening.setup
    missing = [c.title for c in Color if king_square(replayer, c) is None]
    if missing:
        kings = f"{' and '.join(missing)} King{'s are' if len(missing) > 1 else ' is'}"
        replayer.report(
            diagnostic(
                "SG-S104",
                f"play starts before the {kings} placed",
                hint="add setup lines such as 'king white e1' and 'king black e8' before turn 1",
            ).at(at.header_span() if isinstance(at, PlainTurn) else at),
            fatal=True,
        )
    last = setup.rolloff
    if last is not None and rolloff_winner(last.white.faces, last.black.faces) is None:
        total = sum(last.white.faces)
        replayer.report(
            diagnostic("SG-S102", f"the last roll-off is a tie ({total} each); a tie is rolled again").at(last.span)
        )
    white, black = king_square(replayer, Color.WHITE), king_square(replayer, Color.BLACK)
    assert white is not None and black is not None
    scenario = replayer.game_scenario
    if scenario is not None:
        state = initial_state(white, black, opening.ruleset, scenario)
    else:
        state = _opening(white, black, opening.ruleset)
    pack = opening.pack
    if pack is not None:
        hands = new_cards(CardsByName(pack.cards), setup.drafted(Color.WHITE) or (), setup.drafted(Color.BLACK) or ())
        state = state.replace(cards=hands)
        if pack.module is not None:
            state = module_start(state, pack.module)
    # the watch only where the cards can break what it watches (a market's deck: always)
    watched = pack is not None and (pack.module is not None or needs_watch(pack.cards))
    watch = WATCH_START if state.cards is not None and watched else None
    state = state if state.scenario is None else scenario_start(state)
    replayer.at = replayer.at.with_played(state, watch)
    return state
