"""One test per ruling R01-R21 (RULINGS.md): each fails if the product's default ruling changes.

R22 and R23 (cards in play) are tested in test_cards_in_play.py; R24-R26 (scenarios) here for their
defining decision, and in detail in test_scenarios.py, tests/lang/test_scenario_yaml.py and
tests/replay/test_scenario_examples.py.

The detailed behaviour lives in the per-area files; here each ruling's defining decision is pinned,
and the diagnostics that depend on a ruling are checked to name it.
"""

from __future__ import annotations

import re

import pytest

from sgcheck.core import caps
from sgcheck.core.actions import (
    Activate,
    Attack,
    Break,
    Convert,
    EndTurn,
    EnterPhase,
    Move,
    Summon,
    Teleport,
)
from sgcheck.core.formulas import hit_threshold
from sgcheck.core.pieces import Kind, Outcome, Phase, piece
from sgcheck.core.ruleset import CORE, RulesetError, parse_ruleset
from sgcheck.core.rulings import BY_ID, RULINGS
from sgcheck.core.setup import check_draft, rolloff_winner
from sgcheck.core.state import Payment, TurnState, initial_state
from sgcheck.replay.interpreter import replay_text

from .helpers import HIT, MISS, ROLL_18, B, W, end_turn, enter, funds, ok, play, position, rejected, sq

# --- the rulings table itself ------------------------------------------------------------------


def test_rulings_are_exactly_r01_to_r26_with_text() -> None:
    assert [r.id for r in RULINGS] == [f"R{i:02d}" for i in range(1, 27)]
    assert set(BY_ID) == {r.id for r in RULINGS}
    for r in RULINGS:
        assert r.topic.strip() and len(r.text) > 40, r.id
        assert r.sources, r.id
        assert "  " not in r.text and "\n" not in r.text  # normalised to one paragraph


def test_table_choices_are_exactly_r09_r14_and_r25() -> None:
    """RULINGS.md marks R09 (king_value), R14 (income=all) and R25 (Gem Siege's reduced army) as
    table choices; R25's is a variant scenario, not a ruleset setting."""
    assert {r.id: r.setting for r in RULINGS if r.setting is not None} == {
        "R09": "king_value",
        "R14": "income",
        "R25": "scenario gem-siege-reduced",
    }


def test_house_rules_are_off_by_default_and_name_what_they_break() -> None:
    assert CORE.is_core and CORE.house_rules() == ()
    assert parse_ruleset("core") == CORE
    rs = parse_ruleset("core; king_value=3, income=all; turn_limit=40")
    assert (rs.king_value, rs.income_counts_all, rs.turn_limit) == (3, True, 40)
    assert not rs.is_core
    rules = rs.house_rules()
    assert [h.ruling for h in rules] == ["R09", "R14"]
    assert all(h.breaks and "core §8" in h.breaks for h in rules)
    assert parse_ruleset("turn-limit=5").is_core  # a scenario limit is not a house rule


@pytest.mark.parametrize("text", ["king_value=0", "king_value=10", "income=some", "turn_limit=-1", "chess960", "x=1"])
def test_bad_ruleset_profiles_are_rejected(text: str) -> None:
    with pytest.raises(RulesetError):
        parse_ruleset(text)


# --- R01-R21 ---------------------------------------------------------------------------------


def test_r01_setup_order_and_starting_resources() -> None:
    """R01: ties are rerolled; White takes the first turn; 20 LP, 0 SP, 15 pieces in Gem."""
    assert rolloff_winner((3, 3, 4), (5, 4, 1)) is None
    st = initial_state(sq("d3"), sq("d6"))
    assert (st.to_move, st.turn_number, st.turn.phase) == (W, 1, Phase.UPKEEP)
    assert all((p.lp, p.sp, sum(p.gem)) == (20, 0, 15) for p in st.players)
    result = replay_text("king white e1\nking black e8\nrolloff white 6 6 6 black 1 1 1\n", "r01")
    assert [d.code for d in result.diagnostics] == ["SG-S101"]


def test_r02_only_the_kings_start_on_the_board() -> None:
    st = initial_state(sq("a1"), sq("h8"))
    assert sum(p is not None for p in st.board) == 2


def test_r03_phase_windows_and_no_going_back() -> None:
    v = rejected(position("Ke1 ke8", phase=Phase.MAIN1, sp=10), Convert(2), "SG-T103", "Main 2")
    assert "R03" in v.diagnostic.rules
    rejected(position("Ke1 ke8", phase=Phase.MAIN2), EnterPhase(Phase.MAIN1), "SG-T102")


