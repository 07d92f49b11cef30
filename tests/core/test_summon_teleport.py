"""Summoning and Teleport: windows, limits, camp, and placement cost (core §5, R09, R12, R13)."""

from __future__ import annotations

from typing import Any

import pytest

from sgcheck.core.actions import Part, Summon, Teleport
from sgcheck.core.pieces import NON_KING_KINDS, Color, Kind, Phase, piece
from sgcheck.core.squares import ALL_SQUARES, Square, name
from sgcheck.core.state import GameState, initial_state

from .helpers import B, W, funds, ok, position, rejected, sq

VALUE = {Kind.PAWN: 1, Kind.KNIGHT: 3, Kind.BISHOP: 3, Kind.ROOK: 5, Kind.QUEEN: 9}  # core §3

#: The standard chess layout (core §5 "one of its starting squares").
STARTING_FILES = {
    Kind.ROOK: "ah",
    Kind.KNIGHT: "bg",
    Kind.BISHOP: "cf",
    Kind.QUEEN: "d",
    Kind.PAWN: "abcdefgh",
}


def starting(color: Color, kind: Kind) -> list[Square]:
    back, front = ("1", "2") if color is W else ("8", "7")
    rank = front if kind is Kind.PAWN else back
    return [sq(f + rank) for f in STARTING_FILES[kind]]


