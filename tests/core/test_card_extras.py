"""Cards in play, the run-time meanings of R23: extra actions, gain and lose triggers, limits on modifiers."""

from __future__ import annotations

from sgcheck.core.actions import Attack, Break, Move, Play, Summon, Teleport
from sgcheck.core.cards.model import ExtraKind
from sgcheck.core.cards.table import new_cards
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.play.cards import extra_allowed
from sgcheck.core.state import GameState, Payment
from tests.core.helpers import (
    MISS,
    ROLL_3,
    ROLL_18,
    cards_by_name,
    end_turn,
    enter,
    funds,
    ok,
    play,
    position,
    rejected,
    sq,
)
from tests.core.test_cards_in_play import cards_of

W, B = Color.WHITE, Color.BLACK

CARDS = """
spell "Twin Call" {
    cost 1 SP
    phase upkeep
    effect extra summon in upkeep
}
relic "Siege Engine" passive {
    cost 1 SP
    phase main
    effect extra break
}
relic "Ferry" passive {
    cost 1 SP
    phase main
    effect extra 2 teleports in end
}
relic "Tithe" passive {
    cost 1 SP
    phase main
    effect on gain SP: gain 1 LP
}
relic "Sorrow" passive {
    cost 1 SP
    phase main
    effect on lose SP: gain 3 LP
}
relic "Scar" passive {
    cost 1 SP
    phase main
    effect on lose LP: gain 2 SP
}
relic "Toll" passive {
    cost 1 SP
    phase main
    effect on move pay 3 LP: gain 2 SP
}
relic "Vigil" passive {
    cost 1 SP
    phase main
    effect on gain LP: gain 1 SP
}
relic "Echo" passive {
    cost 1 SP
    phase main
    effect on gain SP: gain 1 SP
}
spell "Hex" {
    cost 1 SP
    phase main1
    effect opponent loses 3 LP
}
spell "Windfall" {
    cost 1 SP
    phase main1
    effect gain 2 SP
}
relic "Lancer's Pennant" passive {
    cost 1 SP
    phase main
    effect to_hit +10 when attacker is Knight limit once per turn
}
relic "Light Step" passive {
    cost 1 SP
    phase main
    effect cost move -2 limit once per turn
}
"""


BY_NAME = cards_by_name(CARDS, "extras.sgcard")


def dealt(state: GameState, white: tuple[str, ...] = (), black: tuple[str, ...] = ()) -> GameState:
    """``state`` with the cards of this file's pack dealt: each side's hand is what it kept."""
    return state.replace(cards=new_cards(BY_NAME, white, black))


def in_play(state: GameState, *names: str) -> GameState:
    """White plays the Relics ``names`` (two a turn, R17), then the turns go round to White's next Main 1."""
    for i, name in enumerate(names):
        if i and i % 2 == 0:
            state = enter(end_turn(end_turn(state)), Phase.MAIN1)
        state = ok(state, Play(name)).state
    return state


# --- extra actions ---------------------------------------------------------------------------------------


def test_an_extra_summon_allows_a_second_summon_and_is_then_used_up() -> None:
    """R23, core §5: ``extra summon in upkeep`` allows one more Summon this Upkeep; the third is refused."""
    start = dealt(position("Ke1 ke8", sp=40, phase=Phase.UPKEEP), white=("Twin Call",))
    state = ok(start, Summon(Kind.PAWN, sq("a2"))).state
    plain = rejected(state, Summon(Kind.PAWN, sq("b2")), "SG-T104")
    assert plain.diagnostic.message == "only one Summon is allowed per Upkeep"  # the card is still in hand
    state = ok(state, Play("Twin Call")).state
    second = ok(state, Summon(Kind.PAWN, sq("b2")))
    assert second.effects.cost == 6  # Pawn 1 + 5, as any Summon (R12)
    state = second.state
    assert state.board[sq("b2")] is not None and state.players[W].gem != start.players[W].gem
    used_up = rejected(state, Summon(Kind.PAWN, sq("c2")), "SG-T104", "'Twin Call'", "used up")
    assert used_up.diagnostic.message == (
        "only one Summon is allowed per Upkeep, and the extra Summon granted by 'Twin Call' is used up"
    )
    # R15 stays: Break and Repair come before the Upkeep's Summon, extra Summon or not
    rejected(state, Break(ROLL_18), "SG-T104", "before the Upkeep's Summon")


def test_without_cards_the_second_summon_keeps_the_core_message() -> None:
    """core §5, R12: a game without a pack keeps the one Summon per Upkeep, word for word."""
    state = ok(position("Ke1 ke8", sp=40, phase=Phase.UPKEEP), Summon(Kind.PAWN, sq("a2"))).state
    v = rejected(state, Summon(Kind.PAWN, sq("b2")), "SG-T104")
    assert v.diagnostic.message == "only one Summon is allowed per Upkeep"
    assert not extra_allowed(state, ExtraKind.SUMMON)


