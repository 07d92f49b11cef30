"""Combat: reach, cost, accuracy, damage, capture and the King (core §4.1-§4.4, R08, R10, R11, R21)."""

from __future__ import annotations

from typing import Any

import pytest

from sgcheck.core.actions import Attack, EndTurn, Move, Part
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Kind, Outcome, Phase, piece
from sgcheck.core.ruleset import parse_ruleset
from sgcheck.core.state import GameState, Payment

from .helpers import HIT, MISS, B, W, end_turn, enter, funds, ok, position, rejected, sq

VALUE = {Kind.PAWN: 1, Kind.KNIGHT: 3, Kind.BISHOP: 3, Kind.ROOK: 5, Kind.QUEEN: 9}  # core §3


def battle(spec: str, **kw: Any) -> GameState:
    kw.setdefault("lp", 100)
    return position(spec, phase=Phase.BATTLE, **kw)


def attack(st: GameState, frm: str, to: str, roll: tuple[int, ...] = HIT) -> Applied:
    return ok(st, Attack(sq(frm), sq(to), roll))


# --- the guide's worked examples (R21) ---------------------------------------------------------


def test_guide_example_a_rook_captures_pawn_r21() -> None:
    """guide A / R21: Rook two squares from a Pawn: cost 2×5+2 = 12, threshold 20+10×(5−1) = 60,
    one hit captures (Pawn value 1) and gains 5 SP."""
    st = battle("Ra3 pa5 Ke1 ke8", lp=20)
    step = attack(st, "a3", "a5", (6, 0))  # d100 60: the threshold itself hits
    fx = step.effects
    assert (fx.cost, fx.threshold, fx.d100, fx.hit, fx.damage) == (12, 60, 60, True, 1)
    assert fx.captured == piece(B, Kind.PAWN) and fx.sp_gained == 5
    assert step.state.board[sq("a5")] is None
    assert step.state.player(W).gem[piece(B, Kind.PAWN).index] == 1
    assert funds(step.state, W) == (8, 5)
    miss = attack(st, "a3", "a5", (6, 1)).effects  # 61 > 60
    assert (miss.hit, miss.damage, miss.captured) == (False, 0, None)


def test_guide_example_b_queen_softens_rook_r21() -> None:
    """guide B / R21: Queen three squares from a Rook: cost 2×9+3 = 21, threshold 20+10×(9−5) = 60;
    one hit is 1 damage, not enough to capture a 5-value Rook."""
    st = battle("Qd1 rd4 Ke1 ke8")
    step = attack(st, "d1", "d4")
    assert (step.effects.cost, step.effects.threshold, step.effects.damage) == (21, 60, 1)
    assert step.effects.captured is None
    assert step.state.board[sq("d4")] == piece(B, Kind.ROOK)


def test_guide_example_c_rook_hits_king_r21() -> None:
    """guide C / R21: Rook two squares from the King: cost 12, threshold 10×5 = 50."""
    st = battle("Re3 ke5 Ke1")
    step = attack(st, "e3", "e5", (5, 0))
    fx = step.effects
    assert (fx.cost, fx.threshold, fx.hit, fx.king_damage) == (12, 50, True, 1)
    assert step.state.player(B).king_damage == 1
    assert attack(st, "e3", "e5", (5, 1)).effects.hit is False


