"""The shipped example logs: the guide's worked examples, its walkthrough (R21), a full game,
and one small broken log per diagnostic family."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgcheck.core.formulas import placement_extra
from sgcheck.core.pieces import Color, Kind, Outcome
from sgcheck.lang.logs.ast import AttackStmt, BreakStmt, ClaimKind, MoveStmt, RepairStmt, SummonStmt, Turn
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.source import SourceText, read_source
from sgcheck.replay.interpreter import ReplayResult, replay_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"


def replay_example(name: str) -> ReplayResult:
    source = read_source(EXAMPLES / name, name)
    assert isinstance(source, SourceText)
    return replay_text(source.text, source.name)


@pytest.mark.parametrize(
    ("name", "cost", "threshold"),
    [("guide-example-a.sglog", 12, 60), ("guide-example-b.sglog", 21, 60), ("guide-example-c.sglog", 12, 50)],
)
def test_guide_worked_examples_are_legal_with_their_costs_and_thresholds(name: str, cost: int, threshold: int) -> None:
    """R21: worked examples A, B and C are right (costs 12/21/12, thresholds 60/60/50, core §4.1, §4.2, §4.4)."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    assert f"cost {cost} threshold {threshold}" in text  # the claims the example makes...
    result = replay_example(name)
    assert result.ok, result.diagnostics  # ...are confirmed by replay
    assert result.diagnostics == ()


def test_example_a_capture_moves_the_pawn_to_whites_gem() -> None:
    """core §4.3: a capture puts the piece in the attacker's Gem and pays 5 × value SP."""
    result = replay_example("guide-example-a.sglog")
    assert result.state is not None
    white = result.state.player(Color.WHITE)
    assert (white.lp, white.sp) == (3, 5)
    assert result.state.board[4 * 8 + 0] is None  # a5 is empty again


def test_guide_walkthrough_stops_at_whites_turn_3_attack() -> None:
    """R21: the walkthrough's turn-3 Rook fires at a Pawn that Black never summoned."""
    result = replay_example("guide-walkthrough.sglog")
    assert result.stopped
    [diag] = result.diagnostics
    assert diag.code == "SG-R101"
    assert "no piece on a5" in diag.message
    assert "Black has no Pawn on the board" in diag.message
    assert diag.span is not None and (diag.span.line, diag.span.column) == (17, 25)
    assert dict(diag.context) == {
        "turn": "3",
        "player": "White",
        "phase": "Battle",
        "state before": "White LP 9 SP 0 · Black LP 12 SP 0",  # a refused action has no state after
    }
    # everything before the attack was accepted: five turns, with their claims
    assert result.turns == 5


def test_full_game_is_legal_and_ends_in_king_conversion() -> None:
    result = replay_example("full-game.sglog")
    assert result.ok, result.diagnostics[:3]
    assert result.state is not None and result.state.result is not None
    assert result.state.result.outcome is Outcome.KING_CONVERSION
    assert result.state.result.winner is Color.WHITE
    assert result.state.turn_number >= 30
    assert result.state.player(Color.BLACK).king_damage == 20


def test_full_game_uses_every_core_action() -> None:
    """The full game exercises summons with extended placement (core §5), two-jump knight moves (R07),
    Break and Repair both ways (R15), conversion (R16), teleport (R13), attacks and passes (R04)."""
    source = read_source(EXAMPLES / "full-game.sglog")
    assert isinstance(source, SourceText)
    seen: set[str] = set()
    for item in parse_log(source):
        if not isinstance(item, Turn):
            continue
        for block in item.phases:
            for stmt in block.statements:
                seen.add(type(stmt).__name__)
                claims = {c.kind for c in stmt.claims}
                if isinstance(stmt, SummonStmt) and placement_extra(item.color, stmt.kind, stmt.to.square).value:
                    seen.add("extended summon")
                if isinstance(stmt, MoveStmt) and stmt.piece.kind is Kind.KNIGHT and stmt.via is not None:
                    seen.add("knight double jump")
                if isinstance(stmt, BreakStmt | RepairStmt):
                    seen.add(f"{type(stmt).__name__} {'success' if ClaimKind.SUCCESS in claims else 'fail'}")
                if isinstance(stmt, AttackStmt) and ClaimKind.CAPTURE in claims:
                    seen.add("capture")
    assert seen >= {
        "SummonStmt",
        "MoveStmt",
        "AttackStmt",
        "ConvertStmt",
        "TeleportStmt",
        "PassStmt",
        "extended summon",
        "knight double jump",
        "capture",
        "BreakStmt success",
        "BreakStmt fail",
        "RepairStmt success",
        "RepairStmt fail",
    }


