"""Board geometry: how pieces travel and what they reach (core §3, R06-R09).

Pure functions over a board tuple. Each answers either with a :class:`Route`
(the distance travelled, and for two-jump knight moves the middle square) or
with a :class:`GeometryError` saying why not, in words a player understands.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from sgcheck.core.actions import Part
from sgcheck.core.pieces import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, Kind, Piece, piece
from sgcheck.core.record import pickle_by_fields
from sgcheck.core.squares import ALL_SQUARES, Square, file_of, forward, name, on_board, rank_of, second_rank, square

Board = tuple[Piece | None, ...]

_KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_ROOK_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
SLIDE_DIRS: dict[Kind, tuple[tuple[int, int], ...]] = {
    ROOK: _ROOK_DIRS,
    BISHOP: _BISHOP_DIRS,
    QUEEN: _ROOK_DIRS + _BISHOP_DIRS,
}
_SLIDE_WORDS = {
    ROOK: "along ranks and files",
    BISHOP: "along diagonals",
    QUEEN: "along ranks, files and diagonals",
}


def _steps_table(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[Square, ...], ...]:
    table = []
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        table.append(tuple(square(f + df, r + dr) for df, dr in steps if on_board(f + df, r + dr)))
    return tuple(table)


KNIGHT_JUMPS = _steps_table(_KNIGHT_STEPS)
KING_STEPS = _steps_table(_KING_STEPS)


class Route(NamedTuple):
    distance: int
    via: Square | None = None


#: ``_STEPS[n]`` is ``Route(n)``, built once: replay asks for these for nearly every action.
_STEPS: tuple[Route, ...] = tuple(Route(n) for n in range(9))


@dataclass(frozen=True, slots=True)
class GeometryError:
    code: str
    message: str
    part: Part
    rules: tuple[str, ...]


def _describe(board: Board, sq: Square) -> str:
    occupant = board[sq]
    return f"{name(sq)} ({occupant})" if occupant else name(sq)


def _line_table() -> tuple[tuple[bool, tuple[Square, ...]] | None, ...]:
    """For every (from, to) pair on one rank, file or diagonal: whether the line is diagonal,
    and the squares strictly between; None for other pairs. Indexed ``from * 64 + to``."""
    table: list[tuple[bool, tuple[Square, ...]] | None] = []
    for frm in ALL_SQUARES:
        for to in ALL_SQUARES:
            df, dr = file_of(to) - file_of(frm), rank_of(to) - rank_of(frm)
            if (df == 0 and dr == 0) or (df != 0 and dr != 0 and abs(df) != abs(dr)):
                table.append(None)
                continue
            step_f, step_r = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
            n = max(abs(df), abs(dr))
            between = tuple(square(file_of(frm) + step_f * i, rank_of(frm) + step_r * i) for i in range(1, n))
            table.append((df != 0 and dr != 0, between))
    return tuple(table)


_LINES = _line_table()


def _ray(frm: Square, to: Square, kind: Kind) -> tuple[Square, ...] | None:
    """Squares strictly between ``frm`` and ``to`` if ``kind`` slides that way, else None."""
    line = _LINES[frm * 64 + to]
    if line is None:
        return None
    diagonal, between = line
    if (kind is ROOK and diagonal) or (kind is BISHOP and not diagonal):
        return None
    return between


def _first_blocker(board: Board, squares: tuple[Square, ...]) -> Square | None:
    for s in squares:
        if board[s] is not None:
            return s
    return None


def _knight_middles(frm: Square, to: Square) -> list[Square]:
    return [m for m in KNIGHT_JUMPS[frm] if to in KNIGHT_JUMPS[m]]


@dataclass(frozen=True, slots=True)
class _KnightReach:
    """What a knight route that fails is reported as: the code of a square out of reach, that of
    a middle square taken, and the rules they cite."""

    reach_code: str
    blocked_code: str
    rules: tuple[str, ...]


#: A Move's knight route (R07): out of reach SG-R103, a middle square taken SG-R104.
_MOVE_REACH = _KnightReach("SG-R103", "SG-R104", ("core §3", "R07"))
#: An attack's (R08's reach): SG-R107 for both.
_ATTACK_REACH = _KnightReach("SG-R107", "SG-R107", ("core §3", "core §4.1", "R07", "R08"))


def _knight_route(
    board: Board, frm: Square, to: Square, via: Square | None, reach: _KnightReach
) -> Route | GeometryError:
    """One or two knight jumps (R07); the middle square of two jumps must be empty.

    ``reach`` says what a failure is reported as: a Move's, or an attack's, whose reach is R08's."""
    reach_code, rules = reach.reach_code, reach.rules
    if via is not None:
        if via not in KNIGHT_JUMPS[frm] or to not in KNIGHT_JUMPS[via]:
            return GeometryError(
                reach_code, f"{name(frm)}-{name(via)}-{name(to)} is not two knight jumps", Part.VIA, rules
            )
        if board[via] is not None:
            return GeometryError(
                reach.blocked_code,
                f"the square between the two jumps, {_describe(board, via)}, is occupied",
                Part.VIA,
                rules,
            )
        return Route(2, via)
    if to in KNIGHT_JUMPS[frm]:
        return _STEPS[1]
    middles = [m for m in _knight_middles(frm, to) if m != to]
    if not middles:
        return GeometryError(
            reach_code,
            f"a Knight cannot reach {name(to)} from {name(frm)} in 1 or 2 jumps",
            Part.TARGET,
            rules,
        )
    free = [m for m in middles if board[m] is None]
    if not free:
        blocked = ", ".join(_describe(board, m) for m in middles)
        return GeometryError(
            reach.blocked_code,
            f"every square between the two jumps is occupied: {blocked}",
            Part.TARGET,
            rules,
        )
    return Route(2, free[0])


