"""The card language's newer wordings in play: a distance discount for one action, the
opponent's costs, ``next turn`` / ``until your next turn``, a card's conversion, an extra turn
and a modifier on the conversion (core §2, §8, R16, R23)."""

from __future__ import annotations

from sgcheck.core.actions import Attack, EndTurn, EnterPhase, Move, Play, Repair, Summon
from sgcheck.core.cards.table import CardsState, new_cards
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.state import GameState
from tests.core.helpers import cards_by_name, ok, position, rejected, sq

W, B = Color.WHITE, Color.BLACK

BY_NAME = cards_by_name(
    """
relic "Summoner's Path" passive { cost 1 SP phase main effect cost summon distance -1 }
relic "Toll Gate" passive { cost 1 SP phase main effect opponent cost move +2 }
spell "Gathering Storm" { cost 1 SP phase main1 effect cost move -1 next turn }
spell "Gem Jammer" { cost 1 SP phase main1 effect deny repair until your next turn }
spell "Gem Hush" { cost 1 SP phase main1 effect deny repair this turn }
spell "Soul Press" { cost 1 SP phase main2 effect convert 2 SP to 1 LP }
spell "Blood Price" { cost 1 SP phase main2 effect convert 4 LP to 4 SP }
spell "Sun Stop" { cost 1 SP phase main1 effect extra turn }
spell "Cheap Alchemy" { cost 1 SP phase main2 effect cost convert -1 }
spell "Fair Trade" { cost 1 SP phase main2 effect convert 1 SP to 1 LP }
spell "Giant's Wrath" { cost 1 SP phase battle effect double damage this attack }
spell "Arcane Surge" { cost 1 SP phase battle effect damage +1 this attack }
relic "Stone Skin" passive { cost 1 SP phase main effect halve damage on enemy attacks }
relic "Thrift" passive { cost 1 SP phase main effect halve cost move }
relic "Red Tape" passive { cost 1 SP phase main effect opponent double cost move }
""",
    "wordings.sgcard",
)


def with_cards(state: GameState, white: tuple[str, ...] = (), black: tuple[str, ...] = ()) -> GameState:
    return state.replace(cards=new_cards(BY_NAME, white, black))


def cards_of(state: GameState) -> CardsState:
    assert state.cards is not None
    return state.cards


def test_a_distance_discount_for_summons_changes_summons_only() -> None:
    """core §8 allows -1 distance on a Summon; ``cost summon distance -1`` leaves moves alone (R23)."""
    state = with_cards(position("Ke1 Ra1 ke8", sp=40, phase=Phase.MAIN1), white=("Summoner's Path",))
    state = ok(state, Play("Summoner's Path")).state
    moved = ok(state, Move(sq("a1"), sq("a3")))
    assert moved.effects.cost == 7 and "Summoner's Path" not in moved.effects.cost_detail  # Rook 5 + distance 2
    gem = state.players[W].replace(gem=(0, 1) + (0,) * 10)  # a White Knight to summon
    upkeep = state.replace(players=(gem, state.players[B])).replace(turn=state.turn.replace(phase=Phase.UPKEEP))
    summoned = ok(upkeep, Summon(Kind.KNIGHT, sq("b1")))
    assert "Summoner's Path -1" in summoned.effects.cost_detail


def test_an_opponent_cost_modifier_prices_the_other_sides_actions() -> None:
    """``opponent cost move +2``: the holder's moves cost as before, the opponent's more (R23)."""
    state = with_cards(position("Ke1 Ra1 ke8 ra8", sp=(20, 20)), white=("Toll Gate",))
    state = ok(state, Play("Toll Gate")).state
    own = ok(state, Move(sq("a1"), sq("a3")))
    assert own.effects.cost == 7
    black = ok(ok(own.state, EndTurn()).state, EnterPhase(Phase.MAIN1)).state
    theirs = ok(black, Move(sq("a8"), sq("a6")))
    assert theirs.effects.cost == 9 and "Toll Gate +2" in theirs.effects.cost_detail


def test_next_turn_waits_for_this_turn_to_end_and_lasts_to_the_end_of_the_next_one() -> None:
    """R23: ``next turn`` acts from the end of this turn to the end of the holder's next turn."""
    state = with_cards(position("Ke1 Ra1 ke8", sp=(40, 20)), white=("Gathering Storm",))
    state = ok(state, Play("Gathering Storm")).state
    assert cards_of(state).lasting == () and len(cards_of(state).pending) == 1
    assert ok(state, Move(sq("a1"), sq("a2"))).effects.cost == 6  # not yet
    state = ok(ok(state, EndTurn()).state, EndTurn()).state  # White's next turn
    state = ok(state, EnterPhase(Phase.MAIN1)).state
    assert ok(state, Move(sq("a1"), sq("a2"))).effects.cost == 5  # 6 − 1
    state = ok(ok(state, EndTurn()).state, EndTurn()).state  # and the turn after: over
    assert cards_of(state).lasting == () and cards_of(state).pending == ()


