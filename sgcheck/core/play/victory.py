"""Victory and tiebreaks (core §7, R18), and the win conditions of a scenario (R24-R26).

A scenario's win conditions are data (:class:`~sgcheck.core.scenario.WinCondition`); each kind
is decided by one named predicate of :data:`PREDICATES`, looked at when its kind says
(:data:`~sgcheck.core.scenario.TIMING`): after every action, or at the end of every turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from sgcheck.core import caps
from sgcheck.core.formulas import value_of
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import BLACK, NON_KING_KINDS, Color, Outcome, piece
from sgcheck.core.scenario import ScenarioPlay, Timing, WinCondition, WinKind
from sgcheck.core.squares import name
from sgcheck.core.state import GameResult, GameState


def game_over_rules(result: GameResult) -> tuple[str, ...]:
    """The rules that ended the game: King conversion (core §4.4, R11), a scenario's win
    condition (R24), or core §7 and R18."""
    if result.outcome is Outcome.KING_CONVERSION:
        return ("core §4.4", "core §7", "R11", "R18")
    if result.outcome is Outcome.SCENARIO:
        return ("core §7", "R24")
    return ("core §7", "R18")


def core_victory(state: GameState) -> bool:
    """The core's win conditions apply: always, unless the game's scenario replaces them (R24)."""
    return state.scenario is None or state.scenario.scenario.core_victory


def reaches_lp_victory(state: GameState) -> bool:
    """The player to move has 1000 LP (core §7)."""
    return state.players[state.to_move].lp >= caps.LP_VICTORY and core_victory(state)


def lp_victory(state: GameState) -> tuple[GameState, GameResult | None]:
    """Reaching 1000 LP wins at once (core §7)."""
    if state.result is None and reaches_lp_victory(state):
        result = GameResult(
            state.to_move,
            Outcome.LP_1000,
            state.turn_number,
            f"{state.to_move.title} wins by reaching {caps.LP_VICTORY} LP "
            f"on {state.to_move.title}'s turn {state.turn_number}",
        )
        return state.replace(result=result), result
    return state, None


def captured_value(state: GameState, color: Color) -> int:
    """The value of the enemy pieces in ``color``'s Gem (core §7's captured value; Kings count 0)."""
    rs = state.ruleset
    gem = state.player(color).gem
    return sum(gem[piece(color.other, k).index] * value_of(k, rs) for k in NON_KING_KINDS)


def score(state: GameState, color: Color) -> int:
    """Tiebreak score (core §7, R18): captured value and on-board value, each times its weight in
    :mod:`sgcheck.core.caps` (``TIEBREAK_CAPTURED_WEIGHT``, ``TIEBREAK_BOARD_WEIGHT``), plus LP and SP;
    Kings count 0."""
    rs = state.ruleset
    on_board = sum(
        value_of(p.kind, rs) for p in state.board if p is not None and p.color is color and p.kind in NON_KING_KINDS
    )
    player = state.player(color)
    return (
        caps.TIEBREAK_CAPTURED_WEIGHT * captured_value(state, color)
        + caps.TIEBREAK_BOARD_WEIGHT * on_board
        + player.lp
        + player.sp
    )


def at_turn_limit(state: GameState) -> bool:
    """The turn ending now is the last one: the second player's turn that completes the limit (R18).

    Each player has then played as many turns as the limit says: under the core the game ends
    after Black's turn N; in a scenario where Black plays first, after White's N-th turn.
    """
    limit = state.ruleset.turn_limit
    if limit is None:
        return False
    if state.scenario is None:
        return state.to_move is BLACK and state.turn_number >= limit
    return state.to_move is state.scenario.scenario.second and state.mover.turns_started >= limit


def turn_limit_result(state: GameState) -> GameResult:
    """More King damage dealt wins; then the higher score; then a draw (R18)."""
    dealt = {c: state.player(c.other).king_damage for c in Color}
    n = state.turn_number
    limit = state.ruleset.turn_limit or n
    if dealt[Color.WHITE] != dealt[Color.BLACK]:
        winner = max(Color, key=lambda c: dealt[c])
        detail = (
            f"{winner.title} wins at the turn limit ({limit}) on King damage dealt "
            f"{dealt[winner]} to {dealt[winner.other]}"
        )
        return GameResult(winner, Outcome.TURN_LIMIT, n, detail)
    scores = {c: score(state, c) for c in Color}
    if scores[Color.WHITE] != scores[Color.BLACK]:
        winner = max(Color, key=lambda c: scores[c])
        detail = (
            f"{winner.title} wins at the turn limit ({limit}): King damage tied at {dealt[winner]}, "
            f"score {scores[winner]} to {scores[winner.other]}"
        )
        return GameResult(winner, Outcome.TURN_LIMIT, n, detail)
    return GameResult(
        None,
        Outcome.TURN_LIMIT,
        n,
        f"draw at the turn limit ({limit}): King damage and score tied ({scores[Color.WHITE]})",
    )


# --- scenario win conditions (R24) ---------------------------------------------------------------


def broke_and_captured(state: GameState, side: Color, condition: WinCondition) -> bool:
    """Gem Siege (R25): ``side`` has broken the enemy Gem and captured an enemy piece, each at some
    point of the game (in either order; a Repair since then changes nothing)."""
    play = state.scenario
    return play is not None and play.broke[side] and play.captured[side]


def holds_markers(state: GameState, side: Color, condition: WinCondition) -> bool:
    """Wellsprings (R26): a piece of ``side`` stands on every marker it is to hold."""
    play = state.scenario
    markers = play.scenario.marker_set(condition.markers or "") if play is not None else None
    if markers is None:
        return False
    squares = markers.to_hold(side)
    board = state.board
    return bool(squares) and all((p := board[sq]) is not None and p.color is side for sq in squares)


def reaches_captured_value(state: GameState, side: Color, condition: WinCondition) -> bool:
    """The value of the enemy pieces in ``side``'s Gem is at least the condition's number."""
    return condition.value is not None and captured_value(state, side) >= condition.value


#: The predicate that decides each kind of win condition.
PREDICATES: dict[WinKind, Callable[[GameState, Color, WinCondition], bool]] = {
    WinKind.BREAK_AND_CAPTURE: broke_and_captured,
    WinKind.HOLD_MARKERS: holds_markers,
    WinKind.CAPTURED_VALUE: reaches_captured_value,
}


def _enemy_pieces(state: GameState, side: Color) -> int:
    gem = state.player(side).gem
    return sum(gem[piece(side.other, k).index] for k in NON_KING_KINDS)


def _remembered(before: GameState, after: GameState, play: ScenarioPlay) -> ScenarioPlay:
    """What the conditions remember, brought up to date with one action: a side whose enemy's
    Gem became broken broke it (R15); a side with more enemy pieces in its Gem captured one."""
    broke, captured = list(play.broke), list(play.captured)
    for side in Color:
        if not broke[side] and after.player(side.other).gem_broken and not before.player(side.other).gem_broken:
            broke[side] = True
        if not captured[side] and _enemy_pieces(after, side) > _enemy_pieces(before, side):
            captured[side] = True
    if (tuple(broke), tuple(captured)) == (play.broke, play.captured):
        return play
    return play._replace(broke=(broke[0], broke[1]), captured=(captured[0], captured[1]))


def _first_met(state: GameState, timing: Timing) -> GameResult | None:
    """The first condition of ``timing`` that a side meets: the player to move's first (they made
    it happen), then in the order the scenario lists them."""
    play = state.scenario
    assert play is not None
    for side in (state.to_move, state.to_move.other):
        for condition in play.scenario.conditions:
            if (
                condition.timing is timing
                and side in condition.sides
                and PREDICATES[condition.kind](state, side, condition)
            ):
                detail = (
                    f"{side.title} wins by {condition.describe(side)} "
                    f"on {state.to_move.title}'s turn {state.turn_number} (scenario {play.scenario.name})"
                )
                return GameResult(side, Outcome.SCENARIO, state.turn_number, detail)
    return None


def scenario_after(before: GameState, applied: Applied) -> Applied:
    """After an action in a scenario game: remember breaks and captures, then look at the
    conditions checked at any time; the first one met ends the game (R24, R25)."""
    state = applied.state
    play = state.scenario
    assert play is not None
    remembered = _remembered(before, state, play)
    if remembered is not play:
        state = state.replace(scenario=remembered)
    if state.result is None:
        result = _first_met(state, Timing.ANY_TIME)
        if result is not None:
            return Applied(state.replace(result=result), applied.effects.replace(result=result))
    return applied if state is applied.state else Applied(state, applied.effects)


def scenario_start(state: GameState) -> GameState:
    """The start of play in a scenario game: a condition checked at any time that the starting
    position already meets has been won before the first turn (the checker warns of it, SG-P036)."""
    if state.scenario is None or state.result is not None:
        return state
    result = _first_met(state, Timing.ANY_TIME)
    return state if result is None else state.replace(result=result)


def scenario_end_of_turn(state: GameState) -> GameResult | None:
    """At the end of a turn: the first condition checked then that a side meets (R24, R26)."""
    return _first_met(state, Timing.END_OF_TURN)


class ConditionStatus(NamedTuple):
    """Where a side stands on one win condition (the replay summary shows it)."""

    condition: WinCondition
    side: Color
    met: bool
    progress: str  # ``broke the Gem: yes · captured: no``, ``holds c6 of c6 f6``, ``captured value 5 of 15``


def condition_status(state: GameState) -> Iterator[ConditionStatus]:
    """Each side's standing on each win condition of the game's scenario, in the scenario's order."""
    play = state.scenario
    if play is None:
        return
    for condition in play.scenario.conditions:
        for side in condition.sides:
            met = PREDICATES[condition.kind](state, side, condition)
            yield ConditionStatus(condition, side, met, _progress(state, play, condition, side))


def _progress(state: GameState, play: ScenarioPlay, condition: WinCondition, side: Color) -> str:
    if condition.kind is WinKind.BREAK_AND_CAPTURE:
        yes = {True: "yes", False: "no"}
        return f"broke {side.other.title}'s Gem: {yes[play.broke[side]]} · captured a piece: {yes[play.captured[side]]}"
    if condition.kind is WinKind.HOLD_MARKERS:
        markers = play.scenario.marker_set(condition.markers or "")
        squares = markers.to_hold(side) if markers is not None else ()
        held = [sq for sq in squares if (p := state.board[sq]) is not None and p.color is side]
        shown = " ".join(name(sq) for sq in held) or "none"
        return f"holds {len(held)} of {len(squares)} ({shown})"
    return f"captured value {captured_value(state, side)} of {condition.value}"
