"""Scenarios in the core (R24-R26): the start they build, the first player, the turn limit, and
every kind of win condition, each decided by its named predicate at the moment its kind says."""

from __future__ import annotations

import pytest

from sgcheck.core.actions import Attack, Break, EndTurn, EnterPhase, Move, Repair, Summon
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Kind, Outcome, Phase
from sgcheck.core.play.victory import (
    PREDICATES,
    at_turn_limit,
    condition_status,
    scenario_start,
    turn_limit_result,
)
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import (
    MarkerSet,
    Scenario,
    SideSetup,
    Timing,
    WinCondition,
    WinKind,
    army_excess,
    can_end,
    never_holds,
)
from sgcheck.core.state import GameState, initial_state

from .helpers import HIT, MISS, ROLL_3, ROLL_18, sq

W, B = Color.WHITE, Color.BLACK
ROOK: tuple[int, int, int, int, int] = (0, 0, 0, 1, 0)
SIEGE = WinCondition(WinKind.BREAK_AND_CAPTURE)


def start(scenario: Scenario, ruleset: Ruleset = CORE) -> GameState:
    return initial_state(sq("e1"), sq("e8"), ruleset, scenario)


def ok(state: GameState, *actions: object) -> GameState:
    for action in actions:
        step = apply(state, action)  # type: ignore[arg-type]
        assert isinstance(step, Applied), (action, step)
        state = step.state
    return state


def to_phase(phase: Phase) -> EnterPhase:
    return EnterPhase(phase)


def turn(state: GameState) -> GameState:
    """End the turn of the player to move (a Pass if nothing was done)."""
    return ok(state, EndTurn())


# --- the start ---------------------------------------------------------------------------------


def test_a_scenario_sets_resources_gems_and_pieces() -> None:
    """R24, R25: LP and SP per side; the Gem is the usual reserve, less the pieces on the board and
    those held by the enemy, plus the enemy pieces written as captured."""
    siege = Scenario(
        "s",
        sides=(
            SideSetup(lp=25, sp=10, captured=ROOK, pieces=((sq("a3"), Kind.ROOK),)),
            SideSetup(sp=10, captured=ROOK),
        ),
    )
    state = start(siege)
    white, black = state.players
    assert (white.lp, white.sp, black.lp, black.sp) == (25, 10, 20, 10)
    # White: 2 Rooks, one on a3 and one held by Black, so none in its own Gem; one Black Rook captured
    assert siege.own_pieces(W) == (8, 2, 2, 0, 1) and siege.own_pieces(B) == (8, 2, 2, 1, 1)
    assert white.gem[3] == 0 and white.gem[6 + 3] == 1
    assert state.board[sq("a3")] is not None and state.board[sq("e1")] is not None
    assert siege.army(W) == (8, 2, 2, 2, 1)  # no piece created or lost (core §1)


def test_the_scenario_places_a_king_where_it_says() -> None:
    """R24: a King written in the scenario stands there, whatever square the log would give."""
    scenario = Scenario("k", sides=(SideSetup(pieces=((sq("a1"), Kind.KING),)), SideSetup()))
    state = start(scenario)
    assert state.king_square(W) == sq("a1") and state.board[sq("e1")] is None


def test_without_a_scenario_the_start_is_the_cores() -> None:
    """R01, R02: nothing about a game without a scenario changes."""
    state = initial_state(sq("e1"), sq("e8"))
    assert state.scenario is None and state.to_move is W and state.players[0].sp == 0


def test_black_first_plays_1_dots_then_white_2_with_no_first_turn_income() -> None:
    """R24: a scenario may let Black take the first turn; turns keep their order (Black 1...,
    White 2., Black 2...), and each player's first turn has no income (core §6, R14)."""
    scenario = Scenario("b", sides=(SideSetup(captured=ROOK), SideSetup(captured=ROOK)), first=B)
    state = start(scenario)
    assert (state.turn_number, state.to_move) == (1, B)
    state = turn(state)
    assert (state.turn_number, state.to_move, state.turn.income) == (2, W, 0)
    state = turn(state)
    assert (state.turn_number, state.to_move, state.turn.income) == (2, B, 10)
    state = turn(state)
    assert (state.turn_number, state.to_move, state.turn.income) == (3, W, 10)