def test_until_your_next_turn_reaches_the_opponents_upkeep_where_this_turn_does_not() -> None:
    """core §6, R23: a denial must reach the opponent's turn to refuse a Repair."""
    for spell, denied in (("Gem Jammer", True), ("Gem Hush", False)):
        state = with_cards(position("Ke1 ke8", sp=(20, 20)), white=(spell,))
        state = ok(ok(state, Play(spell)).state, EndTurn()).state  # Black's Upkeep
        broken = state.replace(players=(state.players[W], state.players[B].replace(gem_broken=True)))
        if denied:
            rejected(broken, Repair((6, 6, 6)), "SG-R127")
        else:
            ok(broken, Repair((6, 6, 6)))


def test_a_cards_conversion_at_the_core_rate_counts_toward_the_twenty_sp_a_turn() -> None:
    """R16: 2 SP for 1 LP, at most 20 SP a turn, whoever converts; past the cap nothing happens."""
    state = with_cards(position("Ke1 ke8", sp=30, lp=5, phase=Phase.MAIN2), white=("Soul Press",))
    after = ok(state, Play("Soul Press")).state
    assert (after.players[W].sp, after.players[W].lp, after.turn.converted_sp) == (30 - 1 - 2, 6, 2)
    full = state.replace(turn=state.turn.replace(converted_sp=20))
    capped = ok(full, Play("Soul Press")).state
    assert (capped.players[W].sp, capped.players[W].lp) == (29, 5)


def test_life_for_soul_is_not_the_cores_conversion_and_has_no_cap() -> None:
    """R16 binds SP into LP only; ``convert 4 LP to 4 SP`` is an exchange like the guide's Spirit Exchange."""
    state = with_cards(position("Ke1 ke8", sp=10, lp=10, phase=Phase.MAIN2), white=("Blood Price",))
    after = ok(state, Play("Blood Price")).state
    assert (after.players[W].sp, after.players[W].lp, after.turn.converted_sp) == (10 - 1 + 4, 6, 0)


def test_an_extra_turn_a_cheaper_conversion_and_another_rate_are_refused_with_their_codes() -> None:
    """core §8: the turn structure and the conversion rate are the core's (SG-C050, SG-C020)."""
    for spell, phase, code in (
        ("Sun Stop", Phase.MAIN1, "SG-C050"),
        ("Cheap Alchemy", Phase.MAIN2, "SG-C020"),
        ("Fair Trade", Phase.MAIN2, "SG-C020"),
    ):
        state = with_cards(position("Ke1 ke8", sp=10, phase=phase), white=(spell,))
        v = rejected(state, Play(spell), "SG-R123")
        assert code in v.diagnostic.message


def test_double_damage_adds_the_hit_so_far_and_the_cap_bounds_it() -> None:
    """R20, R23: doubling a hit of 1 + 1 adds 2 more, and the bonus is capped at +2 per hit."""
    spec = "Ke1 Ra3 Rb3 ke8 ra5 rb5"
    state = with_cards(position(spec, sp=(20, 20), phase=Phase.BATTLE), white=("Giant's Wrath", "Arcane Surge"))
    alone = ok(ok(state, Play("Giant's Wrath")).state, Attack(sq("a3"), sq("a5"), (0, 1)))
    assert alone.effects.damage == 2  # 1 doubled
    both = ok(ok(state, Play("Arcane Surge")).state, Play("Giant's Wrath")).state
    hit = ok(both, Attack(sq("a3"), sq("a5"), (0, 1)))
    assert hit.effects.damage == 3  # (1 + 1) × 2 = 4, capped at 1 + 2
    assert hit.effects.cards is not None and hit.effects.cards.capped
    assert "Giant's Wrath doubling +2" in hit.effects.cards.damage_text()


def test_halve_damage_rounds_in_the_defenders_favour_after_the_bonuses() -> None:
    """R23: a halving is a reduction applied after the bonuses; damage never goes below 0."""
    spec = "Ke1 Ra3 ke8 ra5"
    state = with_cards(position(spec, sp=(20, 20), phase=Phase.MAIN1, to_move=B), black=("Stone Skin",))
    state = ok(ok(state, Play("Stone Skin")).state, EndTurn()).state
    state = ok(state, EnterPhase(Phase.BATTLE)).state
    hit = ok(state, Attack(sq("a3"), sq("a5"), (0, 1)))
    assert hit.effects.damage == 0  # 1 − (1 − 1 // 2)


def test_halving_and_doubling_costs_act_on_the_cost_after_the_other_modifiers() -> None:
    """R23: ``halve cost move`` rounds up (never free); ``opponent double cost move`` doubles theirs."""
    state = with_cards(position("Ke1 Ra1 ke8 ra8", sp=(40, 40)), white=("Thrift", "Red Tape"))
    state = ok(ok(state, Play("Thrift")).state, Play("Red Tape")).state
    own = ok(state, Move(sq("a1"), sq("a3")))
    assert own.effects.cost == 4 and "Thrift halving -3" in own.effects.cost_detail  # 7 → 4
    black = ok(ok(own.state, EndTurn()).state, EnterPhase(Phase.MAIN1)).state
    theirs = ok(black, Move(sq("a8"), sq("a6")))
    assert theirs.effects.cost == 14 and "Red Tape doubling +7" in theirs.effects.cost_detail
