"""Victory and tiebreaks: King conversion, 1000 LP, the turn limit, and play after the end (core §7, R18)."""

from __future__ import annotations

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
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.pieces import Color, Kind, Outcome, Phase
from sgcheck.core.play.victory import score
from sgcheck.core.ruleset import parse_ruleset
from sgcheck.core.state import GameResult, GameState, TurnState, initial_state

from .helpers import HIT, ROLL_18, B, W, end_turn, ok, play, position, rejected, sq


def _result(st: GameState) -> GameResult:
    assert st.result is not None, "the game should be over"
    return st.result


# --- King conversion (core §7 primary) ---------------------------------------------------------


def test_king_conversion_is_a_win_r18() -> None:
    st = position("Qd1 kd8 Ke1", phase=Phase.BATTLE, lp=100, king_damage=(0, 19))
    result = _result(ok(st, Attack(sq("d1"), sq("d8"), HIT)).state)
    assert (result.winner, result.outcome, result.score) == (W, Outcome.KING_CONVERSION, "1-0")
    assert "King conversion" in result.detail


# --- 1000 LP (core §7 alternative) -------------------------------------------------------------


def test_reaching_1000_lp_by_pass_wins_r18() -> None:
    st = position("Ke1 ke8", phase=Phase.END, lp=994)
    step = ok(st, EndTurn())
    result = _result(step.state)
    assert step.effects.result == result
    assert (result.winner, result.outcome, result.score) == (W, Outcome.LP_1000, "1-0")
    assert step.state.player(W).lp == 1000


def test_reaching_1000_lp_by_conversion_wins_at_once_r18() -> None:
    st = position("Ke1 ke8", to_move=B, phase=Phase.MAIN2, lp=(20, 995), sp=(0, 10))
    step = ok(st, Convert(10))
    result = _result(step.state)
    assert step.effects.result == result
    assert (result.winner, result.outcome, result.score) == (B, Outcome.LP_1000, "0-1")
    rejected(step.state, Convert(2), "SG-T106")


def test_999_lp_does_not_win() -> None:
    st = position("Ke1 ke8", phase=Phase.END, lp=993)
    assert end_turn(st).result is None
    st = position("Ke1 ke8", phase=Phase.MAIN2, lp=994, sp=10)
    assert ok(st, Convert(10)).state.result is None


# --- turn limit (core §7 tiebreak, R18) ---------------------------------------------------------


def _limit(n: int, spec: str = "Ke1 ke8", **kw: Any) -> GameState:
    """Black, having acted (no Pass), finishing turn ``n`` of an ``n``-turn scenario."""
    kw.setdefault("turn", TurnState(phase=Phase.END, actions=1))
    return position(spec, to_move=B, turn_number=n, ruleset=parse_ruleset(f"turn_limit={n}"), **kw)


def test_turn_limit_ends_after_blacks_turn_of_the_last_round_r18() -> None:
    """A limit of 1: both players play turn 1, then the game ends (both passed: LP 26 each → draw)."""
    st = initial_state(sq("e1"), sq("e8"), parse_ruleset("turn_limit=1"))
    st = end_turn(st)
    assert st.result is None and st.to_move is B
    st = end_turn(st)
    result = _result(st)
    assert (result.winner, result.outcome, result.score, result.turn_number) == (
        None,
        Outcome.TURN_LIMIT,
        "1/2-1/2",
        1,
    )
    assert "draw" in result.detail
    rejected(st, EnterPhase(Phase.MAIN1), "SG-T106")


def test_no_turn_limit_by_default_core_s7() -> None:
    st = position("Ke1 ke8", to_move=B, turn_number=500, turn=TurnState(phase=Phase.END, actions=1))
    assert end_turn(st).result is None


@pytest.mark.parametrize(("damage", "winner"), [((3, 5), W), ((5, 3), B), ((0, 1), W), ((19, 0), B)])
def test_turn_limit_more_king_damage_dealt_wins_r18(damage: tuple[int, int], winner: Color) -> None:
    """R18: first tiebreak: the player who dealt more King damage (``damage[c]`` is what c's King took),
    whatever the scores say (Black has far more LP here)."""
    st = _limit(10, king_damage=damage, lp=(0, 900))
    result = _result(end_turn(st))
    assert (result.winner, result.outcome) == (winner, Outcome.TURN_LIMIT)
    assert "King damage" in result.detail


def _expected_score(captured: int, board: int, lp: int, sp: int) -> int:
    """core §7: captured value × 3 + board value × 2 + LP + SP."""
    return 3 * captured + 2 * board + lp + sp


