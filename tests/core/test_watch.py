"""The contract watched action by action (core §8; :mod:`sgcheck.core.watch`).

Each invariant has a test that breaks it and, next to it, the plays a careless watch would
flag and :func:`~sgcheck.core.watch.observe` must not: the core's own conversion, income,
capture reward and Pass bonus, prices paid, LP turned into SP, a single reroll source, a paid
second attempt. Positions come from ``tests/core/helpers.py``; the cards are put into play by
the engine itself, so the watch sees exactly what replay hands it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

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
)
from sgcheck.core.cards.model import Card
from sgcheck.core.cards.table import new_cards
from sgcheck.core.formulas import below_zero_alone
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.state import GameState, Payment
from sgcheck.core.watch import KINDS, START, Breach, Side, Watch, needs_watch, observe
from tests.core.helpers import MISS, ROLL_3, ROLL_18, cards_by_name, end_turn, enter, ok, position, sq

W, B = Color.WHITE, Color.BLACK
ROOT = Path(__file__).resolve().parents[2]

CARDS = """
spell "Alchemy" {
    cost 1 LP
    phase main2
    effect lose 2 SP
    effect gain 2 LP
}
spell "Fair Trade" {
    cost free
    phase main2
    effect lose 4 SP
    effect gain 2 LP
}
spell "Spirit Exchange" {
    cost 2 LP
    phase main2
    effect lose 4 LP
    effect gain 4 SP
}
spell "Blood Price" {
    cost 1 SP
    phase main2
    effect convert 4 LP to 4 SP
}
spell "Focus" {
    cost 3 SP
    phase main
    effect to_hit +10 this turn
}
relic "Mender" passive {
    cost 1 SP
    phase main
    effect on move: gain 1 LP
}
relic "Stride" passive {
    cost 1 SP
    phase main
    effect on move: gain 2 SP
}
relic "Step" passive {
    cost 1 SP
    phase main
    effect on move: gain 1 SP
}
relic "Measured Stride" passive {
    cost 1 SP
    phase main
    effect on move: gain 2 SP limit once per turn
}
relic "Alms" passive {
    cost 1 SP
    phase main
    effect at upkeep: gain 1 LP
}
relic "Almsgiver" passive {
    cost 1 SP
    phase main
    effect at upkeep: gain 3 LP
}
relic "Noon" passive {
    cost 1 SP
    phase main
    effect at main1: gain 3 LP
}
spell "Offering" {
    cost free
    phase main
    effect lose 4 SP
}
spell "Windfall" {
    cost free
    phase main
    effect gain 3 LP
}
relic "Levy" passive {
    cost 1 SP
    phase main
    effect at main1: lose 4 SP
    effect at main1: to_hit +10 this turn
}
relic "Alms2" passive {
    cost 1 SP
    phase main
    effect at upkeep: gain 2 LP
}
relic "Dawn" passive {
    cost 1 SP
    phase main
    effect at upkeep: gain 10 LP
}
relic "Dusk Thief" passive {
    cost 1 SP
    phase main
    effect at end: opponent loses 6 SP
}
relic "Iron Crown" passive {
    cost 1 SP
    phase main
    effect reduce damage by 3 on own King
}
relic "Half Crown" passive {
    cost 1 SP
    phase main
    effect reduce damage by 2 on own King
}
relic "Thin Crown" passive {
    cost 1 SP
    phase main
    effect reduce damage by 1 on own King
}
relic "Gates Shut" passive {
    cost 1 SP
    phase main
    effect opponent cost move +999999
}
relic "Steep Gate" passive {
    cost 1 SP
    phase main
    effect opponent cost move +999
}
relic "Queens Toll" passive {
    cost 1 SP
    phase main
    effect opponent cost attack +999999 when attacker is Queen
}
relic "Battle Toll" passive {
    cost 1 SP
    phase main
    effect opponent cost attack +999999
}
relic "Mortar" passive {
    cost 1 SP
    phase main
    effect opponent cost repair +99999
}
relic "Martyrs Ledger" passive {
    cost 1 SP
    phase main
    effect on attacked: lose 4 SP
    effect on captured: gain 4 LP
}
relic "Spiteful Stride" passive {
    cost 1 SP
    phase main
    effect on attacked: cost move -1 permanently
}
relic "Vast Gate" passive {
    cost 1 SP
    phase main
    effect opponent cost move +999999999
}
relic "Tithe" passive {
    cost 1 SP
    phase main
    effect at end: lose 4 SP
}
relic "Boots" passive {
    cost 1 SP
    phase main
    effect cost move -1
}
relic "Wings" passive {
    cost 1 SP
    phase main
    effect cost move -1
}
spell "Lucky" {
    cost 1 SP
    phase battle
    effect reroll accuracy this attack
}
spell "Charm" {
    cost 1 SP
    phase battle
    effect reroll accuracy this attack
}
relic "Toll" passive {
    cost 1 SP
    phase main
    effect opponent cost repair +20
}
relic "Mending Rite" passive {
    cost 1 SP
    phase main
    effect cost repair -10
}
relic "Siege Rite" passive {
    cost 1 SP
    phase main
    effect cost break -20
}
relic "Second Try" passive {
    cost 1 SP
    phase main
    effect extra repair in upkeep
}
"""

BY_NAME = cards_by_name(CARDS, "watch.sgcard")


def dealt(state: GameState, white: Sequence[str] = (), black: Sequence[str] = ()) -> GameState:
    """``state`` in a game with cards: each side holds the cards named."""
    return state.replace(cards=new_cards(BY_NAME, white, black))


def in_play(state: GameState, *names: str) -> GameState:
    """The mover puts the Relics ``names`` into play in Main 1 (two a turn, R17); the turns go
    round to the mover's next Main 1 when more are left."""
    state = enter(state, Phase.MAIN1) if state.turn.phase < Phase.MAIN1 else state
    for i, name in enumerate(names):
        if i and i % 2 == 0:
            state = enter(end_turn(end_turn(state)), Phase.MAIN1)
        state = ok(state, Play(name)).state
    return state