def move_route(board: Board, frm: Square, to: Square, mover: Piece, via: Square | None = None) -> Route | GeometryError:
    """The route of a Move action, or why the piece cannot go there (R06, R07, R09)."""
    if to == frm:
        return GeometryError("SG-R103", "a move must leave its square", Part.TARGET, ("core §3", "R06"))
    kind = mover.kind
    if via is not None and kind is not KNIGHT:
        return GeometryError(
            "SG-R103", "only a two-jump knight move names a middle square", Part.VIA, ("core §3", "R07")
        )
    route: Route | GeometryError
    if kind is KNIGHT:
        route = _knight_route(board, frm, to, via, _MOVE_REACH)
    elif kind is KING:
        route = (
            _STEPS[1]
            if to in KING_STEPS[frm]
            else GeometryError("SG-R103", "the King moves one square in any direction", Part.TARGET, ("core §3", "R09"))
        )
    elif kind is PAWN:
        route = _pawn_move(board, frm, to, mover)
    else:
        between = _ray(frm, to, kind)
        if between is None:
            route = GeometryError(
                "SG-R103", f"a {kind.title} moves {_SLIDE_WORDS[kind]}", Part.TARGET, ("core §3", "R06")
            )
        else:
            blocker = _first_blocker(board, between)
            route = (
                GeometryError(
                    "SG-R104",
                    f"the path is blocked at {_describe(board, blocker)}",
                    Part.TARGET,
                    ("core §3", "R06"),
                )
                if blocker is not None
                else _STEPS[len(between) + 1]
            )
    if isinstance(route, GeometryError):
        return route
    if board[to] is not None:
        return GeometryError(
            "SG-R105",
            f"{_describe(board, to)} is occupied; moving never captures (attack in Battle instead)",
            Part.TARGET,
            ("core §3", "R06"),
        )
    return route


def _pawn_move(board: Board, frm: Square, to: Square, mover: Piece) -> Route | GeometryError:
    step = forward(mover.color)
    df, dr = file_of(to) - file_of(frm), rank_of(to) - rank_of(frm)
    rules = ("core §3", "R06")
    if df == 0 and dr == step:
        return _STEPS[1]
    if df == 0 and dr == 2 * step and rank_of(frm) == second_rank(mover.color):
        middle = square(file_of(frm), rank_of(frm) + step)
        if board[middle] is not None:
            return GeometryError("SG-R104", f"the path is blocked at {_describe(board, middle)}", Part.TARGET, rules)
        return _STEPS[2]
    if df == 0 and dr == 2 * step:
        return GeometryError(
            "SG-R103", "a Pawn may advance two squares only from its own second rank", Part.TARGET, rules
        )
    return GeometryError(
        "SG-R103", "a Pawn moves one square straight forward (two from its second rank)", Part.TARGET, rules
    )


def attack_route(board: Board, frm: Square, to: Square, attacker: Piece) -> Route | GeometryError:
    """How far ``attacker`` reaches to ``to`` (R08), or why it is out of reach.

    The caller has checked that ``to`` holds an enemy piece and that the attacker may attack at all.
    """
    kind = attacker.kind
    rules = ("core §4.1", "R08")
    if kind is PAWN:
        step = forward(attacker.color)
        if abs(file_of(to) - file_of(frm)) == 1 and rank_of(to) - rank_of(frm) == step:
            return _STEPS[1]
        return GeometryError("SG-R107", "a Pawn attacks only one square diagonally forward", Part.TARGET, rules)
    if kind is KNIGHT:
        return _knight_route(board, frm, to, None, _ATTACK_REACH)
    if kind is KING:
        if to in KING_STEPS[frm]:
            return _STEPS[1]
        return GeometryError("SG-R107", "the King reaches only the eight squares around it", Part.TARGET, rules)
    between = _ray(frm, to, kind)
    if between is None:
        return GeometryError("SG-R107", f"a {kind.title} attacks {_SLIDE_WORDS[kind]}", Part.TARGET, rules)
    blocker = _first_blocker(board, between)
    if blocker is not None:
        return GeometryError("SG-R107", f"the path is blocked at {_describe(board, blocker)}", Part.TARGET, rules)
    return _STEPS[len(between) + 1]