def expected_placement_cost(color: Color, kind: Kind, to: Square) -> int:
    """core §5 / R12: value + 5, plus the smallest |Δx|+|Δy| from a starting square of that kind."""
    extra = min(abs(s % 8 - to % 8) + abs(s // 8 - to // 8) for s in starting(color, kind))
    return VALUE[kind] + 5 + extra


def camp(color: Color) -> list[Square]:
    return [s for s in ALL_SQUARES if (s // 8 < 4) == (color is W)]


def upkeep(spec: str = "Ke1 ke8", **kw: Any) -> GameState:
    kw.setdefault("lp", 100)
    return position(spec, phase=Phase.UPKEEP, **kw)


# --- Summon ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "where", "cost"),
    [
        (Kind.PAWN, "e2", 6),
        (Kind.KNIGHT, "g1", 8),
        (Kind.BISHOP, "c1", 8),
        (Kind.ROOK, "a1", 10),
        (Kind.QUEEN, "d1", 14),
    ],
)
def test_summon_on_starting_square_costs_value_plus_5_core_s5(kind: Kind, where: str, cost: int) -> None:
    """core §5: Summon onto a free starting square costs value + 5 (guide: Queen to d1 for 14)."""
    st = initial_state(sq("e1"), sq("e8"))
    step = ok(st, Summon(kind, sq(where)))
    assert step.effects.cost == cost == VALUE[kind] + 5
    after = step.state
    assert after.board[sq(where)] == piece(W, kind)
    assert after.player(W).gem[piece(W, kind).index] == st.player(W).gem[piece(W, kind).index] - 1
    assert funds(after, W) == (20 - cost, 0)
    assert after.turn.summoned and after.turn.actions == 1


def test_guide_queen_to_h3_costs_20_r12() -> None:
    """guide / R12: Queen to h3: 9 + 5 + |h−d| 4 + |3−1| 2 = 20."""
    st = upkeep()
    assert ok(st, Summon(Kind.QUEEN, sq("h3"))).effects.cost == 20
    # Black's Queen mirrored: d8 → h6
    assert ok(upkeep(to_move=B), Summon(Kind.QUEEN, sq("h6"))).effects.cost == 20


@pytest.mark.parametrize("color", list(Color))
@pytest.mark.parametrize("kind", NON_KING_KINDS)
def test_extended_placement_cost_everywhere_in_camp_r12(color: Color, kind: Kind) -> None:
    """R12: anywhere in your camp, cost = value + 5 + min |Δx|+|Δy| from the kind's starting squares."""
    kings = "Ka1 kh8" if color is W else "Kh1 ka8"
    st = upkeep(kings, to_move=color, lp=200)
    king_squares = {s for s, p in enumerate(st.board) if p is not None}
    for to in camp(color):
        if to in king_squares:
            continue
        step = ok(st, Summon(kind, to))
        assert step.effects.cost == expected_placement_cost(color, kind, to), name(to)


@pytest.mark.parametrize(("color", "where"), [(W, "e5"), (W, "a8"), (B, "e4"), (B, "h1")])
def test_summon_only_inside_own_camp_r110(color: Color, where: str) -> None:
    """core §5: placement must be within your camp (ranks 1-4 White, 5-8 Black)."""
    v = rejected(
        upkeep(to_move=color),
        Summon(Kind.PAWN, sq(where)),
        "SG-R110",
        where,
        "1-4" if color is W else "5-8",
        part=Part.TARGET,
    )
    assert "R12" in v.diagnostic.rules


def test_summon_square_must_be_free_r105() -> None:
    rejected(upkeep("Ke1 Ra1 ke8"), Summon(Kind.ROOK, sq("a1")), "SG-R105", "a1", part=Part.TARGET)
    rejected(upkeep("Ke1 ke8"), Summon(Kind.QUEEN, sq("e1")), "SG-R105", "e1")


def test_one_summon_per_upkeep_t104_r12() -> None:
    st = ok(upkeep(), Summon(Kind.PAWN, sq("a2"))).state
    v = rejected(st, Summon(Kind.PAWN, sq("b2")), "SG-T104", "one Summon")
    assert "R12" in v.diagnostic.rules


def test_king_cannot_be_summoned_r108_r09() -> None:
    """R09: the King is never in a Gem."""
    rejected(upkeep("Kh4 ke8"), Summon(Kind.KING, sq("e1")), "SG-R108", "King", part=Part.PIECE)


def test_only_own_pieces_in_own_gem_r109_r12() -> None:
    """R12: captured enemy pieces stay in the Gem; with both own Knights on the board none can be
    summoned even though White's Gem holds a Black Knight."""
    st = upkeep("Ke1 Nb1 Ng1 ke8", captured={W: {Kind.KNIGHT: 1}})
    assert st.player(W).gem[piece(B, Kind.KNIGHT).index] == 1
    v = rejected(st, Summon(Kind.KNIGHT, sq("c3")), "SG-R109", "White Knight", part=Part.PIECE)
    assert "R12" in v.diagnostic.rules


def test_summon_while_own_gem_broken_r111_core_s6() -> None:
    """core §6 / R12: a broken Gem cannot Summon until repaired."""
    rejected(upkeep(gem_broken=(True, False)), Summon(Kind.PAWN, sq("a2")), "SG-R111", "broken")
    # the *enemy's* Gem being broken does not stop you
    assert ok(upkeep(gem_broken=(False, True)), Summon(Kind.PAWN, sq("a2"))).effects.cost == 6


def test_summon_must_be_affordable_r106() -> None:
    st = upkeep(lp=13, sp=0)
    rejected(st, Summon(Kind.QUEEN, sq("d1")), "SG-R106", "costs 14")
    assert funds(ok(upkeep(lp=10, sp=4), Summon(Kind.QUEEN, sq("d1"))).state, W) == (0, 0)


def test_black_summons_into_ranks_5_to_8() -> None:
    st = upkeep(to_move=B)
    step = ok(st, Summon(Kind.PAWN, sq("c7")))
    assert step.effects.cost == 6
    assert step.state.board[sq("c7")] == piece(B, Kind.PAWN)
    assert ok(st, Summon(Kind.PAWN, sq("c5"))).effects.cost == 8  # two ranks from c7


# --- Teleport ----------------------------------------------------------------------------------


def end_phase(spec: str, **kw: Any) -> GameState:
    kw.setdefault("lp", 100)
    return position(spec, phase=Phase.END, **kw)


def test_teleport_same_cost_as_summon_r13() -> None:
    """core §5 / R13: Teleport uses the Summon cost: Queen from e6 to h3 costs 20, to d1 14."""
    st = end_phase("Qe6 Ke1 ke8")
    step = ok(st, Teleport(sq("e6"), sq("h3")))
    assert step.effects.cost == 20
    assert step.state.board[sq("h3")] == piece(W, Kind.QUEEN) and step.state.board[sq("e6")] is None
    assert funds(step.state, W) == (80, 0)
    assert ok(st, Teleport(sq("e6"), sq("d1"))).effects.cost == 14


@pytest.mark.parametrize("kind", NON_KING_KINDS)
def test_teleport_cost_matches_placement_rule_everywhere_r13(kind: Kind) -> None:
    st = end_phase(f"{kind.letter.lower()}e6 Kh8 ka8", to_move=B, lp=200)
    for to in camp(B):
        if st.board[to] is None:
            assert ok(st, Teleport(sq("e6"), to)).effects.cost == expected_placement_cost(B, kind, to), name(to)


def test_teleport_once_per_end_t104_r13() -> None:
    st = ok(end_phase("Ra3 Nb3 Ke1 ke8"), Teleport(sq("a3"), sq("a1"))).state
    v = rejected(st, Teleport(sq("b3"), sq("b1")), "SG-T104", "one Teleport")
    assert "R13" in v.diagnostic.rules


def test_king_cannot_teleport_r108_r13() -> None:
    v = rejected(end_phase("Ke3 ke8"), Teleport(sq("e3"), sq("e1")), "SG-R108", "King", part=Part.PIECE)
    assert "R13" in v.diagnostic.rules


def test_teleport_only_within_own_camp_r110() -> None:
    rejected(end_phase("Ra3 Ke1 ke8"), Teleport(sq("a3"), sq("a5")), "SG-R110", "a5", part=Part.TARGET)


def test_teleport_destination_must_be_free_r105() -> None:
    rejected(end_phase("Ra3 Nb1 Ke1 ke8"), Teleport(sq("a3"), sq("b1")), "SG-R105", "b1", part=Part.TARGET)
    rejected(end_phase("Ra3 Ke1 ke8"), Teleport(sq("a3"), sq("a3")), "SG-R105", "a3")


def test_teleport_needs_own_piece_on_board_r13() -> None:
    st = end_phase("Ke1 ke8 ra6")
    rejected(st, Teleport(sq("a6"), sq("a1")), "SG-R102", part=Part.PIECE)
    rejected(st, Teleport(sq("a5"), sq("a1")), "SG-R101", "no piece on a5", part=Part.PIECE)


@pytest.mark.parametrize("phase", [Phase.UPKEEP, Phase.MAIN1, Phase.BATTLE, Phase.MAIN2])
def test_teleport_end_only_t103(phase: Phase) -> None:
    rejected(position("Ra3 Ke1 ke8", phase=phase), Teleport(sq("a3"), sq("a1")), "SG-T103", "End")


def test_teleport_a_piece_from_enemy_camp_home() -> None:
    """A piece deep in enemy territory can be pulled back to a starting square for value + 5."""
    st = end_phase("Nf6 Ke1 ke8")
    assert ok(st, Teleport(sq("f6"), sq("g1"))).effects.cost == 8