class Watched:
    """Actions applied by the engine and observed by the watch, in order: what each broke."""

    def __init__(self, state: GameState, watch: Watch = START) -> None:
        self.state = state
        self.watch = watch
        self.found: list[tuple[int, Breach]] = []
        self.steps = 0

    def __call__(self, *actions: Action) -> Watched:
        for action in actions:
            step = ok(self.state, action)
            self.observe(action, step)
        return self

    def observe(self, action: Action, step: Applied) -> None:
        self.watch, breaches = observe(self.watch, self.state, action, step)
        self.found.extend((self.steps, b) for b in breaches)
        self.state = step.state
        self.steps += 1

    @property
    def kinds(self) -> list[str]:
        return [b.kind for _, b in self.found]

    def only(self, kind: str) -> Breach:
        """The one breach found, of ``kind``, with its catalogued code."""
        assert self.kinds == [kind], [(b.kind, b.diagnostic.message) for _, b in self.found]
        breach = self.found[0][1]
        assert breach.diagnostic.code == KINDS[kind][0]
        assert breach.diagnostic.span is None  # replay places it
        return breach


def side(watched: Watched, color: Color) -> Side:
    return watched.watch.sides[color]


# --- exchange: SP into LP at 2:1 and 20 SP a turn (core §2, core §8, R05, R16) ------------------------------


def test_core_s2_r16_the_core_conversion_of_20_sp_alone_is_no_breach() -> None:
    """R16: 20 SP into 10 LP in Main 2 is the conversion itself, at its rate and its cap."""
    run = Watched(dealt(position("Ke1 ke8", sp=30, phase=Phase.MAIN2)))(Convert(20))
    assert run.found == []
    assert (side(run, W).turn_sp, side(run, W).turn_lp) == (20, 10)


def test_core_s8_r16_a_card_exchange_at_2_to_1_past_20_sp_in_the_turn_is_a_breach() -> None:
    """core §8, R16: a card trading 4 SP for 2 LP keeps the rate, but after the 20 SP the
    conversion took, the turn has turned 24 SP into LP."""
    state = dealt(position("Ke1 ke8", sp=40, phase=Phase.MAIN2), white=("Fair Trade",))
    run = Watched(state)(Convert(20), Play("Fair Trade"))
    breach = run.only("exchange")
    assert run.found[0][0] == 1  # at the card, not at the conversion
    assert (breach.sp, breach.lp) == (24, 12)
    assert "24 SP into 12 LP this turn" in breach.diagnostic.message and "20 SP" in breach.diagnostic.message


def test_core_s8_r05_a_card_turning_sp_into_lp_better_than_2_to_1_is_a_breach() -> None:
    """core §2, §8: Alchemy (priced in LP) takes 2 SP and gives 2 LP, 1:1 where the core asks 2:1."""
    state = dealt(position("Ke1 ke8", sp=10, phase=Phase.MAIN2), white=("Alchemy",))
    breach = Watched(state)(Play("Alchemy")).only("exchange")
    assert (breach.sp, breach.lp) == (2, 2)
    assert breach.cards == ("Alchemy",)
    assert "White turned 2 SP into 2 LP here" in breach.diagnostic.message
    assert {"core §8", "R16"} <= set(breach.diagnostic.rules)


def test_r05_lp_gained_on_a_move_paid_in_sp_is_an_exchange() -> None:
    """R05 lets a move be paid in SP, so LP its trigger brings is SP turned into LP: 1 SP for 1 LP."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Mender",)), "Mender")
    breach = Watched(state)(Move(sq("e4"), sq("e5"))).only("exchange")
    assert (breach.sp, breach.lp) == (1, 1)
    assert breach.cards == ("Mender",)


def test_r05_lp_gained_on_a_move_paid_in_lp_is_no_exchange() -> None:
    """R05: the same move paid in LP gives up no SP: the LP is the card's gift, not an exchange."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Mender",)), "Mender")
    run = Watched(state)(Move(sq("e4"), sq("e5"), pay=Payment(0, 1)))
    assert run.found == []
    assert side(run, W).turn_sp == 0


def test_core_s6_a_free_lp_gain_at_upkeep_in_a_turn_with_a_move_paid_in_sp_is_no_exchange() -> None:
    """core §6, R05: ``at upkeep: gain 1 LP`` comes with nothing given up, and the move paid in SP
    later in the turn brings no LP: two windows, neither an exchange."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Alms",)), "Alms")
    state = end_turn(state)  # Black's turn
    run = Watched(state)(EndTurn(), EnterPhase(Phase.MAIN1), Move(sq("e4"), sq("e5")))
    assert run.state.players[W].lp == 21  # Alms gave its LP at White's Upkeep
    assert run.found == []
    assert side(run, W).turn_lp == 0 and side(run, W).pending_sp == 0


def test_core_s8_r16_sp_lost_at_the_end_and_lp_given_at_the_next_upkeep_are_one_exchange() -> None:
    """core §8, R16: the conversion spread over two turns: Tithe takes 4 SP at White's End, and
    Almsgiver gives 3 LP for nothing at White's next Upkeep, 4 SP for 3 LP. Found at the hand-over."""
    state = in_play(dealt(position("Ke1 ke8", sp=20), white=("Tithe", "Almsgiver")), "Tithe", "Almsgiver")
    run = Watched(state)(EndTurn(), EndTurn())
    breach = run.only("exchange")
    assert run.found[0][0] == 1  # the hand-over from Black to White
    assert (breach.sp, breach.lp) == (4, 3)
    assert set(breach.cards) == {"Tithe", "Almsgiver"}


