"""Movement: chess geometry, blockers, knights and the King, and Move cost (core §3, R06, R07, R09)."""

from __future__ import annotations

import pytest

from sgcheck.core.actions import Move, Part
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Kind, Phase, piece
from sgcheck.core.ruleset import parse_ruleset
from sgcheck.core.squares import ALL_SQUARES, Square, name
from sgcheck.core.state import GameState

from .helpers import B, W, funds, ok, position, rejected, sq

VALUE = {Kind.PAWN: 1, Kind.KNIGHT: 3, Kind.BISHOP: 3, Kind.ROOK: 5, Kind.QUEEN: 9}  # core §3


def _delta(a: Square, b: Square) -> tuple[int, int]:
    return b % 8 - a % 8, b // 8 - a // 8


def _slides(kind: Kind, a: Square, b: Square) -> bool:
    """Chess lines on an empty board: ranks/files (Rook), diagonals (Bishop), both (Queen)."""
    df, dr = _delta(a, b)
    if (df, dr) == (0, 0):
        return False
    straight = df == 0 or dr == 0
    diagonal = abs(df) == abs(dr)
    return {Kind.ROOK: straight, Kind.BISHOP: diagonal, Kind.QUEEN: straight or diagonal}[kind]


def _is_jump(a: Square, b: Square) -> bool:
    df, dr = _delta(a, b)
    return {abs(df), abs(dr)} == {1, 2}


def _legal_targets(st: GameState, frm: Square) -> dict[Square, int]:
    """Every square the piece on ``frm`` can Move to, with the cost the engine charged."""
    out: dict[Square, int] = {}
    for to in ALL_SQUARES:
        step = ok_or_none(st, Move(frm, to))
        if step is not None:
            assert step.effects.cost is not None
            out[to] = step.effects.cost
    return out


def ok_or_none(st: GameState, action: Move) -> Applied | None:
    step = apply(st, action)
    return step if isinstance(step, Applied) else None


def _lone(letter: str, where: str, color: Color = W) -> GameState:
    """One piece on an otherwise empty board (Kings tucked in corners, out of the way)."""
    kings = "Ka1 kh8" if where not in ("a1", "h8") else "Kb1 kg8"
    spec = f"{letter if color is W else letter.lower()}{where} {kings}"
    return position(spec, lp=100, to_move=color)


@pytest.mark.parametrize("kind", [Kind.ROOK, Kind.BISHOP, Kind.QUEEN])
@pytest.mark.parametrize("where", ["d4", "a1", "h5", "c7"])
def test_sliding_geometry_and_cost_value_plus_distance_core_s3_r06(kind: Kind, where: str) -> None:
    """core §3 / R06: chess lines; Move cost = value + squares travelled."""
    st = _lone(kind.letter, where)
    frm = sq(where)
    kings = {s for s, p in enumerate(st.board) if p is not None and p.kind is Kind.KING}
    expected = {
        to: VALUE[kind] + max(abs(d) for d in _delta(frm, to))
        for to in ALL_SQUARES
        if _slides(kind, frm, to) and to not in kings and not _king_in_between(frm, to, kings)
    }
    assert _legal_targets(st, frm) == expected


