"""Soul Gem economy: income, Break/Repair, conversion, paying costs and Pass
(core §2, §6; R04, R05, R14, R15, R16)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
    Part,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.pieces import Kind, Phase, piece
from sgcheck.core.ruleset import parse_ruleset
from sgcheck.core.state import GameState, Payment, TurnState, initial_state, piece_census

from .helpers import (
    MISS,
    ROLL_3,
    ROLL_18,
    B,
    W,
    end_turn,
    enter,
    full_census,
    funds,
    ok,
    play,
    position,
    rejected,
    sq,
)

# --- SP income (core §6, R14) ------------------------------------------------------------------


def _black_ending(**kw: Any) -> GameState:
    """Black in Main 2 having acted (so no Pass), about to hand White her Upkeep."""
    return position("Ke1 ke8", to_move=B, turn=TurnState(phase=Phase.MAIN2, actions=1), **kw)


def test_income_is_twice_enemy_value_in_gem_r14() -> None:
    """R14: SP += 2 × value of the enemy pieces in the Gem (Rook 5 + 2 Pawns = 7 → 14).
    White's own 13 unsummoned pieces do not count."""
    st = _black_ending(captured={W: {Kind.ROOK: 1, Kind.PAWN: 2}}, sp=(3, 0))
    assert sum(st.player(W).gem[piece(W, k).index] for k in Kind) == 15  # own pieces still in the Gem
    step = ok(st, EndTurn())
    assert step.effects.income == 14
    assert step.state.to_move is W and step.state.turn.income == 14
    assert funds(step.state, W) == (20, 3 + 14)


def test_no_income_on_own_first_turn_core_s6() -> None:
    """core §6: no SP on your first turn — even for Black holding a captured piece."""
    st = position(
        "Ke1 ke8",
        turn_number=1,
        turns_started=(1, 0),
        captured={B: {Kind.PAWN: 1}},
        turn=TurnState(phase=Phase.END, actions=1),
    )
    step = ok(st, EndTurn())
    assert step.state.to_move is B and step.effects.income == 0 and funds(step.state, B)[1] == 0
    st = end_turn(end_turn(step.state))  # White's turn 2, then Black's turn 2
    assert st.to_move is B and st.turn.income == 2


def test_no_income_while_gem_broken_core_s6() -> None:
    st = _black_ending(captured={W: {Kind.ROOK: 1}}, gem_broken=(True, False))
    step = ok(st, EndTurn())
    assert step.effects.income == 0 and funds(step.state, W)[1] == 0


def test_income_all_table_choice_gives_78_from_turn_2_r14() -> None:
    """R14 table choice income=all: every piece in the Gem counts — 2 × 39 = 78 SP from turn 2."""
    st = initial_state(sq("e1"), sq("e8"), parse_ruleset("income=all"))
    st = ok(st, EndTurn()).state
    assert st.turn.income == 0  # Black's first turn
    step = ok(st, EndTurn())
    assert step.effects.income == 78 and funds(step.state, W) == (26, 78)
    core = end_turn(end_turn(initial_state(sq("e1"), sq("e8"))))
    assert core.turn.income == 0  # under the core, own pieces earn nothing


# --- Break and Repair (core §6, R15) -----------------------------------------------------------


def _upkeep(**kw: Any) -> GameState:
    kw.setdefault("lp", 100)
    return position("Ke1 ke8", phase=Phase.UPKEEP, **kw)


def test_break_success_returns_your_pieces_r15() -> None:
    """core §6: pay 20, 3d6 ≥ 12 breaks the enemy Gem; your pieces they captured come home."""
    st = _upkeep(captured={B: {Kind.PAWN: 2, Kind.ROOK: 1}, W: {Kind.KNIGHT: 1}})
    step = ok(st, Break((6, 4, 2)))
    fx, after = step.effects, step.state
    assert (fx.cost, fx.dice_total, fx.success, fx.returned_pieces) == (20, 12, True, 3)
    assert after.player(B).gem_broken and not after.player(W).gem_broken
    assert all(after.player(B).gem[piece(W, k).index] == 0 for k in Kind)
    assert after.player(W).gem[piece(W, Kind.PAWN).index] == st.player(W).gem[piece(W, Kind.PAWN).index] + 2
    assert after.player(W).gem[piece(W, Kind.ROOK).index] == st.player(W).gem[piece(W, Kind.ROOK).index] + 1
    assert after.player(W).gem[piece(B, Kind.KNIGHT).index] == 1  # captured Black pieces stay
    assert funds(after, W) == (80, 0)
    assert piece_census(after) == full_census()