def test_core_s8_cr1_sp_taken_at_the_end_pair_with_lp_given_in_main1_of_the_next_turn() -> None:
    """core §8, CR1: SP a loss took wait one round of the player, whatever phase the gift comes in:
    Tithe's 4 SP at White's End and Noon's 3 LP at her next Main 1 are 4 SP for 3 LP."""
    state = in_play(dealt(position("Ke1 ke8", sp=20), white=("Tithe", "Noon")), "Tithe", "Noon")
    run = Watched(state)(EndTurn(), EndTurn(), EnterPhase(Phase.MAIN1))
    assert run.state.players[W].lp == 23
    breach = run.only("exchange")
    assert run.found[0][0] == 2 and (breach.sp, breach.lp) == (4, 3)
    assert "CR1" in breach.diagnostic.message


def test_core_s8_cr1_sp_taken_wait_one_round_and_no_longer() -> None:
    """CR1: Offering's 4 SP taken in White's Main 2 still pair with Windfall's 3 LP in her next Main 1,
    but no longer in her next Main 2: one round of the player, the bound being per turn (core §2)."""
    state = dealt(position("Ke1 ke8", sp=20, phase=Phase.MAIN2), white=("Offering", "Windfall"))
    within = Watched(state)(Play("Offering"), EndTurn(), EndTurn(), EnterPhase(Phase.MAIN1), Play("Windfall"))
    assert (within.only("exchange").sp, within.only("exchange").lp) == (4, 3)
    late = Watched(state)(Play("Offering"), EndTurn(), EndTurn(), EnterPhase(Phase.MAIN2), Play("Windfall"))
    assert late.found == []


def test_core_s8_cr1_a_price_paired_with_a_gift_counts_for_the_rate_not_the_amount() -> None:
    """CR1: Levy's 4 SP at Main 1 buy its own +10 to-hit; Alms2's 2 LP at the next Upkeep come for
    nothing. At 2 SP for 1 LP the pair fills nothing of the 20 SP a turn, so a full conversion after
    it is no breach; Penny's 4 SP for the same bonus paired with Almsgiver's 3 LP is below the rate."""
    state = in_play(dealt(position("Ke1 ke8", sp=80), white=("Levy", "Alms2")), "Levy", "Alms2")
    turn = (EndTurn(), EndTurn(), EnterPhase(Phase.MAIN1), EnterPhase(Phase.BATTLE), EnterPhase(Phase.MAIN2))
    run = Watched(state)(*turn, Convert(20), *turn, Convert(20))
    assert run.found == []
    state = in_play(dealt(position("Ke1 ke8", sp=80), white=("Levy", "Almsgiver")), "Levy", "Almsgiver")
    run = Watched(state)(*turn, *turn)
    breach = run.only("exchange")
    assert (breach.sp, breach.lp, breach.what) == (4, 3, "rate")


def test_core_s8_cr1_sp_the_opponents_cards_take_are_no_half_of_an_exchange() -> None:
    """CR1: Black's Dusk Thief takes 6 SP from White at Black's End, and White's Dawn gives her 10 LP at
    her Upkeep in the same hand-over: a drain and a gift, not White turning 6 SP into 10 LP."""
    state = dealt(position("Ke1 ke8", sp=30), white=("Dawn",), black=("Dusk Thief",))
    state = in_play(state, "Dawn")
    state = in_play(end_turn(state), "Dusk Thief")
    run = Watched(state)(EndTurn())
    assert run.state.players[W].lp == 30 and run.state.players[W].sp == 30 - 1 - 6
    assert run.found == []
    assert side(run, W).pending_sp == 0 and side(run, W).turn_sp == 0


def test_core_s4_3_r11_a_capture_reward_is_no_exchange() -> None:
    """core §4.3, R11: the 5 SP of a capture are the core's, not the cards': an attack paid in SP
    that captures gives up no SP for LP, and leaves no SP waiting."""
    state = dealt(position("Ke1 Ra3 ke8 pa5", sp=20, phase=Phase.BATTLE), white=("Focus",))
    run = Watched(state)(Attack(sq("a3"), sq("a5"), (0, 1)))
    assert run.state.board[sq("a5")] is None and run.state.players[W].sp == 20 - 12 + 5
    assert run.found == []
    assert side(run, W) == Side(turn_sp=0, turn_lp=0)


def test_core_s2_r04_the_pass_bonus_is_no_exchange() -> None:
    """core §2.5, R04: +6 LP for a turn without actions is the core's, even in a turn where a
    card took SP at the End (Tithe) and that SP is still waiting for LP."""
    state = in_play(dealt(position("Ke1 ke8", sp=30), white=("Tithe",)), "Tithe")
    state = end_turn(end_turn(state))  # White's next turn, nothing done yet
    run = Watched(state)(EndTurn())
    assert run.state.players[W].lp == state.players[W].lp + 6
    assert run.found == []
    assert side(run, W).pending_sp == 4  # Tithe took 4 SP in this End: they wait, but not for the Pass