def test_r04_activations_are_actions_phase_changes_are_not() -> None:
    quiet = play(position("Ke1 ke8", phase=Phase.UPKEEP), EnterPhase(Phase.BATTLE), EnterPhase(Phase.END))
    assert ok(quiet, EndTurn()).effects.passed
    busy = ok(position("Ke1 ke8", phase=Phase.UPKEEP), Activate("Soul Ward")).state
    assert not ok(busy, EndTurn()).effects.passed


def test_r05_sp_first_lp_may_reach_zero() -> None:
    st = position("Ke1 ke8", phase=Phase.UPKEEP, lp=2, sp=4)
    step = ok(st, Summon(Kind.PAWN, sq("a2")))
    assert step.effects.paid == Payment(sp=4, lp=2) and funds(step.state, W) == (0, 0)
    assert step.state.result is None
    v = rejected(st, Summon(Kind.KNIGHT, sq("b1")), "SG-R106")
    assert "R05" in v.diagnostic.rules


def test_r06_chess_geometry_clear_paths_no_castling() -> None:
    st = position("Ke1 Rh1 Pe2 ke8")
    v = rejected(st, Move(sq("e1"), sq("g1")), "SG-R103")
    assert "R09" in v.diagnostic.rules  # the King's one-square rule
    v = rejected(position("Ra1 Pa2 Ke1 ke8"), Move(sq("a1"), sq("a4")), "SG-R104", "a2")
    assert "R06" in v.diagnostic.rules
    assert ok(st, Move(sq("e2"), sq("e4"))).effects.cost == 3  # double step from the second rank


def test_r07_knights_cost_3_per_jump() -> None:
    st = position("Ng1 Ke1 ke8")
    assert ok(st, Move(sq("g1"), sq("f3"))).effects.cost == 3
    assert ok(st, Move(sq("g1"), sq("g5"))).effects.cost == 6  # not Knight 3 + distance 2
    v = rejected(position("Ng1 Pf3 Ph3 Ke1 ke8"), Move(sq("g1"), sq("g5")), "SG-R104")
    assert "R07" in v.diagnostic.rules


def test_r08_attack_reach_is_a_move_path_pawns_diagonal() -> None:
    st = position("Pe4 pe5 nf5 Re1 re8 Kh1 kh8", phase=Phase.BATTLE, lp=100)
    rejected(st, Attack(sq("e4"), sq("e5"), HIT), "SG-R107")
    assert ok(st, Attack(sq("e4"), sq("f5"), HIT)).effects.cost == 3
    v = rejected(st, Attack(sq("e1"), sq("e8"), HIT), "SG-R107", "blocked at e4")
    assert "R08" in v.diagnostic.rules
    rejected(st, Attack(sq("e1"), sq("e4"), HIT), "SG-R102")


def test_r09_king_no_value_one_square_no_attack_summon_teleport() -> None:
    assert ok(position("Ke1 ke8"), Move(sq("e1"), sq("f2"))).effects.cost == 1
    v = rejected(position("Ke4 pe5 ke8", phase=Phase.BATTLE), Attack(sq("e4"), sq("e5"), HIT), "SG-R108")
    assert "R09" in v.diagnostic.rules and v.diagnostic.hint and "king_value" in v.diagnostic.hint
    rejected(position("Kc2 ke8", phase=Phase.UPKEEP), Summon(Kind.KING, sq("e1")), "SG-R108")
    rejected(position("Kc2 ke8", phase=Phase.END), Teleport(sq("c2"), sq("e1")), "SG-R108")
    house = position("Ke4 pe5 ke8", phase=Phase.BATTLE, ruleset=parse_ruleset("king_value=1"))
    assert ok(house, Attack(sq("e4"), sq("e5"), HIT)).effects.threshold == 20


def test_r10_accuracy_00_is_100_and_king_formula() -> None:
    st = position("Qd1 pd2 Ke1 ke8", phase=Phase.BATTLE, lp=100)
    assert ok(st, Attack(sq("d1"), sq("d2"), MISS)).effects.d100 == 100
    assert ok(st, Attack(sq("d1"), sq("d2"), MISS)).effects.hit is False
    assert hit_threshold(Kind.KNIGHT, Kind.KING, CORE).value == 30
    assert hit_threshold(Kind.PAWN, Kind.QUEEN, CORE).value == 5


def test_r11_capture_reward_partial_damage_clears_king_damage_stays() -> None:
    st = position("Qd1 nd4 Re1 ke8 Kh1", phase=Phase.BATTLE, lp=500)
    st = play(st, Attack(sq("d1"), sq("d4"), HIT), Attack(sq("e1"), sq("e8"), HIT))
    st = enter(end_turn(end_turn(st)), Phase.BATTLE)
    assert st.player(B).king_damage == 1
    st = play(st, Attack(sq("d1"), sq("d4"), HIT), Attack(sq("d1"), sq("d4"), HIT))
    assert st.board[sq("d4")] == piece(B, Kind.KNIGHT)  # only 2 of 3 this turn
    step = ok(st, Attack(sq("d1"), sq("d4"), HIT))
    assert step.effects.captured == piece(B, Kind.KNIGHT) and step.effects.sp_gained == 15