# --- accuracy (core §4.2, §4.4, R10) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "defender", "threshold"),
    [
        (Kind.ROOK, Kind.ROOK, 20),  # equal value: 20
        (Kind.BISHOP, Kind.KNIGHT, 20),
        (Kind.KNIGHT, Kind.ROOK, 5),  # 20 − 20 = 0, clamped up to 5
        (Kind.ROOK, Kind.BISHOP, 40),
        (Kind.QUEEN, Kind.ROOK, 60),
        (Kind.QUEEN, Kind.KNIGHT, 80),
        (Kind.QUEEN, Kind.PAWN, 95),  # 20 + 80 = 100, clamped to 95
        (Kind.PAWN, Kind.QUEEN, 5),  # 20 − 80 = −60, clamped to 5
        (Kind.PAWN, Kind.ROOK, 5),
        (Kind.BISHOP, Kind.PAWN, 40),
        (Kind.PAWN, Kind.KING, 10),  # vs the King: 10 × 1
        (Kind.KNIGHT, Kind.KING, 30),
        (Kind.ROOK, Kind.KING, 50),
        (Kind.QUEEN, Kind.KING, 90),
    ],
)
def test_threshold_formula_and_clamp_core_s4_2_r10(attacker: Kind, defender: Kind, threshold: int) -> None:
    """core §4.2: 20 + 10×(A−D) vs a piece; core §4.4: 10×A vs the King; both clamped to 5..95."""
    if defender is Kind.KING:
        expected = max(5, min(95, 10 * VALUE[attacker]))
    else:
        expected = max(5, min(95, 20 + 10 * (VALUE[attacker] - VALUE[defender])))
    assert expected == threshold  # the table above follows from the rulebook formula
    # attacker on d4, defender on d5 (one square up) — reachable by every kind but the Knight
    att, frm, to = attacker.letter, "d4", "d5"
    if attacker is Kind.KNIGHT:
        to = "e6"
    elif attacker is Kind.PAWN or attacker is Kind.BISHOP:
        to = "e5"
    spec = f"{att}{frm} {defender.letter.lower()}{to}"
    spec += " Ka1" + ("" if defender is Kind.KING else " kh8")
    step = attack(battle(spec), frm, to)
    assert step.effects.threshold == threshold


@pytest.mark.parametrize(
    ("roll", "d100", "hit"),
    [((9, 5), 95, True), ((9, 6), 96, False), ((0, 0), 100, False), ((0, 1), 1, True), ((1, 0), 10, True)],
)
def test_d100_tens_and_ones_00_is_100_core_s4_2(roll: tuple[int, int], d100: int, hit: bool) -> None:
    """core §4.2 / R10: first die tens, second ones; "0 0" is 100 — so it misses even at 95."""
    fx = attack(battle("Qd1 pd3 Ke1 ke8"), "d1", "d3", roll).effects
    assert fx.threshold == 95
    assert (fx.d100, fx.hit) == (d100, hit)


@pytest.mark.parametrize(("roll", "hit"), [((0, 5), True), ((0, 6), False), ((0, 0), False)])
def test_pawn_vs_queen_hits_only_on_5_or_less_core_s4_2(roll: tuple[int, int], hit: bool) -> None:
    fx = attack(battle("Pd4 qe5 Ke1 ke8"), "d4", "e5", roll).effects
    assert fx.threshold == 5 and fx.hit is hit


@pytest.mark.parametrize(
    ("roll", "fragment"),
    [
        ((5,), "needs 2 dice"),
        ((1, 2, 3), "needs 2 dice"),
        ((10, 0), "10 is not a possible face"),
        ((3, -1), "-1 is not"),
    ],
)
def test_accuracy_roll_is_two_d10_r114(roll: tuple[int, ...], fragment: str) -> None:
    rejected(battle("Ra3 pa5 Ke1 ke8"), Attack(sq("a3"), sq("a5"), roll), "SG-R114", fragment, part=Part.ROLL)


# --- cost (core §4.1) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "frm", "to", "distance"),
    [
        ("Ra1 ra8", "a1", "a8", 7),
        ("Bb2 bg7", "b2", "g7", 5),
        ("Qh1 qa8", "h1", "a8", 7),
        ("Nb1 nc3", "b1", "c3", 1),
        ("Nb1 nc4", "b1", "c4", 2),  # two knight jumps: distance 2 (jumps)
        ("Pe4 pf5", "e4", "f5", 1),
    ],
)
def test_attack_cost_twice_value_plus_distance_core_s4_1(spec: str, frm: str, to: str, distance: int) -> None:
    """core §4.1: Attack = 2 × value + distance, distance along the path (R08; knights count jumps)."""
    st = battle(f"{spec} Kh2 kh6")  # Kings off every path used here
    attacker = st.board[sq(frm)]
    assert attacker is not None
    step = attack(st, frm, to, MISS)
    assert step.effects.cost == 2 * VALUE[attacker.kind] + distance
    assert funds(step.state, W) == (100 - step.effects.cost, 0)  # paid even on a miss