def test_break_failure_still_costs_20_r15() -> None:
    """R15: costs are paid whether the roll succeeds or not (11 < 12 fails)."""
    st = _upkeep(captured={B: {Kind.PAWN: 2}})
    step = ok(st, Break((5, 4, 2)))
    assert (step.effects.success, step.effects.dice_total, step.effects.returned_pieces) == (False, 11, 0)
    assert not step.state.player(B).gem_broken
    assert funds(step.state, W) == (80, 0)
    assert step.state.player(B).gem == st.player(B).gem


def test_black_break_returns_black_pieces_r15() -> None:
    st = _upkeep(to_move=B, captured={W: {Kind.QUEEN: 1}})
    after = ok(st, Break(ROLL_18)).state
    assert after.player(W).gem_broken
    assert after.player(B).gem[piece(B, Kind.QUEEN).index] == 1


def test_break_only_against_unbroken_gem_r112() -> None:
    v = rejected(_upkeep(gem_broken=(False, True)), Break(ROLL_18), "SG-R112", "already broken")
    assert "R15" in v.diagnostic.rules


def test_one_break_per_upkeep_t104_r15() -> None:
    st = ok(_upkeep(), Break(ROLL_3)).state
    rejected(st, Break(ROLL_18), "SG-T104", "one Break")


def test_break_before_summon_t104_r15() -> None:
    st = ok(_upkeep(), Summon(Kind.PAWN, sq("a2"))).state
    rejected(st, Break(ROLL_18), "SG-T104", "before the Upkeep's Summon")


@pytest.mark.parametrize(
    ("roll", "fragment"), [((6, 6), "needs 3 dice"), ((6, 6, 7), "7 is not"), ((0, 6, 6), "0 is not")]
)
def test_break_roll_is_3d6_r114(roll: tuple[int, ...], fragment: str) -> None:
    rejected(_upkeep(), Break(roll), "SG-R114", fragment, part=Part.ROLL)


def test_break_must_be_affordable_r106() -> None:
    rejected(_upkeep(lp=15, sp=4), Break(ROLL_18), "SG-R106", "costs 20")


def test_repair_only_when_broken_r112() -> None:
    v = rejected(_upkeep(), Repair(ROLL_18), "SG-R112", "not broken")
    assert "R15" in v.diagnostic.rules


@pytest.mark.parametrize(("roll", "success"), [((4, 3, 3), True), ((3, 3, 3), False), ((6, 6, 6), True)])
def test_repair_pay_10_succeeds_on_10_plus_r15(roll: tuple[int, int, int], success: bool) -> None:
    """core §6: Repair pays 10 and succeeds on 3d6 ≥ 10 (paid either way)."""
    step = ok(_upkeep(gem_broken=(True, False)), Repair(roll))
    assert (step.effects.cost, step.effects.success) == (10, success)
    assert step.state.player(W).gem_broken is not success
    assert funds(step.state, W) == (90, 0)


def test_one_repair_per_upkeep_t104_r15() -> None:
    st = ok(_upkeep(gem_broken=(True, False)), Repair(ROLL_3)).state
    rejected(st, Repair(ROLL_18), "SG-T104", "one Repair")


def test_repair_before_summon_t104_r15() -> None:
    st = position("Ke1 ke8", gem_broken=(True, False), lp=100, turn=TurnState(phase=Phase.UPKEEP, summoned=True))
    rejected(st, Repair(ROLL_18), "SG-T104", "before the Upkeep's Summon")


def test_break_and_repair_in_one_upkeep_then_summon_r15() -> None:
    """R15: one Break and one Repair attempt per Upkeep, then the Summon (a repaired Gem may Summon)."""
    st = _upkeep(gem_broken=(True, False))
    st = play(st, Repair(ROLL_18), Break(ROLL_18), Summon(Kind.PAWN, sq("a2")))
    assert not st.player(W).gem_broken and st.player(B).gem_broken
    assert funds(st, W) == (100 - 10 - 20 - 6, 0)


