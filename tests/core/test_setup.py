"""Setup: King placement, the roll-off, the draft and the starting position (core §1, R01, R02, R19)."""

from __future__ import annotations

import pytest

from sgcheck.core.actions import Part
from sgcheck.core.pieces import NON_KING_KINDS, PIECES, SET_COUNTS, Color, Kind, Phase, piece
from sgcheck.core.setup import check_draft, check_king_placement, check_rolloff, rolloff_winner
from sgcheck.core.squares import ALL_SQUARES, Square, in_camp, name
from sgcheck.core.state import initial_state, piece_census
from sgcheck.replay.interpreter import ReplayResult, replay_text

from .helpers import B, W, full_census, sq


def _rank(square: Square) -> int:
    return square // 8 + 1  # 1..8, as written on the board


@pytest.mark.parametrize("color", list(Color))
@pytest.mark.parametrize("square", ALL_SQUARES, ids=name)
def test_king_starts_anywhere_in_own_camp_core_s1(color: Color, square: Square) -> None:
    """core §1.2 / R01: a King starts in its own camp, ranks 1-4 for White, 5-8 for Black."""
    allowed = _rank(square) <= 4 if color is W else _rank(square) >= 5
    found = list(check_king_placement(color, square))
    assert in_camp(square, color) is allowed
    if allowed:
        assert found == []
    else:
        assert [v.diagnostic.code for v in found] == ["SG-S103"]
        assert name(square) in found[0].diagnostic.message
        assert ("1-4" if color is W else "5-8") in found[0].diagnostic.message
        assert found[0].part is Part.TARGET


@pytest.mark.parametrize(
    ("white", "black", "winner"),
    [
        ((6, 6, 6), (1, 1, 1), W),
        ((1, 2, 3), (2, 2, 3), B),
        ((1, 1, 1), (1, 1, 2), B),
        ((4, 4, 4), (6, 5, 1), None),  # 12 v 12: a tie is rerolled
        ((6, 6, 6), (6, 6, 6), None),
    ],
)
def test_rolloff_higher_total_chooses_ties_reroll_core_s1_5(
    white: tuple[int, int, int], black: tuple[int, int, int], winner: Color | None
) -> None:
    """core §1.5 / R01: 3d6 each, the higher total chooses; a tie has no winner (reroll)."""
    assert rolloff_winner(white, black) is winner
    assert list(check_rolloff(white, black)) == []


@pytest.mark.parametrize(
    ("white", "black", "fragment"),
    [
        ((0, 3, 3), (3, 3, 3), "0 is not a possible face"),
        ((3, 3, 3), (3, 7, 3), "7 is not a possible face"),
        ((3, 3), (3, 3, 3), "needs 3 dice"),
        ((3, 3, 3), (3, 3, 3, 3), "needs 3 dice"),
    ],
)
def test_rolloff_is_three_d6_core_s1_5(white: tuple[int, ...], black: tuple[int, ...], fragment: str) -> None:
    """core §1.5: the roll-off is three six-sided dice per player."""
    found = list(check_rolloff(white, black))
    assert len(found) == 1
    assert found[0].diagnostic.code == "SG-R114"
    assert fragment in found[0].diagnostic.message


@pytest.mark.parametrize("kept", [0, 1, 2, 3])
def test_draft_keeps_at_most_three_r19(kept: int) -> None:
    """R19: draw 5 keep 3; the hand limit is 3."""
    assert list(check_draft(W, tuple(f"card{i}" for i in range(kept)))) == []


@pytest.mark.parametrize("kept", [4, 5])
def test_draft_over_hand_limit_is_s105_r19(kept: int) -> None:
    """R19: keeping more than 3 (e.g. the guide's Double Draft, keep 4) breaks the hand limit."""
    found = list(check_draft(B, tuple(f"card{i}" for i in range(kept))))
    assert [v.diagnostic.code for v in found] == ["SG-S105"]
    assert f"keeps {kept} cards" in found[0].diagnostic.message
    assert "hand limit is 3" in found[0].diagnostic.message


def test_initial_state_r01_r02() -> None:
    """core §1 / R01 / R02: only both Kings on the board, 20 LP, 0 SP, 15 pieces in own Gem, White first."""
    st = initial_state(sq("c2"), sq("f7"))
    on_board = {name(s): st.board[s] for s in ALL_SQUARES if st.board[s] is not None}
    assert on_board == {"c2": piece(W, Kind.KING), "f7": piece(B, Kind.KING)}
    assert st.to_move is W and st.turn_number == 1 and st.turn.phase is Phase.UPKEEP
    assert st.result is None
    for color in Color:
        player = st.player(color)
        assert (player.lp, player.sp) == (20, 0)
        assert not player.gem_broken and player.king_damage == 0
        own = {k: player.gem[piece(color, k).index] for k in NON_KING_KINDS}
        assert own == {k: SET_COUNTS[k] for k in NON_KING_KINDS}
        assert sum(own.values()) == 15
        assert player.gem[piece(color, Kind.KING).index] == 0  # the King is never in a Gem
        assert all(player.gem[piece(color.other, k).index] == 0 for k in Kind)
    assert piece_census(st) == full_census()
    assert len(PIECES) == 12


# --- setup order as replay enforces it (R01) ------------------------------------------------------


def _replay(body: str) -> ReplayResult:
    return replay_text('[Ruleset "core"]\n' + body, "setup.sglog")


def _codes(result: ReplayResult) -> list[str]:
    return [d.code for d in result.diagnostics if d.is_error]


def test_complete_setup_replays_clean_r01() -> None:
    """R01: draft, roll-off (a tie rerolled), Kings, then White's first turn."""
    result = _replay(
        'draft white "A" "B" "C"\ndraft black "D" "E" "F"\n'
        "rolloff white 3 3 3 black 4 4 1\nrolloff white 6 5 4 black 1 1 1\n"
        "king white e1\nking black e8\n1. end: pass lp 26\n"
    )
    assert result.ok, result.diagnostics
    assert result.state is not None and result.state.to_move is B


@pytest.mark.parametrize(
    ("body", "code", "fragment"),
    [
        ("king white e1\nking black e8\nrolloff white 6 6 6 black 1 1 1\n", "SG-S101", "before the Kings"),
        (
            'rolloff white 6 6 6 black 1 1 1\ndraft white "A"\nking white e1\nking black e8\n',
            "SG-S101",
            "draft",
        ),
        ("rolloff white 6 6 6 black 1 1 1\nrolloff white 2 2 2 black 1 1 1\n", "SG-S101", "only a tie"),
        ("rolloff white 3 3 3 black 4 4 1\nking white e1\nking black e8\n1. end: pass\n", "SG-S102", "tie"),
        ("king white e5\nking black e8\n", "SG-S103", "e5"),
        ("king white e1\nking black e4\n", "SG-S103", "e4"),
        ("king white e1\nking white e2\nking black e8\n", "SG-S101", "placed twice"),
        ("king white e1\n1. end: pass\n", "SG-S104", "Black"),
        ('draft white "A" "B" "C" "D"\nking white e1\nking black e8\n', "SG-S105", "hand limit"),
    ],
)
def test_setup_order_and_placement_in_replay_r01(body: str, code: str, fragment: str) -> None:
    """R01 (setup order), core §1 (camps, 3d6 roll-off with rerolled ties), R19 (hand limit)."""
    result = _replay(body)
    assert code in _codes(result)
    message = next(d.message for d in result.diagnostics if d.code == code)
    assert fragment in message