def test_attack_counts_as_action_and_is_paid_sp_first_r05() -> None:
    st = battle("Ra3 pa5 Ke1 ke8", lp=20, sp=5)
    step = attack(st, "a3", "a5", MISS)
    assert step.effects.paid == Payment(sp=5, lp=7)
    assert step.state.turn.actions == 1


def test_unaffordable_attack_is_r106() -> None:
    rejected(battle("Ra3 pa5 Ke1 ke8", lp=11), Attack(sq("a3"), sq("a5"), HIT), "SG-R106", "costs 12")


# --- reach (R08) -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("color", "frm", "good", "bad"),
    [
        (W, "e4", ("d5", "f5"), ("e5", "d3", "f3", "e3", "d4", "c6")),
        (B, "e5", ("d4", "f4"), ("e4", "d6", "f6", "e6", "f5")),
    ],
)
def test_pawn_attacks_one_square_diagonally_forward_r08(
    color: Color, frm: str, good: tuple[str, ...], bad: tuple[str, ...]
) -> None:
    """R08: Pawns attack one square diagonally forward only (not straight ahead, not backwards)."""
    enemy = "n" if color is W else "N"
    for target in good + bad:
        own = "P" if color is W else "p"
        st = battle(f"{own}{frm} {enemy}{target} Ka1 kh8", to_move=color)
        if target in good:
            assert attack(st, frm, target).effects.cost == 2 * 1 + 1
        else:
            v = rejected(st, Attack(sq(frm), sq(target), HIT), "SG-R107", "diagonally forward", part=Part.TARGET)
            assert "R08" in v.diagnostic.rules


def test_knight_reaches_one_or_two_jumps_r08_r07() -> None:
    """R08 / R07: a Knight attacks what one Move could reach: 1 jump (cost 7) or 2 jumps over an
    empty middle square (cost 8)."""
    assert attack(battle("Nb1 nc3 Ke1 ke8"), "b1", "c3").effects.cost == 7
    assert attack(battle("Nb1 rc4 Ke1 ke8"), "b1", "c4").effects.cost == 8
    assert attack(battle("Nb1 Pd2 rc4 Ke1 ke8"), "b1", "c4").effects.cost == 8  # a3 is free


def test_knight_two_jump_attack_blocked_r107() -> None:
    st = battle("Nb1 Pd2 pa3 rc4 Ke1 ke8")
    rejected(st, Attack(sq("b1"), sq("c4"), HIT), "SG-R107", "d2", "a3", part=Part.TARGET)


def test_knight_cannot_attack_beyond_two_jumps_r107() -> None:
    rejected(battle("Nb1 rb2 Ke1 ke8"), Attack(sq("b1"), sq("b2"), HIT), "SG-R107", "1 or 2 jumps")


@pytest.mark.parametrize(
    ("spec", "frm", "to", "blocker"),
    [
        ("Ra1 Pa3 ra6", "a1", "a6", "a3"),
        ("Ra1 pa3 ra6", "a1", "a6", "a3"),  # an enemy in front shields the one behind
        ("Bc1 ne3 qg5", "c1", "g5", "e3"),
        ("Qd1 Nd4 rd7", "d1", "d7", "d4"),
    ],
)
def test_sliding_attack_needs_clear_path_r107_r08(spec: str, frm: str, to: str, blocker: str) -> None:
    """R08: along a clear path only; the blocker is named."""
    v = rejected(
        battle(f"{spec} Kh1 kh8"),
        Attack(sq(frm), sq(to), HIT),
        "SG-R107",
        f"blocked at {blocker}",
        part=Part.TARGET,
    )
    assert "R08" in v.diagnostic.rules


@pytest.mark.parametrize(
    ("letter", "frm", "to", "lines"),
    [("R", "a1", "b3", "ranks and files"), ("B", "c1", "c4", "diagonals"), ("Q", "d1", "e3", "diagonals")],
)
def test_slider_off_its_lines_is_out_of_reach_r107(letter: str, frm: str, to: str, lines: str) -> None:
    """R08: a slider reaches only along its own lines."""
    st = battle(f"{letter}{frm} q{to} Kh1 kh8")
    rejected(st, Attack(sq(frm), sq(to), HIT), "SG-R107", "out of reach", lines)