def test_r12_summon_cost_and_own_pieces_only() -> None:
    st = position("Ke1 ke8", phase=Phase.UPKEEP, lp=100)
    assert ok(st, Summon(Kind.QUEEN, sq("h3"))).effects.cost == 20
    full = position("Ke1 Qd2 ke8", phase=Phase.UPKEEP, lp=100, captured={W: {Kind.QUEEN: 1}})
    v = rejected(full, Summon(Kind.QUEEN, sq("d1")), "SG-R109")
    assert "R12" in v.diagnostic.rules


def test_r13_teleport_once_non_king_summon_cost() -> None:
    st = position("Qe5 Nf6 Ke1 ke8", phase=Phase.END, lp=100)
    step = ok(st, Teleport(sq("e5"), sq("h3")))
    assert step.effects.cost == 20
    v = rejected(step.state, Teleport(sq("f6"), sq("g1")), "SG-T104")
    assert "R13" in v.diagnostic.rules


def test_r14_income_counts_enemy_pieces_only() -> None:
    st = position("Ke1 ke8", to_move=B, captured={W: {Kind.BISHOP: 1}}, turn=TurnState(phase=Phase.END, actions=1))
    assert ok(st, EndTurn()).effects.income == 6  # not 2 × (3 + White's own 39)
    house = position(
        "Ke1 ke8",
        to_move=B,
        captured={W: {Kind.BISHOP: 1}},
        ruleset=parse_ruleset("income=all"),
        turn=TurnState(phase=Phase.END, actions=1),
    )
    assert ok(house, EndTurn()).effects.income == 2 * (3 + 39)


def test_r15_break_returns_pieces_costs_paid_either_way() -> None:
    st = position("Ke1 ke8", phase=Phase.UPKEEP, lp=100, captured={B: {Kind.ROOK: 1}})
    step = ok(st, Break(ROLL_18))
    assert step.effects.returned_pieces == 1 and step.state.player(B).gem_broken
    failed = ok(st, Break((4, 4, 3)))
    assert failed.effects.success is False and funds(failed.state, W) == (80, 0)
    v = rejected(step.state, Break(ROLL_18), "SG-T104")
    assert "R15" in v.diagnostic.rules


def test_r16_conversion_main2_even_capped() -> None:
    st = position("Ke1 ke8", phase=Phase.MAIN2, sp=50)
    st = ok(st, Convert(20)).state
    v = rejected(st, Convert(2), "SG-R113")
    assert "R16" in v.diagnostic.rules
    assert caps.CONVERSION_SP_PER_LP == 2 and caps.CONVERSION_CAP_SP == 20


def test_r17_two_activations_per_turn() -> None:
    st = play(position("Ke1 ke8"), Activate("A"), Activate("B"))
    v = rejected(st, Activate("C"), "SG-T105")
    assert "R17" in v.diagnostic.rules


def test_r18_turn_limit_king_damage_then_score_then_draw() -> None:
    limit = parse_ruleset("turn_limit=2")
    st = position(
        "Ke1 ke8",
        to_move=B,
        turn_number=2,
        ruleset=limit,
        king_damage=(1, 2),
        turn=TurnState(phase=Phase.END, actions=1),
    )
    result = end_turn(st).result
    assert result is not None and result.winner is W and result.outcome is Outcome.TURN_LIMIT
    tied = position("Ke1 ke8", to_move=B, turn_number=2, ruleset=limit, turn=TurnState(phase=Phase.END, actions=1))
    result = end_turn(tied).result
    assert result is not None and result.winner is None


def test_r19_hand_limit_three() -> None:
    assert list(check_draft(W, ("A", "B", "C"))) == []
    assert [v.diagnostic.code for v in check_draft(W, ("A", "B", "C", "D"))] == ["SG-S105"]
    assert (caps.DRAFT_DRAW, caps.DRAFT_KEEP, caps.HAND_LIMIT) == (5, 3, 3)


def test_r20_to_hit_bonus_capped_then_clamped() -> None:
    """R20 / core §4.5: card bonuses add at most +25, then the 5..95 clamp applies."""
    assert hit_threshold(Kind.ROOK, Kind.ROOK, CORE, bonus=10).value == 30
    assert hit_threshold(Kind.ROOK, Kind.ROOK, CORE, bonus=40).value == 45
    assert hit_threshold(Kind.PAWN, Kind.QUEEN, CORE, bonus=25).value == 5  # −60 + 25, clamped
    assert hit_threshold(Kind.QUEEN, Kind.PAWN, CORE, bonus=25).value == 95
    assert hit_threshold(Kind.ROOK, Kind.KING, CORE, bonus=99).value == 75
    assert (caps.TO_HIT_BONUS_CAP, caps.DAMAGE_BONUS_CAP, caps.REROLL_SOURCES_CAP) == (25, 2, 1)