def test_extra_allowed_says_whether_a_card_grants_one_more_now() -> None:
    """R23: the mover's lasting extra action, in its phase, with a use left this turn."""
    state = dealt(position("Ke1 ke8", sp=40, phase=Phase.UPKEEP), white=("Twin Call",), black=("Siege Engine",))
    assert not extra_allowed(state, ExtraKind.SUMMON)  # in hand, not in play
    state = ok(state, Play("Twin Call")).state
    assert extra_allowed(state, ExtraKind.SUMMON)
    assert not extra_allowed(state, ExtraKind.BREAK)  # another kind
    state = ok(ok(state, Summon(Kind.PAWN, sq("a2"))).state, Summon(Kind.PAWN, sq("b2"))).state
    assert not extra_allowed(state, ExtraKind.SUMMON)  # consumed
    fresh = ok(dealt(position("Ke1 ke8", sp=40, phase=Phase.UPKEEP), white=("Twin Call",)), Play("Twin Call")).state
    assert not extra_allowed(enter(fresh, Phase.MAIN1), ExtraKind.SUMMON)  # out of its phase
    later = end_turn(end_turn(enter(fresh, Phase.MAIN1)))
    assert later.to_move is W and later.turn.phase is Phase.UPKEEP
    assert not extra_allowed(later, ExtraKind.SUMMON)  # a Spell's effect lasts this turn only


def test_an_extra_break_allows_a_second_attempt_every_upkeep() -> None:
    """R23, core §6, R15: ``extra break`` allows one more Break attempt per Upkeep, each paid in full."""
    state = dealt(position("Ke1 ke8", sp=100), white=("Siege Engine",))
    state = end_turn(end_turn(in_play(state, "Siege Engine")))  # Black passes: White's next Upkeep
    assert state.to_move is W and state.turn.phase is Phase.UPKEEP
    sp = state.players[W].sp
    state = ok(state, Break(ROLL_3)).state  # fails
    second = ok(state, Break(ROLL_18))
    assert second.effects.success and second.state.players[B].gem_broken
    assert second.state.players[W].sp == sp - 2 * 20
    rejected(second.state, Break(ROLL_18), "SG-T104", "extra Break granted by 'Siege Engine' is used up")
    # a passive Relic's extra is there again next Upkeep
    nxt = end_turn(end_turn(second.state))
    assert nxt.to_move is W and extra_allowed(nxt, ExtraKind.BREAK)


def test_an_extra_teleport_card_allows_two_more_teleports_in_end() -> None:
    """R23, core §5, R13: ``extra 2 teleports in end`` allows three Teleports in that End."""
    state = dealt(position("Ke1 Pa2 Pb2 Pc2 Pd2 ke8", sp=100), white=("Ferry",))
    state = enter(in_play(state, "Ferry"), Phase.END)
    state = play(state, *(Teleport(sq(f"{f}2"), sq(f"{f}3")) for f in "abc"))
    assert all(state.board[sq(f"{f}3")] is not None for f in "abc")
    rejected(state, Teleport(sq("d2"), sq("d3")), "SG-T104", "per End phase", "'Ferry' is used up")


# --- gain and lose triggers ----------------------------------------------------------------------------------


def test_a_gain_sp_trigger_fires_on_upkeep_income() -> None:
    """R23, R14: income is a gain of SP: ``on gain SP: gain 1 LP`` fires after it."""
    state = dealt(position("Ke1 ke8", sp=10, captured={W: {Kind.PAWN: 2}}), white=("Tithe",))
    state = in_play(state, "Tithe")
    lp, sp = funds(state, W)
    state = end_turn(end_turn(state))  # Black passes; White's Upkeep: income 2×2 = 4 SP
    assert state.to_move is W and state.turn.income == 4
    assert funds(state, W) == (lp + 1, sp + 4)


def test_a_capture_reward_is_a_gain_and_the_cost_paid_is_not_a_loss() -> None:
    """R23, R11, R05: a capture gains 5×value SP and fires ``on gain SP:``, though the attack's
    cost paid in SP was more; paying a cost is not losing, so ``on lose SP:`` does not fire."""
    state = dealt(position("Ke1 Ra3 ke8 pa5", sp=30), white=("Tithe", "Sorrow"))
    state = enter(in_play(state, "Tithe", "Sorrow"), Phase.BATTLE)
    lp, sp = funds(state, W)
    applied = ok(state, Attack(sq("a3"), sq("a5"), (0, 1), pay=Payment(sp=12, lp=0)))
    assert applied.effects.captured is not None and applied.effects.cost == 12
    assert funds(applied.state, W) == (lp + 1, sp - 12 + 5)  # Tithe +1 LP; Sorrow (+3 LP) did not fire