def test_friendly_target_is_r102_r08() -> None:
    """R08: friendly pieces cannot be attacked."""
    st = battle("Ra1 Na3 Ke1 ke8")
    rejected(st, Attack(sq("a1"), sq("a3"), HIT), "SG-R102", "friendly", part=Part.TARGET)
    rejected(battle("Re2 Ke1 ke8"), Attack(sq("e2"), sq("e1"), HIT), "SG-R102", "friendly")


def test_empty_target_is_r101() -> None:
    st = battle("Ra1 Ke1 ke8")
    rejected(st, Attack(sq("a1"), sq("a4"), HIT), "SG-R101", "no piece on a4", part=Part.TARGET)
    rejected(st, Attack(sq("a1"), sq("a4"), HIT, target_kind=Kind.PAWN), "SG-R101", "no Pawn on the board at all")


def test_attacker_must_be_own_piece() -> None:
    st = battle("ra1 pa3 Ke1 ke8")
    rejected(st, Attack(sq("a1"), sq("e1"), HIT), "SG-R102", "belongs to the opponent", part=Part.PIECE)
    rejected(st, Attack(sq("b1"), sq("e8"), HIT), "SG-R101", "no piece on b1", part=Part.PIECE)


def test_claimed_target_kind_must_match_r101() -> None:
    st = battle("Ra1 na5 Ke1 ke8")
    rejected(st, Attack(sq("a1"), sq("a5"), HIT, target_kind=Kind.PAWN), "SG-R101", "not a Pawn")


def test_king_cannot_attack_under_core_r108_r09() -> None:
    """R09: the King has no value under the core and cannot attack."""
    v = rejected(battle("Ke4 pe5 ke8"), Attack(sq("e4"), sq("e5"), HIT), "SG-R108", "cannot attack", part=Part.PIECE)
    assert "R09" in v.diagnostic.rules


def test_king_attacks_with_house_rule_king_value_r09() -> None:
    """R09 table choice: king_value=3 lets the King attack one square away: cost 2×3+1 = 7,
    threshold vs a Pawn 20+10×(3−1) = 40."""
    st = battle("Ke4 pe5 ke8", ruleset=parse_ruleset("king_value=3"))
    fx = attack(st, "e4", "e5").effects
    assert (fx.cost, fx.threshold, fx.captured) == (7, 40, piece(B, Kind.PAWN))
    rejected(st, Attack(sq("e4"), sq("e8"), HIT), "SG-R107", "eight squares")


# --- damage and capture (core §4.3, R11) -------------------------------------------------------


@pytest.mark.parametrize("kind", [Kind.PAWN, Kind.KNIGHT, Kind.BISHOP, Kind.ROOK, Kind.QUEEN])
def test_capture_when_damage_this_turn_reaches_value_core_s4_3(kind: Kind) -> None:
    """core §4.3 / R11: each hit deals 1; capture at damage this turn ≥ value; reward 5 × value SP."""
    st = battle(f"Qd1 {kind.letter.lower()}d5 Ke1 ke8", lp=500)
    for hit_number in range(1, VALUE[kind] + 1):
        step = attack(st, "d1", "d5")
        st = step.state
        if hit_number < VALUE[kind]:
            assert step.effects.captured is None
            assert st.board[sq("d5")] == piece(B, kind)
        else:
            assert step.effects.captured == piece(B, kind)
            assert step.effects.sp_gained == 5 * VALUE[kind]
            assert st.board[sq("d5")] is None
            assert st.player(W).gem[piece(B, kind).index] == 1
    assert funds(st, W)[1] == 5 * VALUE[kind]


def test_misses_deal_no_damage_core_s4_3() -> None:
    st = battle("Qd1 nd5 Ke1 ke8", lp=500)
    for roll in (HIT, MISS, MISS, HIT):
        st = attack(st, "d1", "d5", roll).state
    assert st.board[sq("d5")] == piece(B, Kind.KNIGHT)  # 2 damage < 3
    assert attack(st, "d1", "d5").effects.captured == piece(B, Kind.KNIGHT)


def test_damage_is_tracked_per_target_core_s4_3() -> None:
    st = battle("Qd1 nd5 Ra1 na4 Ke1 ke8", lp=500)
    for frm, to in (("d1", "d5"), ("a1", "a4"), ("d1", "d5"), ("a1", "a4")):
        st = attack(st, frm, to).state
    assert st.board[sq("d5")] is not None and st.board[sq("a4")] is not None
    assert attack(st, "a1", "a4").effects.captured == piece(B, Kind.KNIGHT)
    assert st.board[sq("d5")] is not None