WALKTHROUGH = """[Ruleset "core"]
king white e1
king black e8
1.   upkeep: summon R a1 cost 10 lp 10
     main1: move Ra1 a3 cost 7 lp 3
1... upkeep: summon Q d8 cost 14 lp 6
2.   end: pass lp 9
2... end: pass lp 12
3.   battle: attack Ra3 Pa5 roll 4 1 cost 12 threshold 60 hit capture gain 5sp
3... upkeep: income 2 sp 2
"""


def test_r21_guide_examples_right_walkthrough_wrong() -> None:
    """R21: examples A, B, C (costs 12/21/12, thresholds 60/60/50) hold; the walkthrough's turn-3
    Rook shot at a Pawn Black never summoned stops replay with a clear message."""
    examples = [
        ("Ra3 pa5", "a3", "a5", 12, 60),
        ("Qd1 rd4", "d1", "d4", 21, 60),
        ("Re3 ke5", "e3", "e5", 12, 50),
    ]
    for spec, frm, to, cost, threshold in examples:
        kings = " Kh1" + ("" if "k" in spec else " kh8")
        fx = ok(position(spec + kings, phase=Phase.BATTLE, lp=100), Attack(sq(frm), sq(to), MISS)).effects
        assert (fx.cost, fx.threshold) == (cost, threshold)
    result = replay_text(WALKTHROUGH, "walkthrough.sglog")
    assert result.stopped and not result.ok
    (diag,) = [d for d in result.diagnostics if d.is_error]
    assert diag.code == "SG-R101"
    assert re.search(r"no piece on a5", diag.message) and "Black has no Pawn on the board at all" in diag.message
    assert diag.span is not None and diag.span.line == 9
    assert result.state is not None and (result.state.turn_number, result.state.to_move) == (3, W)


# --- R24-R26: scenarios ------------------------------------------------------------------------


def test_r24_a_scenario_sets_the_start_but_no_core_number() -> None:
    """R24: position, resources and first player come from the scenario; a core number does not."""
    from sgcheck.contract.scenario_contract import check_scenario_text

    text = "name: s\nfirst: black\nwhite: {lp: 30, sp: 5, pieces: [Ra3]}\n"
    loaded, findings = check_scenario_text(text, "s.scenario.yaml")
    assert findings == [] and loaded.scenario is not None
    state = initial_state(sq("e1"), sq("e8"), CORE, loaded.scenario)
    assert (state.to_move, state.players[0].lp, state.players[0].sp) == (B, 30, 5)
    _, findings = check_scenario_text(text + "rules: {accuracy.base: 30}\n", "s.scenario.yaml")
    assert [f.code for f in findings] == ["SG-C003"] and "R24" in findings[0].rules


def test_r25_gem_siege_break_and_capture_in_either_order_wins() -> None:
    """R25: each Gem holds an enemy Rook (10 SP of income from the second turn), 10 SP each; breaking
    the enemy Gem and capturing a piece, at any time, wins at once."""
    from pathlib import Path

    from sgcheck.replay.interpreter import ReplayOptions

    siege = Path(__file__).resolve().parents[2] / "examples" / "scenarios" / "gem-siege.scenario.yaml"
    log = "king white e1\nking black e8\n1. end: pass sp 10\n1... end: pass\n2. upkeep: income 10\n"
    result = replay_text(log, "g.sglog", ReplayOptions(scenario=str(siege)))
    assert result.ok and result.state is not None and result.state.players[0].sp == 20
    reduced = next(r for r in RULINGS if r.id == "R25")
    assert reduced.setting == "scenario gem-siege-reduced"  # the table choice is a variant scenario


def test_r26_wellsprings_are_held_at_the_end_of_a_turn() -> None:
    """R26: a side loses when enemy pieces stand on all of its Wellsprings at the end of a turn."""
    from sgcheck.core.scenario import MarkerSet, Scenario, SideSetup, WinCondition, WinKind

    wells = MarkerSet("w", (sq("c6"),), (B,))
    scenario = Scenario(
        "w",
        sides=(SideSetup(pieces=((sq("c5"), Kind.ROOK),)), SideSetup()),
        markers=(wells,),
        conditions=(WinCondition(WinKind.HOLD_MARKERS, markers="w"),),
    )
    state = initial_state(sq("e1"), sq("e8"), CORE, scenario)
    state = play(enter(state, Phase.MAIN1), Move(sq("c5"), sq("c6")))
    assert state.result is None
    state = play(state, EndTurn())
    assert state.result is not None and state.result.winner is W and state.result.outcome is Outcome.SCENARIO
