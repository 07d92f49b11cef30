"""Cards in play: hands, playing, using, effects acting, caps and triggers (R17, R19, R20, R22, R23)."""

from __future__ import annotations

from sgcheck.core.actions import Activate, Attack, EndTurn, EnterPhase, Move, Play, Repair
from sgcheck.core.cards.table import CardsState, new_cards
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.setup import check_pack_draft
from sgcheck.core.state import GameState, Payment
from sgcheck.diagnostics import NameIndex
from tests.core.helpers import MISS, cards_by_name, end_turn, enter, ok, position, rejected, sq

W, B = Color.WHITE, Color.BLACK

CARDS = """
spell "Soul Drain" {
    cost 3 SP
    phase main1
    effect steal 5 SP
}
spell "Arcane Surge" {
    cost 5 SP
    phase battle
    effect damage +1 this attack
}
spell "Eagle Eye" {
    cost 2 SP
    phase battle
    effect to_hit +20 this turn
}
relic "Knight's Banner" passive {
    cost 6 SP
    phase main
    effect to_hit +10
}
relic "Soul Ward" passive {
    cost 6 SP
    phase main
    effect reduce damage by 2 on own Rook
}
spell "Temporal Rift" {
    cost 4 SP
    phase main1
    effect extra phase movement after main1
}
spell "Bolt" {
    cost 2 SP
    phase main1
    effect deal 1 damage to enemy Rook
}
relic "Blood Altar" activated {
    cost 2 SP
    phase main
    effect gain 3 SP limit once per turn
}
relic "Quartermaster" passive {
    cost 1 SP
    phase main
    effect on capture: gain 1 SP
}
relic "Swift Boots" passive {
    cost 1 SP
    phase main
    effect cost move -1
}
relic "Iron Law" passive {
    cost 1 SP
    phase main
    effect deny repair
}
relic "Toll" passive {
    cost 1 SP
    phase main
    effect on move pay 3 LP: gain 2 SP
}
relic "Vesper" passive {
    cost 1 SP
    phase main
    effect at end: gain 1 LP
}
relic "Riposte" passive {
    cost 1 SP
    phase main
    effect on attacked: reroll on enemy attacks this attack
}
spell "Second Chance" {
    cost 1 SP
    phase battle
    effect reroll accuracy this attack
}
"""


BY_NAME = cards_by_name(CARDS, "cards.sgcard")


def with_cards(state: GameState, white: tuple[str, ...] = (), black: tuple[str, ...] = ()) -> GameState:
    return state.replace(cards=new_cards(BY_NAME, white, black))


def cards_of(state: GameState) -> CardsState:
    assert state.cards is not None
    return state.cards


def test_a_spell_is_cast_from_hand_then_discarded_and_its_steal_takes_what_there_is() -> None:
    """R22: one activation and one action, printed cost paid; R23: a steal takes what there is."""
    state = with_cards(position("Ke1 ke8", sp=(10, 4)), white=("Soul Drain",))
    applied = ok(state, Play("Soul Drain"))
    after = applied.state
    assert (after.players[W].sp, after.players[B].sp) == (10 - 3 + 4, 0)
    assert applied.effects.cost == 3 and applied.effects.sp_gained == 4
    assert after.turn.activations == 1 and after.turn.actions == 1
    assert cards_of(after).hand(W) == () and cards_of(after).discarded[W] == ("Soul Drain",)


def test_a_card_not_in_hand_is_refused_and_says_why() -> None:
    """R19, R22: only the player who kept a card plays it, and only once from hand."""
    state = with_cards(position("Ke1 ke8", sp=10), white=("Soul Drain",), black=("Bolt",))
    v = rejected(state, Play("Bolt"), "SG-R120")
    assert "Black kept it" in v.diagnostic.message
    played = ok(state, Play("Soul Drain")).state
    again = rejected(played, Play("Soul Drain"), "SG-R120")
    assert "already played" in again.diagnostic.message


def test_a_spell_outside_its_phase_is_refused() -> None:
    """R22: a Spell is cast in the phase it names."""
    state = with_cards(position("Ke1 ke8", sp=10, phase=Phase.MAIN2), white=("Soul Drain",))
    v = rejected(state, Play("Soul Drain"), "SG-R121")
    assert "cast in Main 1, not in Main 2" in v.diagnostic.message