# --- the turn limit and its tiebreak (R18) --------------------------------------------------------


@pytest.mark.parametrize("first", [W, B])
def test_the_turn_limit_gives_each_player_as_many_turns(first: Color) -> None:
    """R18, R24: with a limit of 2 the game ends after the second player's second turn."""
    state = start(Scenario("t", first=first, turn_limit=2), Ruleset(turn_limit=2))
    for _ in range(3):
        assert not at_turn_limit(state)
        state = turn(state)
    assert state.to_move is first.other and state.mover.turns_started == 2 and at_turn_limit(state)
    state = turn(state)
    assert state.result is not None and state.result.outcome is Outcome.TURN_LIMIT


def test_tiebreak_king_damage_then_score_then_draw() -> None:
    """R18: King damage dealt decides; then the score; then a draw."""
    state = start(Scenario("t"), Ruleset(turn_limit=1))
    hurt = state.with_player(B, state.player(B).replace(king_damage=3))
    result = turn_limit_result(hurt)
    assert result.winner is W and "King damage dealt 3 to 0" in result.detail
    richer = state.with_player(W, state.player(W).replace(lp=21))
    result = turn_limit_result(richer)
    assert result.winner is W and "score 21 to 20" in result.detail
    result = turn_limit_result(state)
    assert result.winner is None and result.score == "1/2-1/2"


# --- break_and_capture (Gem Siege, R25) -----------------------------------------------------------


def siege_position() -> GameState:
    """White's Rook on a4 next to a Black Pawn on a5; both sides rich enough for both deeds."""
    scenario = Scenario(
        "siege",
        sides=(
            SideSetup(lp=100, sp=60, captured=ROOK, pieces=((sq("a4"), Kind.ROOK),)),
            SideSetup(lp=100, sp=60, captured=ROOK, pieces=((sq("a5"), Kind.PAWN), (sq("h5"), Kind.PAWN))),
        ),
        conditions=(SIEGE,),
    )
    return start(scenario)


def test_break_then_capture_wins_at_the_capture() -> None:
    """R25: the Break on turn 1, the capture on a later turn; the game ends at the capture."""
    state = siege_position()
    state = ok(state, Break(ROLL_18))
    assert state.scenario is not None and state.scenario.broke == (True, False) and state.result is None
    state = turn(turn(state))  # Black passes
    state = ok(state, to_phase(Phase.BATTLE), Attack(sq("a4"), sq("a5"), HIT))
    assert state.result is not None
    assert (state.result.winner, state.result.outcome) == (W, Outcome.SCENARIO)
    assert "breaking Black's Gem and capturing a piece" in state.result.detail


def test_capture_then_break_wins_at_the_break() -> None:
    """R25: in either order; a failed Break is not a break."""
    state = siege_position()
    state = ok(state, to_phase(Phase.BATTLE), Attack(sq("a4"), sq("a5"), HIT))
    assert state.scenario is not None and state.scenario.captured == (True, False) and state.result is None
    state = turn(turn(state))
    state = ok(state, Break(ROLL_3))
    assert state.result is None  # failed: 3 on 3d6
    state = turn(turn(state))
    step = apply(state, Break(ROLL_18))
    assert isinstance(step, Applied) and step.state.result is not None and step.effects.result is not None
    assert step.state.result.winner is W


def test_a_repair_does_not_undo_a_break_and_a_gem_at_the_start_is_no_capture() -> None:
    """R25: 'at any point in the game': the enemy repairing changes nothing; the enemy Rook the
    scenario puts in the Gem was not captured in this game."""
    state = siege_position()
    assert state.scenario is not None and state.scenario.captured == (False, False)
    state = ok(state, Break(ROLL_18))
    state = turn(state)
    state = ok(state, Repair(ROLL_18))
    assert not state.player(B).gem_broken
    state = turn(state)
    state = ok(state, to_phase(Phase.BATTLE), Attack(sq("a4"), sq("a5"), HIT))
    assert state.result is not None and state.result.winner is W