def test_partial_damage_clears_at_end_of_attackers_turn_core_s2_5_r11() -> None:
    """core §2.5 / R11: partial damage lasts only during the attacker's turn.

    2 hits on a Rook, turn over, then next turn 4 more hits still do not capture (2+4 would be 6)."""
    st = battle("Qd1 rd5 Ke1 ke8", lp=500, sp=(0, 0))
    for _ in range(2):
        st = attack(st, "d1", "d5").state
    st = end_turn(end_turn(st))  # Black passes
    st = enter(st, Phase.BATTLE)
    for _ in range(4):
        step = attack(st, "d1", "d5")
        assert step.effects.captured is None
        st = step.state
    assert attack(st, "d1", "d5").effects.captured == piece(B, Kind.ROOK)


def test_captured_square_is_free_for_a_later_move() -> None:
    """After a capture the square is empty: Main 2 movement may use it."""
    st = attack(battle("Ra3 pa5 Ke1 ke8"), "a3", "a5").state
    st = enter(st, Phase.MAIN2)
    assert ok(st, Move(sq("a3"), sq("a5"))).effects.cost == 7


# --- the King (core §4.4, R11, R18) ------------------------------------------------------------


def test_king_is_not_captured_by_thresholds_and_damage_persists_core_s4_4() -> None:
    """core §4.4 / R11: the King has 20 HP; damage never clears, across turns."""
    st = battle("Pd4 ke5 Ke1", lp=500)
    step = attack(st, "d4", "e5")
    assert step.effects.king_damage == 1 and step.effects.captured is None
    st = step.state
    assert st.board[sq("e5")] == piece(B, Kind.KING)
    st = end_turn(st)
    assert st.player(B).king_damage == 1
    st = enter(end_turn(st), Phase.BATTLE)
    assert st.player(B).king_damage == 1
    assert attack(st, "d4", "e5").effects.king_damage == 2


def test_king_converted_at_20_attacker_wins_core_s4_4_r18() -> None:
    """core §4.4 / R18: at 20 total damage the King is converted and the game ends at once."""
    st = battle("Qd1 kd8 Ke1", lp=500, king_damage=(0, 18))
    step = attack(st, "d1", "d8")
    assert step.effects.king_damage == 19 and step.state.result is None
    final = attack(step.state, "d1", "d8")
    fx = final.effects
    assert fx.king_damage == 20 and fx.king_converted
    result = final.state.result
    assert result is not None and fx.result == result
    assert (result.winner, result.outcome, result.score) == (W, Outcome.KING_CONVERSION, "1-0")
    assert final.state.board[sq("d8")] == piece(B, Kind.KING)  # converted, not captured
    rejected(final.state, EndTurn(), "SG-T106", "already over")


def test_black_converting_white_king_wins_for_black_r18() -> None:
    st = battle("Ke1 qe8 ka8", to_move=B, king_damage=(19, 0))
    result = attack(st, "e8", "e1").state.result
    assert result is not None and (result.winner, result.score) == (B, "0-1")


def test_king_miss_leaves_damage_unchanged() -> None:
    st = battle("Qd1 kd8 Ke1", king_damage=(0, 19))
    step = attack(st, "d1", "d8", MISS)
    assert step.state.player(B).king_damage == 19 and step.state.result is None


def test_attack_against_king_with_king_value_still_uses_king_formula_r09() -> None:
    """R09 table choice changes only the King's own value; vs the King the threshold is 10 × A."""
    st = battle("Ke4 ke5", ruleset=parse_ruleset("king_value=2"))
    fx = attack(st, "e4", "e5").effects
    assert (fx.cost, fx.threshold, fx.king_damage) == (2 * 2 + 1, 20, 1)


def test_illegal_attack_changes_nothing() -> None:
    st = battle("Ra3 pa5 Ke1 ke8")
    assert not isinstance(apply(st, Attack(sq("a3"), sq("a5"), (10, 10))), Applied)
    assert funds(st, W) == (100, 0)