def test_a_third_activation_in_a_turn_is_refused() -> None:
    """R17: at most 2 activations a turn; playing a card is one (R22)."""
    state = with_cards(
        position("Ke1 ke8", sp=20, phase=Phase.BATTLE), white=("Eagle Eye", "Arcane Surge", "Second Chance")
    )
    state = ok(state, Play("Eagle Eye")).state
    state = ok(state, Play("Arcane Surge")).state
    rejected(state, Play("Second Chance"), "SG-T105")


def test_a_forbidden_effect_is_refused_when_played_with_the_contract_code() -> None:
    """core §8, R19, R23: an extra phase never acts, whatever the pack."""
    state = with_cards(position("Ke1 ke8", sp=10), white=("Temporal Rift",))
    v = rejected(state, Play("Temporal Rift"), "SG-R123")
    assert "SG-C050" in v.diagnostic.message


def test_capped_to_hit_bonuses_show_each_share_and_the_clamp() -> None:
    """R20: to-hit bonuses summed, then capped at +25; the explanation names each card."""
    state = with_cards(position("Ke1 Ra3 ke8 pa5", sp=30, phase=Phase.MAIN1), white=("Knight's Banner", "Eagle Eye"))
    state = ok(state, Play("Knight's Banner")).state
    state = ok(state, EnterPhase(Phase.BATTLE)).state
    state = ok(state, Play("Eagle Eye")).state
    applied = ok(state, Attack(sq("a3"), sq("a5"), (9, 9)))
    effects = applied.effects
    assert effects.threshold == 85  # 20 + 10×(5 − 1) = 60, + 30 capped at +25 (R20)
    assert "Knight's Banner +10, Eagle Eye +20, capped at +25" in effects.threshold_detail
    assert effects.cards is not None and effects.cards.capped


def test_this_attack_damage_bonus_acts_once_and_reduction_applies_after() -> None:
    """R23: a Spell's ``this attack`` lasts for one attack; reduction after bonuses, never below 0."""
    spec = "Ke1 Ra3 Rb3 ke8 ra5 rb5"
    state = with_cards(position(spec, sp=(20, 20), phase=Phase.BATTLE), white=("Arcane Surge",))
    state = ok(state, Play("Arcane Surge")).state
    first = ok(state, Attack(sq("a3"), sq("a5"), (0, 1)))
    assert first.effects.damage == 2
    second = ok(first.state, Attack(sq("b3"), sq("b5"), (0, 1)))
    assert second.effects.damage == 1
    warded = with_cards(position(spec, sp=(20, 20), phase=Phase.MAIN1, to_move=B), black=("Soul Ward",))
    warded = ok(warded, Play("Soul Ward")).state
    warded = ok(warded, EndTurn()).state  # White's turn
    warded = ok(warded, EnterPhase(Phase.BATTLE)).state
    hit = ok(warded, Attack(sq("a3"), sq("a5"), (0, 1)))
    assert hit.effects.damage == 0


def test_direct_damage_needs_a_target_of_the_right_kind() -> None:
    """R22, R23: a card acting on a piece names it with ``on``; never a King (R19)."""
    state = with_cards(position("Ke1 Ra1 ke8 ra8 pb7", sp=10), white=("Bolt",))
    rejected(state, Play("Bolt"), "SG-R124")
    rejected(state, Play("Bolt", target=sq("b7")), "SG-R124")
    applied = ok(state, Play("Bolt", target=sq("a8"), target_kind=Kind.ROOK))
    assert applied.effects.damage == 1
    assert applied.state.turn.damage_on(sq("a8")) == 1


def test_an_activated_relic_is_used_by_activate_within_its_limit() -> None:
    """R17, R22: each use is one activation; ``limit once per turn`` holds."""
    state = with_cards(position("Ke1 ke8", sp=10), white=("Blood Altar",))
    rejected(state, Activate("Blood Altar"), "SG-R122")  # still in hand
    state = ok(state, Play("Blood Altar")).state
    assert state.players[W].sp == 8
    state = ok(ok(state, EndTurn()).state, EndTurn()).state  # White's next turn
    state = ok(state, EnterPhase(Phase.MAIN1)).state
    sp = state.players[W].sp
    used = ok(state, Activate("Blood Altar"))
    assert used.state.players[W].sp == sp + 3 and used.effects.sp_gained == 3
    rejected(used.state, Activate("Blood Altar"), "SG-R126")


def test_a_capture_fires_an_on_capture_trigger_after_it_resolves() -> None:
    """R23: a trigger fires after its event; capture reward 5×value then +1 SP."""
    state = with_cards(position("Ke1 Ra3 ke8 pa5", sp=10), white=("Quartermaster",))
    state = ok(state, Play("Quartermaster")).state
    state = ok(state, EnterPhase(Phase.BATTLE)).state
    sp_before = state.players[W].sp
    applied = ok(state, Attack(sq("a3"), sq("a5"), (0, 1), pay=Payment(sp=0, lp=12)))
    assert applied.effects.captured is not None
    assert applied.state.players[W].sp == sp_before + 5 + 1