def test_core_s8_a_card_priced_in_sp_without_lp_is_no_exchange() -> None:
    """core §0, R22: a card's price in SP is a price, not SP taken: Focus gives no LP."""
    state = dealt(position("Ke1 ke8", sp=10), white=("Focus",))
    run = Watched(state)(Play("Focus"))
    assert run.found == []
    assert side(run, W) == Side(turn_sp=0, turn_lp=0)


def test_core_s2_lp_into_sp_is_no_exchange_the_contract_limits() -> None:
    """core §2: the rate and cap bind SP into LP; LP into SP (a loss of LP for SP, or a card's
    ``convert 4 LP to 4 SP``) is no breach."""
    state = dealt(position("Ke1 ke8", sp=10, phase=Phase.MAIN2), white=("Spirit Exchange", "Blood Price"))
    run = Watched(state)(Play("Spirit Exchange"), Play("Blood Price"))
    assert run.state.players[W].sp == 10 + 4 - 1 + 4
    assert run.found == []


# --- a cost below zero (core §8, R23) ---------------------------------------------------------------------


def test_core_s8_r23_two_discounts_that_drive_a_cost_below_zero_are_a_breach() -> None:
    """core §8, R23: Boots and Wings take 2 off a King's move that costs 1; play charges 0, the
    watch reports the -1 and both cards."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Boots", "Wings")), "Boots", "Wings")
    run = Watched(state)(Move(sq("e4"), sq("e5")))
    breach = run.only("negative-cost")
    assert breach.lp == -1 and set(breach.cards) == {"Boots", "Wings"}
    assert "cost -1" in breach.diagnostic.message
    # neither takes the step below 0 alone: the contract checker's warning, still a breach in this game
    assert breach.what == "together"


def test_r23_which_cards_take_a_cost_below_zero_alone() -> None:
    """R20, R23: a card's own modifiers (its copies summed) against the core's cost."""
    assert below_zero_alone(1, [("Boots", -1), ("Wings", -1)]) == ()
    assert below_zero_alone(1, [("Boots", -1), ("Boots", -1), ("Wings", -1)]) == ("Boots",)
    assert below_zero_alone(3, [("Stilts", -4), ("Wings", 2)]) == ("Stilts",)
    assert below_zero_alone(3, [("Stilts", -3)]) == ()


def test_r23_a_discount_down_to_zero_is_no_breach() -> None:
    """R23: a cost the cards bring to exactly 0 is within its floor."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Boots",)), "Boots")
    assert Watched(state)(Move(sq("e4"), sq("e5"))).found == []


# --- one reroll source a roll (core §4.5, R20) ---------------------------------------------------------------


def test_core_s4_5_r20_two_reroll_spells_on_one_roll_are_a_breach() -> None:
    """core §4.5, R20: Lucky and Charm both grant a reroll to the same accuracy roll."""
    state = dealt(position("Ke1 Ra3 ke8 pa5", sp=20, phase=Phase.BATTLE), white=("Lucky", "Charm"))
    run = Watched(state)(Play("Lucky"), Play("Charm"), Attack(sq("a3"), sq("a5"), MISS, second=(0, 1)))
    breach = run.only("reroll")
    assert run.found[0][0] == 2
    assert breach.cards == ("Lucky", "Charm") and breach.lp == 2
    # two cards, one source each: only together past the cap, as R20 reads the other caps (the
    # contract checker's warning, SG-C153); replay still reports the game (SG-R132)
    assert breach.what == "together"


TWIN_LUCK = cards_by_name(
    'relic "Twin Luck" activated {\n    cost 1 SP\n    phase battle\n    effect reroll accuracy this attack\n}\n',
    "twin.sgcard",
)


def test_r20_two_copies_of_one_card_on_one_roll_break_the_cap_alone() -> None:
    """core §4.5, R20: two uses of one activated Relic start two sources on one accuracy roll: the
    card passes the cap on its own (the contract checker's error, SG-C012/SG-C152)."""
    state = position("Ke1 Ra3 ke8 pa5", sp=20, phase=Phase.BATTLE)
    state = ok(state.replace(cards=new_cards(TWIN_LUCK, ("Twin Luck",), ())), Play("Twin Luck")).state
    state = enter(end_turn(end_turn(state)), Phase.BATTLE)
    run = Watched(state)(Activate("Twin Luck"), Activate("Twin Luck"), Attack(sq("a3"), sq("a5"), MISS, second=(0, 1)))
    breach = run.only("reroll")
    assert breach.cards == ("Twin Luck",) and breach.lp == 2 and breach.what == "alone"


def test_r20_a_single_reroll_source_is_no_breach() -> None:
    """R20: one card granting the reroll is what the cap allows."""
    state = dealt(position("Ke1 Ra3 ke8 pa5", sp=20, phase=Phase.BATTLE), white=("Lucky",))
    run = Watched(state)(Play("Lucky"), Attack(sq("a3"), sq("a5"), MISS, second=(0, 1)))
    assert run.found == []


# --- repair denied on consecutive turns (core §6, core §8) -----------------------------------------------------


def _tolled(black_lp: int, black_sp: int) -> GameState:
    """White's Toll raises Black's Repair from 10 to 30; Black's Gem is broken."""
    state = dealt(position("Ke1 ke8", sp=(10, black_sp), lp=(20, black_lp), gem_broken=(False, True)), white=("Toll",))
    return in_play(state, "Toll")