@pytest.mark.parametrize("phase", [Phase.MAIN1, Phase.BATTLE, Phase.MAIN2, Phase.END])
def test_break_and_repair_upkeep_only_t103(phase: Phase) -> None:
    st = position("Ke1 ke8", phase=phase, lp=100, gem_broken=(True, False))
    rejected(st, Break(ROLL_18), "SG-T103", "Upkeep")
    rejected(st, Repair(ROLL_18), "SG-T103", "Upkeep")


def test_broken_gem_still_receives_captures_but_gains_no_sp_r15() -> None:
    """R15: a broken Gem still takes in captured pieces; core §6: while it is broken its owner gains
    no SP at all, so the capture reward (R11: 5 × value SP) is not paid."""
    st = position("Ra3 pa5 Ke1 ke8", phase=Phase.BATTLE, gem_broken=(True, False), lp=20)
    step = ok(st, Attack(sq("a3"), sq("a5"), (0, 1)))
    assert step.state.player(W).gem[piece(B, Kind.PAWN).index] == 1
    assert step.effects.captured is not None
    assert step.effects.sp_gained == 0 and funds(step.state, W) == (8, 0)


# --- conversion (core §2.4, R16) ---------------------------------------------------------------


def _main2(sp: int = 40, lp: int = 20) -> GameState:
    return position("Ke1 ke8", phase=Phase.MAIN2, sp=sp, lp=lp)