def test_a_cost_modifier_changes_the_cost_and_says_which_card() -> None:
    """R23: card modifiers on a cost, each named; never below 0."""
    state = with_cards(position("Ke1 Ra1 ke8", sp=10), white=("Swift Boots",))
    state = ok(state, Play("Swift Boots")).state
    applied = ok(state, Move(sq("a1"), sq("a3")))
    assert applied.effects.cost == 6  # Rook 5 + distance 2 − 1
    assert "Swift Boots -1" in applied.effects.cost_detail


def test_repair_is_denied_while_the_opponents_card_says_so() -> None:
    """core §6, R23: deny repair."""
    state = with_cards(position("Ke1 ke8", sp=20, to_move=B), black=("Iron Law",))
    state = ok(state, Play("Iron Law")).state
    state = ok(state, EndTurn()).state
    state = state.replace(players=(state.players[W].replace(gem_broken=True), state.players[B]))
    rejected(state, Repair((6, 6, 6)), "SG-R127")


def test_a_reroll_needs_a_source_and_the_second_roll_counts() -> None:
    """R20, R23: a reroll or advantage needs a card granting it."""
    state = with_cards(position("Ke1 Ra3 ke8 pa5", sp=10, phase=Phase.BATTLE), white=("Second Chance",))
    rejected(state, Attack(sq("a3"), sq("a5"), (9, 9), second=(0, 1)), "SG-R125")
    state = ok(state, Play("Second Chance")).state
    applied = ok(state, Attack(sq("a3"), sq("a5"), (9, 9), second=(0, 1)))
    assert applied.effects.d100 == 1 and applied.effects.hit


def test_a_triggered_this_attack_effect_acts_on_one_attack_then_ends_r20() -> None:
    """core §4.5, R20, R23: what an ``on attacked:`` trigger starts ``this attack`` acts on the
    enemy's next attack and ends with it, so attack after attack there is one reroll source."""
    state = with_cards(
        position("Ke1 Ra3 Rb3 Nc3 ke8 ra5 rb5 nd5", sp=20, phase=Phase.MAIN1, to_move=B),
        black=("Riposte",),
    )
    state = ok(state, Play("Riposte")).state
    state = ok(ok(state, EndTurn()).state, EnterPhase(Phase.BATTLE)).state  # White's turn
    first = ok(state, Attack(sq("a3"), sq("a5"), (9, 9)))
    assert first.effects.cards is None or first.effects.cards.rerolls == ()
    state = first.state
    for frm, to in (("b3", "b5"), ("c3", "d5")):
        applied = ok(state, Attack(sq(frm), sq(to), (9, 9)))
        assert applied.effects.cards is not None
        assert [card for card, _ in applied.effects.cards.rerolls] == ["Riposte"]
        state = applied.state
    state = ok(state, EndTurn()).state  # what the last attack started ends with the turn
    assert not any(item.attack_only for item in cards_of(state).lasting)


def test_a_game_without_cards_refuses_a_second_roll() -> None:
    """R20: no card, no reroll."""
    rejected(
        position("Ke1 Ra3 ke8 pa5", phase=Phase.BATTLE), Attack(sq("a3"), sq("a5"), (9, 9), second=(0, 1)), "SG-R125"
    )


def test_a_spells_modifier_ends_with_the_turn() -> None:
    """R23: a Spell's effect lasts for its duration (this turn by default)."""
    state = with_cards(position("Ke1 ke8", sp=10, phase=Phase.BATTLE), white=("Eagle Eye",))
    state = ok(state, Play("Eagle Eye")).state
    assert len(cards_of(state).lasting) == 1
    state = ok(state, EndTurn()).state
    assert cards_of(state).lasting == ()


def test_advantage_needs_a_card_granting_advantage_not_a_reroll() -> None:
    """R20: the second roll is the kind the card grants."""
    state = with_cards(position("Ke1 Ra3 ke8 pa5", sp=10, phase=Phase.BATTLE), white=("Second Chance",))
    state = ok(state, Play("Second Chance")).state
    rejected(state, Attack(sq("a3"), sq("a5"), (2, 3), second=(9, 9), advantage=True), "SG-R125")