BROKEN = [
    ("syntax-error.sglog", "SG-P001", 6, 26, "expected 'roll'"),
    ("king-outside-camp.sglog", "SG-S103", 2, 12, "must start in White's camp"),
    ("missing-king.sglog", "SG-S104", 4, 1, "before the Black King is placed"),
    ("turn-out-of-order.sglog", "SG-T101", 6, 1, "expected Black's turn 1 (1...)"),
    ("phase-order.sglog", "SG-T102", 7, 6, "Main 1 cannot be revisited after Main 2"),
    ("wrong-phase.sglog", "SG-T103", 5, 13, "Summon is only allowed in Upkeep"),
    ("activation-limit.sglog", "SG-T105", 8, 13, "at most 2 card activations"),
    ("game-over.sglog", "SG-T106", 9, 1, "the game is already over"),
    ("illegal-move.sglog", "SG-R103", 6, 22, "a Rook moves along ranks and files"),
    ("path-blocked.sglog", "SG-R104", 8, 22, "blocked at a2 (White Pawn)"),
    ("illegal-capture.sglog", "SG-R107", 18, 25, "the path is blocked at a5 (Black Pawn)"),  # docs/disputes.md
    ("cannot-afford.sglog", "SG-R106", 11, 14, "the attack costs 20 (2×Queen 9 + distance 2)"),
    ("conversion-cap.sglog", "SG-R113", 7, 21, "at most 20 SP may be converted per turn"),
    ("wrong-cost.sglog", "SG-R201", 6, 25, "the move costs 7 (Rook 5 + distance 2), not 6"),
    ("wrong-totals.sglog", "SG-R203", 5, 34, "LP is 10, not 12"),
    ("unfilled-claims.sglog", "SG-R201", 6, 25, "the move costs 7 (Rook 5 + distance 2), not 6"),  # docs/fmt.md
    (
        "wrong-hit.sglog",
        "SG-R204",
        15,
        14,
        "wrong claim: d100 roll 61 misses, the log says hit (61 > threshold 60 = 20 + 10×(Rook 5 − Pawn 1))",
    ),
    ("wrong-income.sglog", "SG-R208", 5, 21, "none on a player's first turn"),
    ("wrong-pass.sglog", "SG-R209", 6, 11, "not a Pass: White took 1 action"),
    ("wrong-result.sglog", "SG-R210", 7, 1, "the game has not ended"),
    ("every-kind-of-line.sglog", "SG-R209", 20, 11, "not a Pass: Black took 1 action"),  # docs/log-format.md
    ("wrong-dice.sglog", "SG-D103", 26, 34, "roll 1 (accuracy) is 8 4 by sg-dice-v1, the log says 3 4"),  # docs/dice.md
    ("withheld-secret.sglog", "SG-D106", 12, 1, "the game is over and Black does not reveal [BlackSecret]"),  # DR1
]


@pytest.mark.parametrize(("name", "code", "line", "column", "fragment"), BROKEN)
def test_broken_log_reports_its_family_code(name: str, code: str, line: int, column: int, fragment: str) -> None:
    result = replay_example(f"broken/{name}")
    errors = [d for d in result.diagnostics if d.is_error]
    assert errors, f"{name} replayed clean"
    first = errors[0]
    assert first.code == code
    assert fragment in first.message
    assert first.span is not None and (first.span.line, first.span.column) == (line, column)
    assert not result.ok


def test_every_broken_example_is_covered() -> None:
    on_disk = {p.name for p in (EXAMPLES / "broken").glob("*.sglog")}
    assert on_disk == {name for name, *_ in BROKEN}