def test_a_lose_lp_trigger_fires_when_an_effect_takes_lp_not_when_lp_pays_a_cost() -> None:
    """R23: ``opponent loses 3 LP`` fires the opponent's ``on lose LP:``; LP paid for a move does not."""
    state = dealt(position("Ke1 ke8 ra8", lp=20, sp=(10, 10), to_move=B), white=("Hex",), black=("Scar",))
    state = enter(end_turn(ok(state, Play("Scar")).state), Phase.MAIN1)  # White's turn
    lp, sp = funds(state, B)
    state = ok(state, Play("Hex")).state
    assert funds(state, B) == (lp - 3, sp + 2)
    state = enter(end_turn(state), Phase.MAIN1)  # Black's turn
    lp, sp = funds(state, B)
    state = ok(state, Move(sq("a8"), sq("a6"), pay=Payment(sp=0, lp=7))).state  # Rook 5 + 2, all in LP
    assert funds(state, B) == (lp - 7, sp)


def test_a_triggers_price_is_not_a_loss() -> None:
    """R23: a trigger's price is paid, not taken: ``on lose LP:`` does not fire; its gain fires ``on gain SP:``."""
    state = dealt(position("Ke1 ke8", lp=20, sp=10), white=("Toll", "Scar", "Tithe"))
    state = in_play(state, "Toll", "Scar", "Tithe")
    lp, sp = funds(state, W)
    after = ok(state, Move(sq("e1"), sq("e2"), pay=Payment(sp=1, lp=0))).state  # King step: 1 (R09)
    # Toll: −3 LP, +2 SP; Tithe on that gain: +1 LP; Scar (+2 SP on lose LP) does not fire
    assert funds(after, W) == (lp - 3 + 1, sp - 1 + 2)


def test_the_pass_bonus_is_a_gain_of_lp_in_the_passing_turn() -> None:
    """R23, R04: a Pass gains 6 LP; ``on gain LP: gain 1 SP`` fires for the player who passed."""
    state = dealt(position("Ke1 ke8", sp=10, to_move=B), black=("Vigil",))
    state = end_turn(ok(state, Play("Vigil")).state)
    lp, sp = funds(state, B)
    state = end_turn(end_turn(state))  # White passes, then Black passes
    assert funds(state, B) == (lp + 6, sp + 1)


def test_gain_triggers_that_feed_each_other_fire_once_each_and_the_chain_ends() -> None:
    """R23: within one event each card's trigger fires at most once, so a chain of triggers ends."""
    state = dealt(position("Ke1 ke8", sp=10), white=("Tithe", "Vigil", "Echo", "Windfall"))
    state = in_play(state, "Tithe", "Vigil", "Echo")
    lp, sp = funds(state, W)
    after = ok(state, Play("Windfall")).state
    # Windfall +2 SP → Tithe +1 LP, Echo +1 SP → Vigil (gain LP) +1 SP → nothing more
    assert funds(after, W) == (lp + 1, sp - 1 + 2 + 1 + 1)
    fired = {e.card: e.fired_game for e in cards_of(after).lasting}
    assert fired == {"Tithe": 1, "Vigil": 1, "Echo": 1}


# --- limits on modifiers ---------------------------------------------------------------------------------------


def test_a_limited_to_hit_modifier_acts_on_the_first_attack_it_applies_to_each_turn() -> None:
    """R23, R10, core §4.2: ``to_hit +10 when attacker is Knight limit once per turn`` acts once a turn."""
    state = dealt(position("Ke1 Ra2 Nb1 Ng1 ke8 pa4 pc3 pf3", sp=60), white=("Lancer's Pennant",))
    state = enter(in_play(state, "Lancer's Pennant"), Phase.BATTLE)
    rook = ok(state, Attack(sq("a2"), sq("a4"), MISS))
    assert rook.effects.threshold == 60  # not a Knight: the card does not act and is not used up
    first = ok(rook.state, Attack(sq("b1"), sq("c3"), MISS))
    assert first.effects.threshold == 50  # 20 + 10×(3 − 1) + 10
    assert "Lancer's Pennant +10" in first.effects.threshold_detail
    second = ok(first.state, Attack(sq("g1"), sq("f3"), MISS))
    assert second.effects.threshold == 40
    assert "Lancer's Pennant" not in second.effects.threshold_detail
    nxt = enter(end_turn(end_turn(second.state)), Phase.BATTLE)
    assert ok(nxt, Attack(sq("g1"), sq("f3"), MISS)).effects.threshold == 50


def test_a_limited_cost_modifier_changes_one_cost_per_turn() -> None:
    """R23, R06: ``cost move -2 limit once per turn`` lowers the first move's cost of each turn."""
    state = dealt(position("Ke1 Ra1 Rh1 ke8", sp=60), white=("Light Step",))
    state = in_play(state, "Light Step")
    first = ok(state, Move(sq("a1"), sq("a3")))
    assert first.effects.cost == 5 and "Light Step -2" in first.effects.cost_detail  # Rook 5 + 2 − 2
    second = ok(first.state, Move(sq("h1"), sq("h3")))
    assert second.effects.cost == 7 and "Light Step" not in second.effects.cost_detail
    nxt = enter(end_turn(end_turn(second.state)), Phase.MAIN1)
    assert ok(nxt, Move(sq("a3"), sq("a5"))).effects.cost == 5