def test_a_trigger_fires_only_when_its_price_is_paid_in_full() -> None:
    """R23: an LP price is paid in LP; with too little LP the trigger does not fire."""
    state = with_cards(position("Ke1 ke8", lp=(1, 20), sp=(8, 0)), white=("Toll",))
    state = ok(state, Play("Toll")).state
    after = ok(state, Move(sq("e1"), sq("e2"), pay=Payment(sp=0, lp=1))).state
    assert (after.players[W].lp, after.players[W].sp) == (0, 7)
    rich = with_cards(position("Ke1 ke8", lp=(10, 20), sp=(8, 0)), white=("Toll",))
    rich = ok(rich, Play("Toll")).state
    paid = ok(rich, Move(sq("e1"), sq("e2"), pay=Payment(sp=1, lp=0))).state
    assert (paid.players[W].lp, paid.players[W].sp) == (10 - 3, 7 - 1 + 2)


def test_a_phase_trigger_fires_for_a_phase_the_log_skips() -> None:
    """R23: ``at end:`` fires at the End phase, written or not."""
    state = with_cards(position("Ke1 ke8", sp=10), white=("Vesper",))
    state = ok(state, Play("Vesper")).state
    lp = state.players[W].lp
    state = ok(state, EndTurn()).state
    assert state.players[W].lp == lp + 1


def test_a_draft_is_checked_against_the_pack() -> None:
    """R19: drafted cards are the pack's, each kept once, no more than its keep and hand limit."""
    known = NameIndex({"Soul Drain", "Soul Ward", "Arcane Surge"})
    found = list(
        check_pack_draft(
            W, ("Soul Drian", "Soul Ward", "Soul Ward", "Arcane Surge"), known, "p", draw=5, keep=3, hand_limit=3
        )
    )
    assert [(i, v.diagnostic.code) for i, v in found] == [(0, "SG-S106"), (2, "SG-S107"), (None, "SG-S107")]
    assert (found[0][1].diagnostic.hint or "").startswith("did you mean 'Soul Drain'")
    assert "the pack's draft keeps 3 of 5" in found[2][1].diagnostic.message
    assert list(check_pack_draft(W, ("Soul Drain",), known, "p", draw=5, keep=3, hand_limit=3)) == []


def test_a_relics_trigger_with_a_duration_fires_every_turn_r23() -> None:
    """R22, R23: a passive Relic's trigger waits while the Relic is in play; the duration is that of
    what each firing starts (a surcharge renewed at every End denies repair on consecutive turns)."""
    by_name = cards_by_name(
        'relic "Nightly Toll" passive { cost 1 SP effect at end: opponent cost repair +50 for 1 turn }'
    )
    state = position("Ke1 ke8", lp=(40, 20), sp=(40, 20), gem_broken=(False, True))
    state = state.replace(cards=new_cards(by_name, ("Nightly Toll",), ()))
    state = ok(state, Play("Nightly Toll")).state
    for _ in range(3):  # White's End, Black's turn, White's turn: each White End starts a surcharge again
        state = ok(state, EndTurn()).state
    assert state.to_move is Color.BLACK
    waiting = [item for item in state.cards.lasting if item.effect.trigger is not None]
    assert [item.until for item in waiting] == [None]
    rejected(state, Repair((6, 6, 6)), "SG-R106")


# --- a one-off's condition, a denial's condition, an effect's target (docs/cards.md, In play) ---------------------

ONE_OFFS = cards_by_name(
    """
spell "Last Stand" { cost free phase main1 effect gain 40 SP when enemy LP < 20 }
spell "Gemfall" { cost free phase main1 effect gain 40 SP when enemy gem is broken }
spell "Greed" { cost free phase main1 effect gain 10 SP effect gain 5 LP when own SP >= 10 }
spell "Rook Bane" { cost free phase main1 effect deal 5 damage to enemy Rook when target not in enemy camp }
relic "Tap" activated { cost free phase main effect gain 3 SP when own LP <= 5 }
relic "Wrong Bolt" passive { cost free phase main effect on attacked: deal 1 damage to enemy Pawn }
relic "Spite" passive { cost free phase main effect on move: capture enemy Queen }
relic "Iron Whim" passive { cost free phase main effect deny repair when own SP >= 10 }
""",
    "one-offs.sgcard",
)


def _holding(state: GameState, white: tuple[str, ...] = (), black: tuple[str, ...] = ()) -> GameState:
    return state.replace(cards=new_cards(ONE_OFFS, white, black))