def test_only_the_sides_a_condition_names_win_by_it() -> None:
    """R24: side: black means White's break and capture win nothing."""
    state = siege_position()
    assert state.scenario is not None
    scenario = state.scenario.scenario
    black_only = Scenario(scenario.name, scenario.sides, conditions=(WinCondition(WinKind.BREAK_AND_CAPTURE, (B,)),))
    state = start(black_only)
    state = ok(state, Break(ROLL_18), to_phase(Phase.BATTLE), Attack(sq("a4"), sq("a5"), HIT))
    assert state.result is None


# --- hold_markers (Wellsprings, R26) ---------------------------------------------------------------

WELLS = MarkerSet("wells", (sq("c3"), sq("f3"), sq("c6"), sq("f6")), (W, W, B, B))


def wells_position(core: bool = True) -> GameState:
    """White Knights one jump from Black's Wellsprings c6 and f6."""
    scenario = Scenario(
        "wells",
        sides=(SideSetup(lp=50, pieces=((sq("d4"), Kind.KNIGHT), (sq("g4"), Kind.KNIGHT))), SideSetup(lp=50)),
        markers=(WELLS,),
        conditions=(WinCondition(WinKind.HOLD_MARKERS, markers="wells"),),
        core_victory=core,
    )
    return start(scenario)


def test_holding_every_enemy_wellspring_wins_at_the_end_of_the_turn_not_before() -> None:
    """R26: a side wins when its pieces stand on all of the enemy's Wellsprings at the end of a turn."""
    state = wells_position()
    state = ok(state, to_phase(Phase.MAIN1), Move(sq("d4"), sq("c6")), Move(sq("g4"), sq("f6")))
    assert state.result is None  # not yet: the turn has not ended
    assert PREDICATES[WinKind.HOLD_MARKERS](state, W, WinCondition(WinKind.HOLD_MARKERS, markers="wells"))
    step = apply(state, EndTurn())
    assert isinstance(step, Applied) and step.state.result is not None
    assert (step.state.result.winner, step.state.result.outcome) == (W, Outcome.SCENARIO)
    assert step.state.to_move is W  # the game ended in White's End: no Black turn began


def test_one_wellspring_of_two_is_not_enough_and_own_markers_do_not_count() -> None:
    """R26: every one of the enemy's markers; standing on one's own does nothing."""
    state = wells_position()
    state = ok(state, to_phase(Phase.MAIN1), Move(sq("d4"), sq("c6")))
    state = turn(state)
    assert state.result is None
    statuses = {s.side: s for s in condition_status(state)}
    assert statuses[W].progress == "holds 1 of 2 (c6)" and not statuses[W].met
    assert statuses[B].progress == "holds 0 of 2 (none)"


def test_a_neutral_set_must_be_held_whole() -> None:
    """R24: a neutral set belongs to nobody: a side holds it by standing on all of its markers."""
    centre = MarkerSet("centre", (sq("d4"), sq("e4")), (None, None))
    assert centre.to_hold(W) == centre.to_hold(B) == (sq("d4"), sq("e4"))
    assert WELLS.to_hold(W) == (sq("c6"), sq("f6")) and WELLS.to_hold(B) == (sq("c3"), sq("f3"))


# --- captured_value ----------------------------------------------------------------------------------


def test_captured_value_wins_after_the_action_that_reaches_it() -> None:
    """R24: the enemy pieces in the side's Gem worth N or more, checked after every action; the
    captured pieces a scenario starts with count (a Rook is 5, so 6 needs one Pawn more)."""
    scenario = Scenario(
        "value",
        sides=(
            SideSetup(lp=50, captured=ROOK, pieces=((sq("a4"), Kind.ROOK),)),
            SideSetup(pieces=((sq("a5"), Kind.PAWN),)),
        ),
        conditions=(WinCondition(WinKind.CAPTURED_VALUE, (W,), value=6),),
    )
    state = start(scenario)
    state = ok(state, to_phase(Phase.BATTLE), Attack(sq("a4"), sq("a5"), MISS))
    assert state.result is None
    state = ok(state, Attack(sq("a4"), sq("a5"), HIT))
    assert state.result is not None and "reaching captured value 6" in state.result.detail