def test_core_s6_s8_a_repair_priced_out_on_two_consecutive_turns_is_a_breach() -> None:
    """core §6, §8: with 20 LP Black could pay the core's 10 but not Toll's 30, at two Upkeeps in
    a row: repair denied on consecutive turns by White's effects."""
    run = Watched(_tolled(20, 0))(EndTurn(), EndTurn(), EndTurn())
    breach = run.only("repair-denied")
    assert run.found[0][0] == 2  # the second of Black's Upkeeps
    assert breach.cards == ("Toll",)
    assert "Black cannot attempt a Repair in this Upkeep nor in the last one" in breach.diagnostic.message


def test_core_s6_one_upkeep_priced_out_is_no_breach() -> None:
    """core §6: one Upkeep without a Repair is what a Spell's denial may do."""
    assert Watched(_tolled(20, 0))(EndTurn()).found == []


def test_core_s6_a_raised_price_the_player_can_pay_is_no_breach() -> None:
    """core §6: with 30 LP Black can pay Toll's price: the Repair is dearer, not denied."""
    assert Watched(_tolled(30, 0))(EndTurn(), EndTurn(), EndTurn()).found == []


def test_core_s6_a_player_who_cannot_pay_the_core_price_is_not_denied() -> None:
    """core §6: with 8 LP Black could not pay even the core's 10: poverty, not the opponent's cards."""
    assert Watched(_tolled(8, 0))(EndTurn(), EndTurn(), EndTurn()).found == []


# --- free Break and Repair attempts (core §6, core §8, R15) ---------------------------------------------------


def _broken_white(*relics: str) -> GameState:
    """White's Gem is broken; her Relics are in play; it is her next Upkeep."""
    state = dealt(position("Ke1 ke8", sp=40, gem_broken=(True, False)), white=relics)
    return end_turn(end_turn(in_play(state, *relics)))


def test_core_s6_s8_a_second_free_repair_attempt_in_one_upkeep_is_a_breach() -> None:
    """core §6, §8: Mending Rite makes a Repair free and Second Try allows another: the 10+ on
    3d6 becomes a matter of rolling again."""
    state = _broken_white("Mending Rite", "Second Try")
    run = Watched(state)(Repair(ROLL_3), Repair(ROLL_3))
    breach = run.only("free-attempt")
    assert run.found[0][0] == 1
    assert "second Repair attempt in one Upkeep" in breach.diagnostic.message
    assert "10+" in breach.diagnostic.message


def test_r15_a_paid_second_repair_attempt_is_no_breach() -> None:
    """R15, core §6: Second Try alone: the second attempt costs the core's 10 again."""
    state = _broken_white("Second Try")
    run = Watched(state)(Repair(ROLL_3), Repair(ROLL_3))
    assert run.state.players[W].sp == state.players[W].sp - 20
    assert run.found == []


def test_r15_one_free_break_and_one_free_repair_in_one_upkeep_are_no_breach() -> None:
    """R15: the core allows one Break and one Repair attempt per Upkeep; each free once is not a
    repetition of either."""
    state = _broken_white("Mending Rite", "Siege Rite")
    run = Watched(state)(Break(ROLL_3), Repair(ROLL_18))
    assert run.state.players[W].sp == state.players[W].sp
    assert run.found == []


# --- King damage only by attacks (core §4.4, R19) -------------------------------------------------------------


def test_core_s4_4_r19_king_damage_outside_an_attack_is_a_breach() -> None:
    """core §4.4, R19: replay refuses a card that damages a King, so the step is made up here: a
    card played after which Black's King has taken 3 damage."""
    state = dealt(position("Ke4 ke8", sp=10), white=("Focus",))
    step = ok(state, Play("Focus"))
    black = step.state.players[B].replace(king_damage=3)
    forged = Applied(step.state.with_player(B, black), step.effects)
    run = Watched(state)
    run.observe(Play("Focus"), forged)
    breach = run.only("king-damage")
    assert breach.lp == 3 and "Black's King damage changed from 0 to 3 outside an attack" in breach.diagnostic.message


def test_r19_an_attack_that_damages_the_king_is_no_breach() -> None:
    """R19: attacks are how a King is damaged."""
    state = dealt(position("Ke1 Qe4 ke8", sp=30, phase=Phase.BATTLE))
    run = Watched(state)(Attack(sq("e4"), sq("e8"), (0, 1)))
    assert run.state.players[B].king_damage == 1
    assert run.found == []


# --- growth: the same position with more (core §8) -----------------------------------------------------------


def test_core_s8_a_king_back_on_its_square_with_more_sp_is_growth() -> None:
    """core §8 (no unbounded SP/LP): King e4-e5-e4 with ``on move: gain 2 SP`` pays 1 SP a move
    and gains 2: the same position with 2 SP more, a cycle to repeat for ever."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Stride",)), "Stride")
    run = Watched(state)(Move(sq("e4"), sq("e5")), Move(sq("e5"), sq("e4")))
    breach = run.only("growth")
    assert run.found[0][0] == 1
    assert (breach.sp, breach.lp) == (2, 0)
    assert "same position this turn" in breach.diagnostic.message


def test_core_s8_a_cycle_that_only_pays_for_itself_is_no_growth() -> None:
    """core §8: with ``on move: gain 1 SP`` each move pays 1 and gains 1: back where it was."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Step",)), "Step")
    run = Watched(state)(Move(sq("e4"), sq("e5")), Move(sq("e5"), sq("e4")))
    assert run.found == []