def test_r23_a_one_off_acts_only_when_its_condition_holds() -> None:
    """The issue's hole: ``gain 40 SP when enemy LP < 20`` gained 40 against exactly 20 LP, and
    ``when enemy gem is broken`` gained with the Gem intact (docs/cards.md, Conditions)."""
    for enemy_lp, gained in ((20, 0), (19, 40)):
        state = _holding(position("Ke1 ke8", sp=(0, 0), lp=(20, enemy_lp), phase=Phase.MAIN1), white=("Last Stand",))
        assert ok(state, Play("Last Stand")).state.players[W].sp == gained, enemy_lp
    intact = _holding(position("Ke1 ke8", sp=(0, 0), phase=Phase.MAIN1), white=("Gemfall",))
    assert ok(intact, Play("Gemfall")).state.players[W].sp == 0
    broken = intact.with_player(B, intact.players[B].replace(gem_broken=True))
    played = ok(broken, Play("Gemfall"))
    assert played.state.players[W].sp == 40 and played.effects.sp_gained == 40


def test_r23_a_one_offs_condition_is_read_as_it_acts_after_the_cards_earlier_effects() -> None:
    """``gain 10 SP`` then ``gain 5 LP when own SP >= 10``: the second sees the first's 10 SP."""
    state = _holding(position("Ke1 ke8", sp=(0, 0), lp=(20, 20), phase=Phase.MAIN1), white=("Greed",))
    after = ok(state, Play("Greed")).state.players[W]
    assert (after.sp, after.lp) == (10, 25)


def test_r22_a_direct_effects_condition_reads_the_piece_named_with_on() -> None:
    """``when target not in enemy camp``: the piece named with ``on`` is the target (docs/cards.md)."""
    state = _holding(position("Ke1 ke8 ra8 rh4", phase=Phase.MAIN1), white=("Rook Bane",))
    at_home = ok(state, Play("Rook Bane", target=sq("a8"))).state
    assert at_home.board[sq("a8")] is not None and at_home.turn.damage_on(sq("a8")) == 0
    out = ok(state, Play("Rook Bane", target=sq("h4"))).state
    assert out.board[sq("h4")] is None and out.players[W].sp == 25


def test_r22_a_use_of_an_activated_relic_honours_its_condition() -> None:
    state = _holding(position("Ke1 ke8", sp=(0, 0), lp=(20, 20), phase=Phase.MAIN1), white=("Tap",))
    state = ok(state, Play("Tap")).state
    assert ok(state, Activate("Tap")).state.players[W].sp == 0
    low = state.with_player(W, state.players[W].with_funds(5, 0))
    assert ok(low, Activate("Tap")).state.players[W].sp == 3


def test_r23_an_effect_on_a_piece_fired_by_a_trigger_hits_only_a_piece_it_names() -> None:
    """``on move: capture enemy Queen`` took the holder's own Queen that had just moved, and
    ``on attacked: deal 1 damage to enemy Pawn`` the holder's attacked piece: an effect acts on
    the pieces its target names, never on the holder's own (docs/cards.md, Targets)."""
    state = _holding(position("Ke1 Qd1 ke8 qd8", sp=(10, 10), phase=Phase.MAIN1), white=("Spite",))
    state = ok(state, Play("Spite")).state
    moved = ok(state, Move(sq("d1"), sq("d3"))).state
    assert moved.board[sq("d3")] is not None and moved.board[sq("d3")].color is W  # type: ignore[union-attr]
    black = _holding(position("Ke1 Ra3 ke8 pa5", sp=(10, 10), to_move=B), black=("Wrong Bolt",))
    black = end_turn(ok(black, Play("Wrong Bolt")).state)
    hit = ok(enter(black, Phase.BATTLE), Attack(sq("a3"), sq("a5"), MISS)).state
    assert hit.turn.damage_on(sq("a5")) == 0 and hit.board[sq("a5")] is not None


def test_core_s6_a_denial_refuses_repair_only_while_its_condition_holds() -> None:
    """``deny repair when own SP >= 10``: the holder's SP is read as the Repair is attempted."""
    state = _holding(position("Ke1 ke8", sp=(30, 0), phase=Phase.MAIN1), white=("Iron Whim",))
    state = ok(state, Play("Iron Whim")).state
    state = ok(state, EndTurn()).state
    state = state.with_player(B, state.players[B].replace(gem_broken=True))
    state = state.with_player(B, state.players[B].with_funds(20, 20))
    rejected(state, Repair((6, 6, 6)), "SG-R127")
    poor = state.with_player(W, state.players[W].with_funds(20, 9))
    assert ok(poor, Repair((6, 6, 6))).state.players[B].gem_broken is False