def test_a_value_the_start_already_holds_wins_before_the_first_turn() -> None:
    """R24: a condition checked at any time that the starting position meets has been won at the
    start of play (the checker warns of such a scenario, SG-P036)."""
    value = WinCondition(WinKind.CAPTURED_VALUE, value=5)
    scenario = Scenario("won", sides=(SideSetup(), SideSetup(captured=ROOK)), conditions=(value,))
    state = scenario_start(start(scenario))
    assert state.result is not None and state.result.winner is B and state.result.turn_number == 1
    assert scenario_start(start(Scenario("plain"))).result is None


# --- the core's win conditions on and off ----------------------------------------------------------


def test_with_the_core_off_a_king_at_20_damage_is_not_converted() -> None:
    """R24: core: false replaces King conversion (and 1000 LP); King damage still adds up."""
    for core in (True, False):
        white = SideSetup(lp=50, pieces=((sq("e6"), Kind.ROOK),))
        rook = start(Scenario("k", sides=(white, SideSetup()), core_victory=core))
        rook = rook.with_player(B, rook.player(B).replace(king_damage=19))
        after = ok(rook, to_phase(Phase.BATTLE), Attack(sq("e6"), sq("e8"), HIT))
        assert after.player(B).king_damage == 20
        assert (after.result is not None) is core


def test_with_the_core_off_1000_lp_does_not_win() -> None:
    """core §7, R24: the 1000 LP victory is one of the core's win conditions."""
    for core in (True, False):
        state = start(Scenario("lp", sides=(SideSetup(lp=999), SideSetup()), core_victory=core, turn_limit=5))
        state = turn(state)  # a Pass: 999 + 6
        assert (state.result is not None) is core


def test_a_scenario_game_without_conditions_plays_as_the_core() -> None:
    """R24: a scenario that only sets a position changes nothing else."""
    scenario = Scenario("plain", sides=(SideSetup(pieces=((sq("a2"), Kind.PAWN),)), SideSetup()))
    state = start(scenario)
    state = ok(state, Summon(Kind.QUEEN, sq("d1")))
    assert state.result is None and state.scenario is not None


# --- what can be known without playing -------------------------------------------------------------


def test_army_excess_counts_the_board_and_both_gems() -> None:
    """core §1, R24: three White Rooks (one on the board, two held by Black) are one too many."""
    scenario = Scenario("x", sides=(SideSetup(pieces=((sq("a1"), Kind.ROOK),)), SideSetup(captured=(0, 0, 0, 2, 0))))
    assert list(army_excess(scenario)) == [(W, Kind.ROOK, 3)]
    assert list(army_excess(Scenario("ok"))) == []


def test_conditions_that_can_never_hold() -> None:
    """R24: pieces are never created, so captures and markers are bounded by the armies."""
    tiny = Scenario("t", sides=(SideSetup(own=(0, 0, 0, 1, 0)), SideSetup(own=(0, 0, 0, 0, 0))), markers=(WELLS,))
    assert never_holds(tiny, SIEGE, W) is not None  # Black has nothing but its King
    assert never_holds(tiny, SIEGE, B) is None
    assert "worth 5" in (never_holds(tiny, WinCondition(WinKind.CAPTURED_VALUE, value=6), B) or "")
    assert never_holds(tiny, WinCondition(WinKind.HOLD_MARKERS, markers="wells"), W) is None  # King and Rook: 2
    assert "only 1 piece" in (never_holds(tiny, WinCondition(WinKind.HOLD_MARKERS, markers="wells"), B) or "")
    assert not can_end(Scenario("never", core_victory=False))
    assert can_end(Scenario("limit", core_victory=False, turn_limit=3))


def test_each_kind_has_its_predicate_and_its_timing() -> None:
    """The vocabulary is data: one predicate per kind, checked at any time or at the end of a turn."""
    assert set(PREDICATES) == set(WinKind)
    assert WinCondition(WinKind.HOLD_MARKERS, markers="m").timing is Timing.END_OF_TURN
    assert WinCondition(WinKind.BREAK_AND_CAPTURE).timing is Timing.ANY_TIME
    assert WinCondition(WinKind.CAPTURED_VALUE, value=1).timing is Timing.ANY_TIME