def _king_in_between(a: Square, b: Square, kings: set[int]) -> bool:
    df, dr = _delta(a, b)
    n = max(abs(df), abs(dr))
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    return any((a % 8 + sf * i) + 8 * (a // 8 + sr * i) in kings for i in range(1, n))


def test_guide_move_examples_core_s3() -> None:
    """guide: a Rook moving 3 squares costs 5+3 = 8; a Queen shifting 2 squares costs 9+2 = 11."""
    st = position("Ke1 Ra1 Qd1 ke8", lp=100)
    assert ok(st, Move(sq("a1"), sq("a4"))).effects.cost == 8
    assert ok(st, Move(sq("d1"), sq("f3"))).effects.cost == 11


@pytest.mark.parametrize(
    ("spec", "frm", "to", "blocker"),
    [
        ("Ra1 pa3", "a1", "a5", "a3"),  # enemy piece in the way
        ("Ra1 Pa3", "a1", "a5", "a3"),  # friendly piece in the way
        ("Rh4 Nd4", "h4", "a4", "d4"),
        ("Bc1 pe3", "c1", "g5", "e3"),
        ("Bf8 Pd6", "f8", "a3", "d6"),
        ("Qd1 Pd2", "d1", "d8", "d2"),
        ("Qd1 nf3", "d1", "h5", "f3"),
        ("Qd4 pb2 Pc3", "d4", "a1", "c3"),  # the first blocker is named
    ],
)
def test_sliding_path_must_be_clear_r104_r06(spec: str, frm: str, to: str, blocker: str) -> None:
    """R06: sliding pieces need a clear path; the blocking square is named (SG-R104)."""
    st = position(f"{spec} Kh1 kh8", lp=100)
    v = rejected(st, Move(sq(frm), sq(to)), "SG-R104", f"blocked at {blocker}", part=Part.TARGET)
    assert "R06" in v.diagnostic.rules


def test_sliding_stops_short_of_a_blocker_r06() -> None:
    """R06: squares before the first blocker stay reachable."""
    st = position("Ra1 pa5 Kh1 kh8")
    assert ok(st, Move(sq("a1"), sq("a4"))).effects.cost == 5 + 3


@pytest.mark.parametrize("letter", ["R", "r", "N", "k"])
def test_destination_must_be_empty_moving_never_captures_r105_r06(letter: str) -> None:
    """core §3 / R06: moving never captures; the destination must be empty (friend or foe)."""
    occupant = f"{letter}a4" if letter != "k" else "ka4"
    st = position(f"Ra1 {occupant} Kh1 {'kh8' if letter != 'k' else ''}".strip())
    rejected(st, Move(sq("a1"), sq("a4")), "SG-R105", "a4", "moving never captures", part=Part.TARGET)


# --- pawns -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("color", "frm", "one", "two"), [(W, "e2", "e3", "e4"), (B, "d7", "d6", "d5")])
def test_pawn_one_or_two_from_second_rank_r06(color: Color, frm: str, one: str, two: str) -> None:
    """R06: a Pawn steps 1 forward, or 2 from its own second rank; cost 1 + distance."""
    st = _lone("P", frm, color)
    assert _legal_targets(st, sq(frm)) == {sq(one): 2, sq(two): 3}


@pytest.mark.parametrize(("color", "frm", "one"), [(W, "e3", "e4"), (W, "b1", "b2"), (B, "d6", "d5"), (B, "g8", "g7")])
def test_pawn_double_step_only_from_second_rank_r06(color: Color, frm: str, one: str) -> None:
    """R06: off its second rank a Pawn moves exactly one square forward."""
    st = _lone("P", frm, color)
    assert _legal_targets(st, sq(frm)) == {sq(one): 2}
    f, r = sq(frm) % 8, sq(frm) // 8
    two = Square(f + 8 * (r + (2 if color is W else -2)))
    rejected(st, Move(sq(frm), two), "SG-R103", "only from its own second rank")


@pytest.mark.parametrize(
    ("color", "frm", "to"),
    [(W, "e4", "d5"), (W, "e4", "f5"), (W, "e4", "e3"), (W, "e4", "d4"), (B, "e5", "d4"), (B, "e5", "e6")],
)
def test_pawn_never_moves_diagonally_sideways_or_back_r06(color: Color, frm: str, to: str) -> None:
    """R06: when moving a Pawn goes straight forward only (diagonals are for attacking)."""
    rejected(_lone("P", frm, color), Move(sq(frm), sq(to)), "SG-R103", "straight forward")


def test_pawn_diagonal_onto_enemy_is_not_a_move_either_r06() -> None:
    """core §3: movement and capturing are separate; a diagonal step onto an enemy is not a Move."""
    st = position("Pe4 nd5 Ka1 kh8")
    rejected(st, Move(sq("e4"), sq("d5")), "SG-R103")


def test_pawn_double_step_needs_both_squares_empty_r06() -> None:
    """R06: two squares from the second rank, with both squares empty."""
    blocked_middle = position("Pe2 ne3 Ka1 kh8")
    rejected(blocked_middle, Move(sq("e2"), sq("e4")), "SG-R104", "e3")
    blocked_end = position("Pe2 ne4 Ka1 kh8")
    rejected(blocked_end, Move(sq("e2"), sq("e4")), "SG-R105", "e4")
    assert ok(blocked_end, Move(sq("e2"), sq("e3"))).effects.cost == 2


def test_pawn_on_last_rank_does_not_promote_and_cannot_move_r06() -> None:
    """R06: no promotion — a Pawn reaching the far rank stays a Pawn and has nowhere to go."""
    st = position("Pe7 Ka1 kh1")
    st = ok(st, Move(sq("e7"), sq("e8"))).state
    assert st.board[sq("e8")] == piece(W, Kind.PAWN)
    st = position("Pe8 Ka1 kh1")
    assert _legal_targets(st, sq("e8")) == {}


# --- knights (R07) -----------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["d4", "a1", "g7", "b2"])
def test_knight_one_or_two_jumps_cost_3_or_6_r07(where: str) -> None:
    """R07: a Knight's Move is 1 or 2 knight jumps at 3 per jump (not value + distance)."""
    st = _lone("N", where)
    frm = sq(where)
    kings = {s for s, p in enumerate(st.board) if p is not None and p.kind is Kind.KING}
    one = {to for to in ALL_SQUARES if _is_jump(frm, to)}
    two = {to for m in one if m not in kings for to in ALL_SQUARES if _is_jump(m, to)} - one - {frm}
    expected = {to: 3 for to in one - kings} | {to: 6 for to in two - kings}
    assert _legal_targets(st, frm) == expected


def test_knight_two_jumps_with_an_explicit_middle_square_r07() -> None:
    """R07: b1-d2-c4 and b1-a3-c4 are both two knight jumps; each costs 6."""
    st = position("Nb1 Ke1 ke8")
    for via in ("d2", "a3"):
        step = ok(st, Move(sq("b1"), sq("c4"), via=sq(via)))
        assert step.effects.cost == 6
        assert step.state.board[sq("c4")] == piece(W, Kind.KNIGHT)
        assert step.state.board[sq("b1")] is None


@pytest.mark.parametrize("occupant", ["Pd2", "pd2"])
def test_knight_middle_square_must_be_empty_r104_r07(occupant: str) -> None:
    """R07: the square between two jumps must be empty — a named occupied ``via`` is SG-R104."""
    st = position(f"Nb1 {occupant} Ke1 ke8")
    v = rejected(st, Move(sq("b1"), sq("c4"), via=sq("d2")), "SG-R104", "d2", "occupied", part=Part.VIA)
    assert "R07" in v.diagnostic.rules
    # without a stated middle the free one (a3) is used
    assert ok(st, Move(sq("b1"), sq("c4"))).effects.cost == 6


def test_knight_every_middle_blocked_r104_r07() -> None:
    """R07: with no free middle square, two jumps are impossible; every blocker is named."""
    st = position("Nb1 Pd2 pa3 Ke1 ke8")
    rejected(st, Move(sq("b1"), sq("c4")), "SG-R104", "d2", "a3", part=Part.TARGET)


@pytest.mark.parametrize(("to", "via"), [("c4", "c3"), ("c4", "b3"), ("c3", "d2"), ("d5", "a3")])
def test_knight_via_must_be_a_knight_path_r103_r07(to: str, via: str) -> None:
    """R07: ``via`` must be one knight jump from the start and one from the destination."""
    st = position("Nb1 Ke1 ke8")
    rejected(st, Move(sq("b1"), sq(to), via=sq(via)), "SG-R103", "not two knight jumps", part=Part.VIA)


@pytest.mark.parametrize("to", ["b2", "e1", "h8", "d3"])
def test_knight_beyond_two_jumps_r103_r07(to: str) -> None:
    """core §3: distance can never exceed the piece's legal move distance (2 jumps)."""
    st = position("Nb1 Kh1 ka8")
    rejected(st, Move(sq("b1"), sq(to)), "SG-R103", f"cannot reach {to}", "1 or 2 jumps")


def test_only_knights_name_a_middle_square_r07() -> None:
    st = position("Ra1 Ke1 ke8")
    rejected(st, Move(sq("a1"), sq("a3"), via=sq("a2")), "SG-R103", "middle square", part=Part.VIA)


# --- the King (R09) ----------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["e4", "a1", "h5"])
def test_king_one_square_any_direction_cost_1_r09(where: str) -> None:
    """R09: the King moves one square in any direction for 1 (distance only, it has no value)."""
    other = "kh8" if where != "h5" else "ka8"
    st = position(f"K{where} {other}")
    frm = sq(where)
    expected = {to: 1 for to in ALL_SQUARES if max(abs(d) for d in _delta(frm, to)) == 1}
    assert _legal_targets(st, frm) == expected


@pytest.mark.parametrize("to", ["e3", "g1", "c1", "c3"])
def test_king_two_squares_or_castling_is_r103_r09(to: str) -> None:
    """R09 / R06: one square only — no castling."""
    st = position("Ke1 Rh1 Ra1 ke8")
    v = rejected(st, Move(sq("e1"), sq(to)), "SG-R103", "one square")
    assert "R09" in v.diagnostic.rules


def test_king_move_with_house_rule_king_value_r09() -> None:
    """R09 table choice: with king_value=4 the King moves as a piece of value 4 (4 + 1)."""
    st = position("Ke1 ke8", ruleset=parse_ruleset("king_value=4"))
    assert ok(st, Move(sq("e1"), sq("e2"))).effects.cost == 5


# --- whose piece, what is claimed, and payment --------------------------------------------------


def test_moving_needs_a_piece_r101() -> None:
    st = position("Ke1 ke8")
    rejected(st, Move(sq("a1"), sq("a2")), "SG-R101", "no piece on a1", part=Part.PIECE)


def test_moving_an_enemy_piece_is_r102() -> None:
    st = position("Ke1 ke8 ra8")
    rejected(st, Move(sq("a8"), sq("a5")), "SG-R102", "belongs to the opponent", part=Part.PIECE)


def test_claimed_kind_must_match_r101() -> None:
    st = position("Ke1 Ba1 ke8")
    rejected(st, Move(sq("a1"), sq("a2"), kind=Kind.ROOK), "SG-R101", "not a Rook", part=Part.PIECE)


def test_a_move_must_leave_its_square_r103() -> None:
    st = position("Ke1 Qd4 ke8")
    rejected(st, Move(sq("d4"), sq("d4")), "SG-R103", "must leave")


def test_move_cost_is_charged_and_piece_relocated_core_s3() -> None:
    """core §3: Move cost = value + distance, here a Bishop 3 + 4 = 7, paid from LP (no SP)."""
    st = position("Ke1 Bc1 ke8", lp=20)
    after = ok(st, Move(sq("c1"), sq("g5"))).state
    assert funds(after, W) == (13, 0)
    assert after.board[sq("g5")] == piece(W, Kind.BISHOP) and after.board[sq("c1")] is None
    assert after.turn.actions == 1


def test_unaffordable_move_is_r106_r05() -> None:
    """R05: a cost larger than LP + SP is illegal: Queen 9 + 7 = 16 with 10 LP + 5 SP."""
    st = position("Ke1 Qa1 ke8", lp=10, sp=5)
    rejected(st, Move(sq("a1"), sq("a8")), "SG-R106", "costs 16", "= 15")


@pytest.mark.parametrize("phase", [Phase.MAIN1, Phase.MAIN2])
def test_move_in_either_main_phase_core_s2(phase: Phase) -> None:
    st = position("Ke1 ke8", phase=phase)
    assert ok(st, Move(sq("e1"), sq("d1"))).effects.cost == 1


def test_square_names_round_trip() -> None:
    assert [name(s) for s in (sq("a1"), sq("h1"), sq("a8"), sq("h8"))] == ["a1", "h1", "a8", "h8"]