def test_core_s8_a_trigger_with_a_limit_bounds_the_cycle() -> None:
    """core §8, R23: ``limit once per turn`` counts: after its one firing the position differs."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Measured Stride",)), "Measured Stride")
    run = Watched(state)(Move(sq("e4"), sq("e5")), Move(sq("e5"), sq("e4")))
    assert run.found == []


def test_core_s8_growth_is_judged_within_one_turn() -> None:
    """core §8: positions are compared within a turn; the next turn starts afresh (income,
    Upkeep, the turn's counters), so a later turn at the same squares is not growth."""
    state = in_play(dealt(position("Ke4 ke8", sp=10), white=("Stride",)), "Stride")
    run = Watched(state)(Move(sq("e4"), sq("e5")), EndTurn(), EndTurn(), EnterPhase(Phase.MAIN1))
    assert run.found == []
    assert run.watch.seen and all(state.turn_number == run.state.turn_number for state, _, _ in run.watch.seen)


# --- the watch without cards -----------------------------------------------------------------------------------


def test_core_s8_the_watch_is_pure_and_starts_empty() -> None:
    """The watch is data: observing returns a new one and leaves the old as it was."""
    state = dealt(position("Ke1 ke8", sp=30, phase=Phase.MAIN2))
    step = ok(state, Convert(20))
    watch, found = observe(START, state, Convert(20), step)
    assert Watch() == START and watch != START and found == ()


# --- which packs need the watch at all --------------------------------------------------------------------------


def _cards(source: str) -> list[Card]:
    return list(cards_by_name(source).values())


def test_core_s8_a_pack_whose_cards_cannot_breach_needs_no_watch() -> None:
    """Attack modifiers, SP moved, LP lost or turned into SP, one reroll source: nothing the watch
    could report, so replay keeps none (the guide's cards, examples/logs/relic-pack)."""
    pack = ROOT / "examples" / "logs" / "relic-pack" / "guide-relics.sgcard"
    assert not needs_watch(_cards(pack.read_text(encoding="utf-8")))
    assert not needs_watch(_cards('spell "Lucky" { cost 1 SP phase battle effect reroll accuracy this attack }'))
    assert not needs_watch(_cards('spell "Gift" { cost 1 SP phase main effect gain 3 SP effect lose 1 LP }'))


@pytest.mark.parametrize(
    "effect",
    [
        "on move: gain 1 SP",  # a trigger: windows of its own, and growth (core §8)
        "gain 1 LP",  # LP given: half of an exchange (R16)
        "steal 2 LP",
        "convert 2 SP to 1 LP",
        "cost move -1",  # a cost modifier: a cost below 0, a cheap attempt (R23, core §6)
        "opponent cost repair +20",  # a repair priced out (core §6)
        "deny repair this turn",
        "deal 1 damage to enemy Pawn",
    ],
)
def test_core_s8_a_card_that_can_breach_keeps_the_watch(effect: str) -> None:
    assert needs_watch(_cards(f'spell "Card" {{ cost 1 SP phase main1 effect {effect} }}'))


def test_r20_two_reroll_sources_or_one_on_an_activated_relic_keep_the_watch() -> None:
    """R20: two cards granting a reroll can meet on one roll; an activated Relic used twice is two."""
    two = """spell "Lucky" { cost 1 SP phase battle effect reroll accuracy this attack }
    spell "Charm" { cost 1 SP phase battle effect advantage this attack }"""
    assert needs_watch(_cards(two))
    assert needs_watch(_cards('relic "Dice" activated { cost 1 SP phase battle effect reroll accuracy this turn }'))


# --- every turn, every side, every route (core §8; the item 4) ----------------------------------------------

MORE = cards_by_name(
    """
relic "Bargain" passive { cost 1 SP phase main effect on attacked: lose 2 SP effect on attacked: gain 2 LP }
relic "Slow Alchemy" passive { cost 1 SP phase main effect at end: lose 4 SP effect at main1: gain 3 LP }
relic "Tithe" passive { cost 1 SP phase main effect at end: lose 4 SP }
relic "Noon" passive { cost 1 SP phase main effect at main1: gain 3 LP }
relic "Leech" passive { cost 1 SP phase main effect at end: opponent loses 8 LP }
relic "Fury" passive { cost 1 SP phase main effect on miss: to_hit +15 this turn }
relic "Quick Fury" passive { cost 1 SP phase main effect on miss: to_hit +10 this turn }
""",
    "more.sgcard",
)


def more(state: GameState, white: Sequence[str] = (), black: Sequence[str] = ()) -> GameState:
    return state.replace(cards=new_cards(MORE, white, black))


def test_core_s8_r16_an_exchange_made_by_the_opponents_cards_in_this_players_turn_is_judged() -> None:
    """core §8: Black's Bargain turns 2 SP into 2 LP each time White attacks one of Black's pieces,
    in White's turn: the window is Black's as much as White's, and 2 SP for 2 LP is a breach."""
    state = more(position("Ke1 Ra3 ke8 pa5", sp=(30, 10), to_move=B), black=("Bargain",))
    state = end_turn(in_play(state, "Bargain"))
    state = enter(state, Phase.BATTLE)
    run = Watched(state)(Attack(sq("a3"), sq("a5"), MISS))
    breach = run.only("exchange")
    assert (breach.sp, breach.lp) == (2, 2) and breach.cards == ("Bargain",)
    assert "Black turned 2 SP into 2 LP here" in breach.diagnostic.message


def test_core_s8_one_cards_sp_taken_and_lp_given_pair_however_far_apart() -> None:
    """core §8, R16: Slow Alchemy takes 4 SP at White's End and gives 3 LP at her Main 1, past the
    end of her Upkeep: one card's two halves are one exchange whenever they happen (4 SP for 3 LP)."""
    state = in_play(more(position("Ke1 ke8", sp=20), white=("Slow Alchemy",)), "Slow Alchemy")
    run = Watched(state)(EndTurn(), EndTurn(), EnterPhase(Phase.MAIN1))
    breach = run.only("exchange")
    assert run.found[0][0] == 2 and (breach.sp, breach.lp) == (4, 3)
    assert "Slow Alchemy" in breach.cards


def test_core_s8_one_cards_halves_paired_once_a_turn_for_the_whole_game() -> None:
    """Slow Alchemy's exchange found on each of White's turns, never twice for the same SP."""
    state = in_play(more(position("Ke1 ke8", sp=60), white=("Slow Alchemy",)), "Slow Alchemy")
    run = Watched(state)
    for _ in range(4):
        run(EndTurn(), EndTurn(), EnterPhase(Phase.MAIN1))
    assert run.kinds == ["exchange"] * 4
    assert all((b.sp, b.lp) == (4, 3) for _, b in run.found)


def test_core_s6_s8_a_repair_made_impossible_by_draining_on_two_upkeeps_is_a_breach() -> None:
    """core §6, §8: Leech takes 8 LP from Black at each of White's Ends; Black, Gem broken, could pay
    the core's 10 at each Upkeep but for what Leech took: Repair made impossible on consecutive
    turns by White's effects, without a denial or a price."""
    state = more(position("Ke1 ke8", sp=(10, 0), lp=(20, 15), gem_broken=(False, True)), white=("Leech",))
    state = in_play(state, "Leech")
    run = Watched(state)(EndTurn(), EndTurn(), EndTurn())
    breach = run.only("repair-denied")
    assert run.found[0][0] == 2 and breach.cards == ("Leech",)
    assert run.state.players[B].lp == 15 - 8 + 6 - 8  # the Pass bonus between the two drains


def test_core_s6_a_drain_the_player_can_afford_is_no_breach() -> None:
    """With 40 LP Black still pays the Repair after Leech: no finding (the peer of the test above)."""
    state = more(position("Ke1 ke8", sp=(10, 0), lp=(20, 40), gem_broken=(False, True)), white=("Leech",))
    assert Watched(in_play(state, "Leech"))(EndTurn(), EndTurn(), EndTurn()).found == []


def test_core_s4_5_r20_copies_of_one_card_past_the_to_hit_cap_are_a_breach_at_the_attack() -> None:
    """core §4.5, R20: Fury's trigger fires on each miss, and its two +15 copies add +30 to the
    third attack: one card past +25 on its own. Play counts +25; the watch reports the attack."""
    state = in_play(more(position("Ke1 Ra3 ke8 pa5", sp=60), white=("Fury",)), "Fury")
    state = enter(state, Phase.BATTLE)
    run = Watched(state)(*(Attack(sq("a3"), sq("a5"), MISS) for _ in range(3)))
    breach = run.only("stacking")
    assert run.found[0][0] == 2 and breach.cards == ("Fury",)
    assert (breach.sp, breach.lp, breach.what) == (30, 25, "to-hit")
    assert "2 copies of 'Fury' add +15 + +15 = +30 to-hit" in breach.diagnostic.message


def test_r20_copies_of_one_card_within_the_cap_are_no_breach() -> None:
    """Quick Fury's two +10 copies add +20: within +25 (the peer of the test above)."""
    state = in_play(more(position("Ke1 Ra3 ke8 pa5", sp=60), white=("Quick Fury",)), "Quick Fury")
    run = Watched(enter(state, Phase.BATTLE))(*(Attack(sq("a3"), sq("a5"), MISS) for _ in range(3)))
    assert run.found == []


def test_core_s6_two_effects_taking_from_the_opponent_or_one_repeated_keep_the_watch() -> None:
    """core §6, §8: a Repair drained out of reach needs takings on two turns: one Spell's steal
    alone cannot (the guide's Soul Drain), two can, and so can an activated Relic's."""
    one = 'spell "Soul Drain" { cost 3 SP phase main1 effect steal 5 SP }'
    assert not needs_watch(_cards(one))
    assert needs_watch(_cards(one + '\nspell "Bleed" { cost 1 SP phase main1 effect opponent loses 5 LP }'))
    assert needs_watch(_cards('relic "Leech" activated { cost 1 SP phase main effect opponent loses 8 LP }'))


# --- a King no boosted hit can damage (core §4.4, core §8, R19; SG-C156's run-time breach) -------------------


def _crowned(*crowns: str) -> GameState:
    """Black's crowns are in play; White's Rook on e3 can attack Black's King on e8 in Battle."""
    state = dealt(position("Ke1 Re3 ke8", sp=(40, 10), to_move=B), black=crowns)
    return enter(end_turn(in_play(state, *crowns)), Phase.BATTLE)


@pytest.mark.parametrize("roll", [(0, 1), MISS], ids=["hit", "miss"])
def test_core_s4_4_s8_an_attack_on_a_king_no_boosted_hit_can_damage_is_a_breach(roll: tuple[int, int]) -> None:
    """core §4.4, §8: a hit deals 1 and the cards may add +2 (core §4.5): a reduction of 3 on the King
    leaves even that hit at 0, so no attack can ever convert this King. Found at the attack, hit or miss."""
    run = Watched(_crowned("Iron Crown"))(Attack(sq("e3"), sq("e8"), roll))
    breach = run.only("king-immune")
    assert run.found[0][0] == 0 and breach.cards == ("Iron Crown",) and breach.lp == 3
    assert breach.diagnostic.code == "SG-R138" and "Black's King" in breach.diagnostic.message


def test_core_s4_4_reductions_from_two_cards_that_reach_a_boosted_hit_are_a_breach() -> None:
    """core §4.4: nothing clamps reductions (R23), so 2 and 1 from two cards are 3 as much as one card's 3."""
    run = Watched(_crowned("Half Crown", "Thin Crown"))(Attack(sq("e3"), sq("e8"), (0, 1)))
    assert set(run.only("king-immune").cards) == {"Half Crown", "Thin Crown"}


def test_core_s4_4_a_reduction_a_boosted_hit_still_passes_is_no_breach() -> None:
    """core §4.5: with a reduction of 2, a hit with the +2 the cards may add still deals 1: no breach."""
    run = Watched(_crowned("Half Crown"))(Attack(sq("e3"), sq("e8"), (0, 1)))
    assert run.found == []


# --- a kind of action priced past what anyone can hold (core §2, §7, §8; SG-C158's run-time breach) ------------


def _gated(*gates: str, black: str = "Ke1 ke8 pa6 rh8") -> Watched:
    """White's gates are in play; White ends her turn and Black's begins."""
    state = dealt(position(black, sp=(20, 10)), white=gates)
    return Watched(in_play(state, *gates))(EndTurn())


def test_core_s2_s7_every_move_priced_past_1000_by_the_opponent_is_a_breach_at_the_turn_start() -> None:
    """core §2, §7, §8: Gates Shut makes each of Black's moves 999,999 dearer; a player holding 1,000 LP
    has won, so no one can pay it: Main's moves are gone in all but name. Found as Black's turn begins."""
    run = _gated("Gates Shut")
    breach = run.only("priced-out")
    assert (breach.what, breach.lp, breach.cards) == ("move", 999999, ("Gates Shut",))
    assert breach.diagnostic.code == "SG-R139" and "to every move Black could take" in breach.diagnostic.message


def test_core_s8_no_surcharge_is_too_large_to_be_judged() -> None:
    """The largest number a card may write (9 digits), on copies or not, is still priced: the player the
    engine prices for holds more than any surcharge in play."""
    breach = _gated("Vast Gate", "Gates Shut").only("priced-out")
    assert breach.lp == 999999999 + 999999


def test_core_s8_a_surcharge_below_1000_is_a_price_not_a_lost_phase() -> None:
    """core §8 lets cards add cost modifiers: 999 more is steep (the checker warns), not priced out."""
    assert _gated("Steep Gate").found == []


def test_core_s8_a_surcharge_some_attacks_escape_is_no_breach() -> None:
    """core §8: Queens Toll prices only a Queen's attacks; Black's Rook still attacks at the core's cost,
    so Battle is still there. Battle Toll prices every attack: a breach."""
    position_spec = "Ke1 Pa3 ke8 rh3"
    assert _gated("Queens Toll", black=position_spec).found == []
    breach = _gated("Battle Toll", black=position_spec).only("priced-out")
    assert breach.what == "attack"


def test_core_s8_no_candidate_no_finding() -> None:
    """Nothing to judge: Black has no piece that can attack, so no attack is priced out."""
    assert _gated("Battle Toll", black="Ke1 ke8").found == []


def test_core_s6_s8_a_repair_priced_past_1000_is_a_breach_with_the_gem_still_whole() -> None:
    """core §6 forbids a permanent repair denial: Mortar makes Black's every Repair 99,999 dearer, a
    lock on the Gem from the moment it is in play, whether or not the Gem is broken yet."""
    breach = _gated("Mortar").only("priced-out")
    assert (breach.what, breach.lp) == ("repair", 99999)


# --- what fires in the opponent's turn, and one card's copies (core §8, R20, R23) -----------------------------


def _holding(card: str, black_sp: int = 10) -> GameState:
    """Black's ``card`` is in play; it is White's Battle, her Rook on a3 facing Black's Pawn on a5."""
    state = dealt(position("Ke1 Ra3 ke8 pa5", sp=(40, black_sp), to_move=B), black=(card,))
    return enter(end_turn(in_play(state, card)), Phase.BATTLE)


def test_core_s8_an_exchange_fired_in_the_opponents_turn_is_caught_at_that_attack() -> None:
    """core §8, R16: Black's Martyrs Ledger takes 4 SP when his Pawn is attacked and gives 4 LP when it is
    captured, both in White's turn: 4 SP for 4 LP of Black's, found at White's attack (its line)."""
    run = Watched(_holding("Martyrs Ledger"))(Attack(sq("a3"), sq("a5"), (0, 1)))
    assert run.state.board[sq("a5")] is None  # captured (a Pawn has 1 value, a hit deals 1)
    breach = run.only("exchange")
    assert run.found[0][0] == 0 and (breach.sp, breach.lp) == (4, 4)
    assert "Black turned 4 SP into 4 LP" in breach.diagnostic.message and "Martyrs Ledger" in breach.cards


def test_core_s8_r23_copies_of_one_card_started_in_the_opponents_turn_take_a_cost_below_zero() -> None:
    """core §8, R23: each attack White makes on Black's Pawn starts a copy of Spiteful Stride's -1 on
    Black's moves; after two, Black's King step (cost 1) costs -1, by one card alone: found at the step."""
    state = _holding("Spiteful Stride")
    run = Watched(state)(
        Attack(sq("a3"), sq("a5"), MISS), Attack(sq("a3"), sq("a5"), MISS), EndTurn(), EnterPhase(Phase.MAIN1)
    )
    assert run.found == []  # the copies start in White's turn and break nothing there
    run(Move(sq("e8"), sq("e7")))
    breach = run.only("negative-cost")
    assert run.found[0][0] == 4 and breach.lp == -1 and breach.what == "alone"
    assert breach.cards == ("Spiteful Stride",)
