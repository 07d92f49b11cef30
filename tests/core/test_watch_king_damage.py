"""core §4.4, core §8, R19: only attacks damage a King. The core has no other way to change a
King's damage (a card that would deal it is refused when played, SG-R123), so no game log can
show the watch's guard at work (SG-R135, the one replay code without an example case for that
reason): here the engine's answer to a card played is altered to damage a King, as a new effect
written carelessly would, and :func:`~sgcheck.core.watch.observe` must report it."""

from __future__ import annotations

from sgcheck.core.actions import Play
from sgcheck.core.cards.table import new_cards
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.state import GameState
from sgcheck.core.watch import KINDS, START, observe
from tests.core.helpers import cards_by_name, ok, position

B = Color.BLACK
CARDS = cards_by_name('spell "Focus" { cost 3 SP phase main effect to_hit +10 this turn }', "cards.sgcard")


def _holding_focus() -> GameState:
    state = position("Ke1 Ra3 ke8 pa5", sp=10, phase=Phase.MAIN1)
    return state.replace(cards=new_cards(CARDS, ("Focus",), ()))


def _with_king_damage(applied: Applied, color: Color, damage: int) -> Applied:
    state = applied.state
    return Applied(state.with_player(color, state.players[color].replace(king_damage=damage)), applied.effects)


def test_sg_r135_a_king_damaged_by_a_card_played_is_a_breach_naming_the_card() -> None:
    before = _holding_focus()
    played = ok(before, Play("Focus"))
    _watch, found = observe(START, before, Play("Focus"), _with_king_damage(played, B, 1))
    assert [(b.kind, b.diagnostic.code, b.cards, b.lp) for b in found] == [("king-damage", "SG-R135", ("Focus",), 1)]
    assert KINDS["king-damage"][0] == "SG-R135"
    assert "Black's King damage changed from 0 to 1 outside an attack" in found[0].diagnostic.message
    assert {"core §4.4", "core §8", "R19"} <= set(found[0].diagnostic.rules)


def test_the_same_card_played_without_king_damage_is_no_breach() -> None:
    before = _holding_focus()
    _watch, found = observe(START, before, Play("Focus"), ok(before, Play("Focus")))
    assert found == ()