@pytest.mark.parametrize("amount", [2, 10, 20])
def test_convert_2_sp_to_1_lp_r16(amount: int) -> None:
    step = ok(_main2(), Convert(amount))
    assert step.effects.lp_gained == amount // 2
    assert funds(step.state, W) == (20 + amount // 2, 40 - amount)


@pytest.mark.parametrize("amount", [1, 3, 0, -2])
def test_convert_even_positive_amounts_only_r113(amount: int) -> None:
    v = rejected(_main2(), Convert(amount), "SG-R113", "positive even amount", part=Part.AMOUNT)
    assert "R16" in v.diagnostic.rules


def test_convert_cap_20_sp_per_turn_across_converts_r16() -> None:
    st = play(_main2(), Convert(8), Convert(8), Convert(4))
    assert funds(st, W) == (30, 20)
    rejected(st, Convert(2), "SG-R113", "at most 20", "20 already converted", part=Part.AMOUNT)
    rejected(_main2(), Convert(22), "SG-R113", "at most 20")
    st = play(_main2(), Convert(18))
    rejected(st, Convert(4), "SG-R113", "2 left")


def test_convert_cap_resets_next_turn_r16() -> None:
    st = play(_main2(sp=60), Convert(20))
    st = enter(end_turn(end_turn(st)), Phase.MAIN2)
    assert ok(st, Convert(20)).effects.lp_gained == 10


def test_convert_needs_the_sp_r113() -> None:
    rejected(_main2(sp=5), Convert(6), "SG-R113", "only 5 SP")


# --- paying costs (R05) ------------------------------------------------------------------------


def test_sp_spent_first_by_default_r05() -> None:
    step = ok(_upkeep(lp=20, sp=4), Summon(Kind.ROOK, sq("a1")))
    assert step.effects.paid == Payment(sp=4, lp=6)
    assert funds(step.state, W) == (14, 0)
    step = ok(_upkeep(lp=20, sp=30), Summon(Kind.ROOK, sq("a1")))
    assert step.effects.paid == Payment(sp=10, lp=0)


def test_stated_split_is_applied_r05() -> None:
    step = ok(_upkeep(lp=20, sp=4), Summon(Kind.ROOK, sq("a1"), pay=Payment(sp=1, lp=9)))
    assert step.effects.paid == Payment(sp=1, lp=9)
    assert funds(step.state, W) == (11, 3)


def test_stated_split_must_add_up_r115() -> None:
    v = rejected(
        _upkeep(lp=20, sp=4),
        Summon(Kind.ROOK, sq("a1"), pay=Payment(sp=4, lp=5)),
        "SG-R115",
        "adds up to 9",
        "costs 10",
        part=Part.PAY,
    )
    assert "R05" in v.diagnostic.rules


def test_stated_split_must_be_affordable_r115() -> None:
    rejected(
        _upkeep(lp=20, sp=4),
        Summon(Kind.ROOK, sq("a1"), pay=Payment(sp=5, lp=5)),
        "SG-R115",
        "more than the player has",
        part=Part.PAY,
    )
    rejected(
        _upkeep(lp=8, sp=40),
        Summon(Kind.ROOK, sq("a1"), pay=Payment(sp=0, lp=10)),
        "SG-R115",
        "more than the player has",
        part=Part.PAY,
    )


def test_stated_split_cannot_have_negative_parts_r05() -> None:
    rejected(
        _upkeep(lp=20, sp=0),
        Summon(Kind.ROOK, sq("a1"), pay=Payment(sp=-5, lp=15)),
        "SG-R115",
        part=Part.PAY,
    )


def test_lp_may_reach_zero_without_losing_r05() -> None:
    """R05: the whole of LP + SP may be spent; 0 LP does not lose the game."""
    st = ok(_upkeep(lp=6, sp=4), Summon(Kind.ROOK, sq("a1"))).state
    assert funds(st, W) == (0, 0) and st.result is None
    st = end_turn(st)
    assert st.to_move is B and st.result is None


def test_cost_above_lp_plus_sp_is_illegal_r106_r05() -> None:
    v = rejected(_upkeep(lp=6, sp=3), Summon(Kind.ROOK, sq("a1")), "SG-R106", "costs 10", "LP 6 + SP 3 = 9")
    assert "R05" in v.diagnostic.rules


# --- Pass (core §2.5, R04) ---------------------------------------------------------------------


def test_pass_gives_6_lp_when_no_action_core_s2_5_r04() -> None:
    """core §2.5 / R04: no action at all → +6 LP at End; phase changes are not actions."""
    st = position("Ke1 ke8", phase=Phase.UPKEEP, lp=3)
    st = play(
        st,
        EnterPhase(Phase.MAIN1),
        EnterPhase(Phase.BATTLE),
        EnterPhase(Phase.MAIN2),
        EnterPhase(Phase.END),
    )
    assert st.turn.actions == 0
    step = ok(st, EndTurn())
    assert step.effects.passed and step.effects.lp_gained == 6
    assert funds(step.state, W) == (9, 0)


def test_income_is_not_an_action_r04() -> None:
    """R04: SP income is not an action, so a player with income can still Pass."""
    st = _black_ending(captured={W: {Kind.PAWN: 1}})
    st = end_turn(st)
    assert st.turn.income == 2
    step = ok(st, EndTurn())
    assert step.effects.passed and funds(step.state, W) == (26, 2)


def _pass_base(phase: Phase, broken: bool = False) -> GameState:
    return position("Ke1 Ra3 ke8 pa5", phase=phase, lp=100, sp=10, gem_broken=(broken, False))


ACTIONS: dict[str, tuple[Callable[[], GameState], Action]] = {
    "summon": (lambda: _pass_base(Phase.UPKEEP), Summon(Kind.PAWN, sq("b2"))),
    "failed break": (lambda: _pass_base(Phase.UPKEEP), Break(ROLL_3)),
    "failed repair": (lambda: _pass_base(Phase.UPKEEP, broken=True), Repair(ROLL_3)),
    "move": (lambda: _pass_base(Phase.MAIN1), Move(sq("e1"), sq("e2"))),
    "missed attack": (lambda: _pass_base(Phase.BATTLE), Attack(sq("a3"), sq("a5"), MISS)),
    "convert": (lambda: _pass_base(Phase.MAIN2), Convert(2)),
    "teleport": (lambda: _pass_base(Phase.END), Teleport(sq("a3"), sq("a1"))),
    "free activation": (lambda: _pass_base(Phase.MAIN1), Activate("Soul Ward")),
    "paid activation": (lambda: _pass_base(Phase.BATTLE), Activate("Arcane Surge", Payment(sp=2, lp=0))),
}


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_any_action_forfeits_pass_r04(name: str) -> None:
    """R04: Summon, Break, Repair, Move, Attack, Convert, Teleport and activations are all actions."""
    build, action = ACTIONS[name]
    st = ok(build(), action).state
    assert st.turn.actions == 1
    lp_before = funds(st, W)[0]
    step = ok(st, EndTurn())
    assert not step.effects.passed and step.effects.lp_gained == 0
    assert funds(step.state, W)[0] == lp_before


def test_paying_touches_only_the_movers_funds_r05() -> None:
    st = ok(_upkeep(to_move=B, lp=(20, 30)), Summon(Kind.ROOK, sq("a8"))).state
    assert funds(st, W) == (20, 0) and funds(st, B) == (20, 0)