@pytest.mark.parametrize(
    ("spec", "captured", "lp", "sp", "winner"),
    [
        # White: captured Knight 3×3 = 9 + 20 LP = 29; Black: Bishop on board 3×2 = 6 + 20 LP = 26
        ("Ke1 ke8 bc8", {W: {Kind.KNIGHT: 1}}, (20, 20), (0, 0), W),
        # Black's Rook on board 5×2 = 10 + 20 = 30 beats 29
        ("Ke1 ke8 ra8", {W: {Kind.KNIGHT: 1}}, (20, 20), (0, 0), B),
        # equal: 9 + 20 vs 2×2 Pawns + 25 LP = 29 → draw
        ("Ke1 ke8 pa7 pb7", {W: {Kind.KNIGHT: 1}}, (20, 25), (0, 0), None),
        # SP counts like LP: 20 + 5 vs 20 + 4
        ("Ke1 ke8", {}, (20, 20), (5, 4), W),
        # a captured Pawn (3) outweighs a Pawn on board (2)
        ("Ke1 ke8 Pa2", {B: {Kind.PAWN: 1}}, (20, 20), (0, 0), B),
    ],
)
def test_turn_limit_score_tiebreak_then_draw_r18(
    spec: str,
    captured: dict[Color, dict[Kind, int]],
    lp: tuple[int, int],
    sp: tuple[int, int],
    winner: Color | None,
) -> None:
    """R18: with King damage tied, score = captured×3 + on-board×2 + LP + SP; equal → draw."""
    st = _limit(7, spec, captured=captured, lp=lp, sp=sp, king_damage=(4, 4))
    result = _result(end_turn(st))
    assert result.winner is winner and result.outcome is Outcome.TURN_LIMIT
    assert result.score == {W: "1-0", B: "0-1", None: "1/2-1/2"}[winner]


def test_score_formula_r18() -> None:
    """R18: captured 2 Pawns + Rook (7) × 3 + Queen and Knight on board (12) × 2 + LP 11 + SP 4 = 60."""
    st = position("Ke1 Qd1 Nb1 ke8 ra8", captured={W: {Kind.PAWN: 2, Kind.ROOK: 1}}, lp=(11, 20), sp=(4, 0))
    assert score(st, W) == _expected_score(7, 12, 11, 4) == 60
    # Black: captured nothing, Rook on board (5 × 2) + 20 LP; White's Gem pieces are not Black's captures
    assert score(st, B) == _expected_score(0, 5, 20, 0)


def test_kings_count_zero_in_score_even_with_king_value_r18() -> None:
    """R18: Kings count 0 — also when the king_value house rule gives them a value."""
    core = position("Ke1 ke8 Ra1")
    house = position("Ke1 ke8 Ra1", ruleset=parse_ruleset("king_value=9"))
    assert score(core, W) == score(house, W) == 2 * 5 + 20


def test_turn_limit_with_pass_counts_the_pass_bonus() -> None:
    """The Pass at the last End comes first (core §2.5), then the tiebreak: Black 20+6 beats White 24."""
    st = _limit(3, lp=(24, 20), turn=TurnState(phase=Phase.END))
    result = _result(end_turn(st))
    assert result.winner is B


# --- play after the game is over (SG-T106) -----------------------------------------------------

AFTER: list[Action] = [
    Summon(Kind.PAWN, sq("a2")),
    Move(sq("e1"), sq("e2")),
    Attack(sq("d1"), sq("d8"), HIT),
    Convert(2),
    Teleport(sq("d1"), sq("d2")),
    Break(ROLL_18),
    Repair(ROLL_18),
    Activate("Soul Ward"),
    EnterPhase(Phase.END),
    EndTurn(),
]


@pytest.mark.parametrize("action", AFTER, ids=lambda a: type(a).__name__)
def test_nothing_is_legal_after_the_game_ends_t106(action: Action) -> None:
    st = position("Qd1 kd8 Ke1", phase=Phase.BATTLE, lp=100, sp=10, king_damage=(0, 19))
    over = ok(st, Attack(sq("d1"), sq("d8"), HIT)).state
    v = rejected(over, action, "SG-T106", "already over", "White wins by King conversion")
    assert "R18" in v.diagnostic.rules


def test_game_not_over_mid_play() -> None:
    st = play(initial_state(sq("e1"), sq("e8")), Summon(Kind.QUEEN, sq("d1")), EndTurn())
    assert st.result is None