def move_destinations(board: Board, frm: Square, mover: Piece) -> Iterator[tuple[Square, Route]]:
    """Every square the piece on ``frm`` can move to with one Move action (for listing legal actions)."""
    kind = mover.kind
    if kind is KNIGHT:
        seen: set[Square] = set()
        for mid in KNIGHT_JUMPS[frm]:
            if board[mid] is None and mid not in seen:
                seen.add(mid)
                yield mid, Route(1)
        for mid in KNIGHT_JUMPS[frm]:
            if board[mid] is not None:
                continue
            for to in KNIGHT_JUMPS[mid]:
                if to != frm and board[to] is None and to not in seen:
                    seen.add(to)
                    yield to, Route(2, mid)
    elif kind is KING:
        for to in KING_STEPS[frm]:
            if board[to] is None:
                yield to, Route(1)
    elif kind is PAWN:
        step = forward(mover.color)
        f, r = file_of(frm), rank_of(frm)
        if on_board(f, r + step) and board[square(f, r + step)] is None:
            yield square(f, r + step), Route(1)
            if r == second_rank(mover.color) and board[square(f, r + 2 * step)] is None:
                yield square(f, r + 2 * step), Route(2)
    else:
        for df, dr in SLIDE_DIRS[kind]:
            f, r, n = file_of(frm) + df, rank_of(frm) + dr, 1
            while on_board(f, r) and board[square(f, r)] is None:
                yield square(f, r), Route(n)
                f, r, n = f + df, r + dr, n + 1


def attack_targets(board: Board, frm: Square, attacker: Piece) -> Iterator[tuple[Square, Route]]:
    """Every enemy-occupied square the piece on ``frm`` reaches (R08)."""

    def enemy(sq: Square) -> bool:
        p = board[sq]
        return p is not None and p.color != attacker.color

    kind = attacker.kind
    if kind is PAWN:
        step = forward(attacker.color)
        for df in (-1, 1):
            f, r = file_of(frm) + df, rank_of(frm) + step
            if on_board(f, r) and enemy(square(f, r)):
                yield square(f, r), Route(1)
    elif kind is KNIGHT:
        seen: set[Square] = set()
        for mid in KNIGHT_JUMPS[frm]:
            if enemy(mid):
                seen.add(mid)
                yield mid, Route(1)
        for mid in KNIGHT_JUMPS[frm]:
            if board[mid] is not None:
                continue
            for to in KNIGHT_JUMPS[mid]:
                if to not in seen and enemy(to):
                    seen.add(to)
                    yield to, Route(2, mid)
    elif kind is KING:
        for to in KING_STEPS[frm]:
            if enemy(to):
                yield to, Route(1)
    else:
        for df, dr in SLIDE_DIRS[kind]:
            f, r, n = file_of(frm) + df, rank_of(frm) + dr, 1
            while on_board(f, r):
                sq = square(f, r)
                if board[sq] is not None:
                    if enemy(sq):
                        yield sq, Route(n)
                    break
                f, r, n = f + df, r + dr, n + 1


# --- reach: how far each kind travels and attacks, worked out once from the rules above ---------

_EMPTY: Board = (None,) * 64


@cache
def move_distances(kind: Kind) -> tuple[int, ...]:
    """The distances one Move of ``kind`` can cover on an empty board, shortest first: 1 and 2
    for a Pawn (two from its second rank) and a Knight (jumps), 1 to 7 for a sliding piece, 1
    for the King (core §3, R06, R07, R09)."""
    mover = piece(WHITE, kind)
    found = {route.distance for frm in ALL_SQUARES for _, route in move_destinations(_EMPTY, frm, mover)}
    return tuple(sorted(found))


@cache
def attack_distances(kind: Kind) -> tuple[int, ...]:
    """The distances ``kind`` attacks from on an empty board, shortest first (R08): 1 for a Pawn,
    1 and 2 jumps for a Knight, 1 to 7 for a sliding piece. The King's are those of a King that may
    attack (1, the table choice of R09); under the core it attacks from none."""
    attacker = piece(WHITE, kind)
    found: set[int] = set()
    for frm in ALL_SQUARES:
        for to in ALL_SQUARES:
            if to != frm:
                route = attack_route(_EMPTY, frm, to, attacker)
                if not isinstance(route, GeometryError):
                    found.add(route.distance)
    return tuple(sorted(found))


@cache
def longest_distance() -> int:
    """The longest distance any piece moves or attacks across (7 squares on the 8×8 board, core §0)."""
    return max(max(move_distances(kind)[-1], attack_distances(kind)[-1]) for kind in Kind)


pickle_by_fields(globals())
