"""Victory and tiebreaks (core §7, R18)."""

from __future__ import annotations

from sgcheck.core import caps
from sgcheck.core.formulas import value_of
from sgcheck.core.pieces import NON_KING_KINDS, Color, Outcome, piece
from sgcheck.core.state import GameResult, GameState


def game_over_rules(result: GameResult) -> tuple[str, ...]:
    """The rules that ended the game: King conversion (core §4.4, R11) or core §7 and R18."""
    if result.outcome is Outcome.KING_CONVERSION:
        return ("core §4.4", "core §7", "R11", "R18")
    return ("core §7", "R18")


def reaches_lp_victory(state: GameState) -> bool:
    """The player to move has 1000 LP (core §7)."""
    return state.mover.lp >= caps.LP_VICTORY


def lp_victory(state: GameState) -> tuple[GameState, GameResult | None]:
    """Reaching 1000 LP wins at once (core §7)."""
    if state.result is None and reaches_lp_victory(state):
        result = GameResult(
            state.to_move,
            Outcome.LP_1000,
            state.turn_number,
            f"{state.to_move.title} wins by reaching {caps.LP_VICTORY} LP on turn {state.turn_number}",
        )
        return state._replace(result=result), result
    return state, None


def score(state: GameState, color: Color) -> int:
    """Tiebreak score = captured value×3 + on-board value×2 + LP + SP; Kings count 0 (core §7, R18)."""
    rs = state.ruleset
    captured = sum(
        state.player(color).gem[piece(color.other, k).index] * value_of(k, rs) for k in NON_KING_KINDS
    )
    on_board = sum(
        value_of(p.kind, rs)
        for p in state.board
        if p is not None and p.color is color and p.kind in NON_KING_KINDS
    )
    player = state.player(color)
    return (
        caps.TIEBREAK_CAPTURED_WEIGHT * captured
        + caps.TIEBREAK_BOARD_WEIGHT * on_board
        + player.lp
        + player.sp
    )


def turn_limit_result(state: GameState) -> GameResult:
    """More King damage dealt wins; then the higher score; then a draw (R18)."""
    dealt = {c: state.player(c.other).king_damage for c in Color}
    n = state.turn_number
    if dealt[Color.WHITE] != dealt[Color.BLACK]:
        winner = max(Color, key=lambda c: dealt[c])
        detail = (
            f"{winner.title} wins at the turn limit ({n}) on King damage dealt "
            f"{dealt[winner]} to {dealt[winner.other]}"
        )
        return GameResult(winner, Outcome.TURN_LIMIT, n, detail)
    scores = {c: score(state, c) for c in Color}
    if scores[Color.WHITE] != scores[Color.BLACK]:
        winner = max(Color, key=lambda c: scores[c])
        detail = (
            f"{winner.title} wins at the turn limit ({n}): King damage tied at {dealt[winner]}, "
            f"score {scores[winner]} to {scores[winner.other]}"
        )
        return GameResult(winner, Outcome.TURN_LIMIT, n, detail)
    return GameResult(
        None,
        Outcome.TURN_LIMIT,
        n,
        f"draw at the turn limit ({n}): King damage and score tied ({scores[Color.WHITE]})",
    )
