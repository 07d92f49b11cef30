"""A market module's reveals (Spell Chess, R26): the card before each player acts as its card in play.

After each capture the capturer reveals the top card of the shared deck and places it before
either player; at most one card stands before each player, and a new one discards the old. The
card placed acts for the player it is before exactly as a passive Relic that player had put into
play (R22): its effects join the lasting effects in the order cards entered play (R23), and leave
them when the one-card rule discards it. No card has a code path of its own.

The engine marks a capture as waiting for its reveal (:func:`after_capture`); replay reports a
capture whose reveal the log does not record (SG-T108), since the log is what records it.
"""

from __future__ import annotations

from sgcheck.codes import diagnostic
from sgcheck.core.actions import Reveal
from sgcheck.core.cards.table import CardsState, InPlay, Lasting, MarketPlay, ply
from sgcheck.core.module import Module, module_card_name, shield_effects
from sgcheck.core.outcome import Applied, Effects, Violation
from sgcheck.core.pieces import Color
from sgcheck.core.play.cards import enter_play
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Span


def apply_reveal(state: GameState, action: Reveal) -> Applied | Violation:
    cards = state.cards
    play = cards.market if cards is not None else None
    if cards is None or play is None:
        return Violation(diagnostic("SG-T109", "a reveal in a game without a market module (R26)"))
    if not play.due:
        return Violation(diagnostic("SG-T109", "a reveal that no capture calls for: each capture reveals one card"))
    market = play.market
    if market.ordered:
        top = market.next_card(play.revealed)
        if action.card != top:
            n = len(play.revealed) + 1
            return Violation(
                diagnostic(
                    "SG-R128",
                    f"reveal {n} of the deck is '{top}', not '{action.card}': the deck's order is fixed before play",
                )
            )
    elif market.copies_left(action.card, play.revealed) <= 0:
        what = "is not a card of the deck" if action.card not in market.deck else "has no copy left in the deck"
        return Violation(diagnostic("SG-R128", f"'{action.card}' {what}"))
    return Applied(place(state, cards, play, action), Effects())


def place(state: GameState, cards: CardsState, play: MarketPlay, action: Reveal) -> GameState:
    """``action.card`` placed before ``action.to``: the card there before is discarded, with its effects."""
    to = action.to
    old = play.before[to]
    discarded = play.discarded
    if old is not None:
        _, order = old
        cards = cards.with_lasting(tuple(e for e in cards.lasting if e.order != order))
        cards = cards.replace(
            in_play=tuple(c for c in cards.in_play if c.order != order),
            pending=tuple(p for p in cards.pending if p[1].order != order),
        )
        discarded = (*discarded, old[0])
    order = cards.entered
    before = ((action.card, order), play.before[1]) if to is Color.WHITE else (play.before[0], (action.card, order))
    play = play.replace(revealed=(*play.revealed, action.card), before=before, discarded=discarded, due=False)
    cards = cards.replace(entered=order + 1, in_play=(*cards.in_play, InPlay(action.card, to, order)), market=play)
    state = state.replace(cards=cards)
    card = cards.by_name[action.card]
    return enter_play(state, card, to, order, ply(state.turn_number, state.to_move))


def after_capture(applied: Applied) -> Applied:
    """A capture with cards left in the deck waits for its reveal."""
    cards = applied.state.cards
    assert cards is not None and cards.market is not None
    play = cards.market
    if play.market.remaining(play.revealed) <= 0:
        return applied
    return Applied(applied.state.replace(cards=cards.replace(market=play.replace(due=True))), applied.effects)


def reveal_due(state: GameState | None) -> bool:
    """A capture of this turn waits for its reveal."""
    if state is None:
        return False
    cards = state.cards
    return cards is not None and cards.market is not None and cards.market.due


def forget_due(state: GameState) -> GameState:
    """The missing reveal reported, play goes on without it."""
    cards = state.cards
    assert cards is not None and cards.market is not None
    return state.replace(cards=cards.replace(market=cards.market.replace(due=False)))


def module_start(state: GameState, module: Module) -> GameState:
    """The start of a game played with ``module`` (R26): its market, with nothing revealed, and its
    shields' damage reduction acting for each side as a permanent effect in play, entered first."""
    cards = state.cards
    assert cards is not None
    if module.market is not None:
        cards = cards.replace(market=MarketPlay(module.market))
    if module.shields is not None:
        effects = shield_effects(module.shields, Span.point(module_card_name(module)))
        items: list[Lasting] = []
        for color in Color:
            order = cards.entered
            items.extend(Lasting(module_card_name(module), color, order, effect) for effect in effects)
            cards = cards.replace(entered=order + 1)
        cards = cards.with_lasting((*cards.lasting, *items))
    return state.replace(cards=cards)
