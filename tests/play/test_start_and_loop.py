"""The one set-up and the one loop of sgcheck/play/ (core §1, R01, R18, R19, R24; R04 for the turns).

The set-up's Kings are checked against the rulebook's camps written out here (ranks 1-4 and 5-8),
its roll-off against R01 read by the core's setup check, and the loop's logs against replay, which
shares none of the code that wrote them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.core.actions import Action, EndTurn, Move
from sgcheck.core.outcome import Rejected
from sgcheck.core.pieces import Color, Kind
from sgcheck.core.ruleset import CORE
from sgcheck.core.scenario import Scenario, SideSetup
from sgcheck.core.setup import check_king_placement, check_rolloff
from sgcheck.core.squares import ALL_SQUARES, Square, camp, name, parse_square
from sgcheck.core.state import GameState
from sgcheck.lang.logs.ast import ColourChoice, Draft, KingPlacement, LogItem, RollOff
from sgcheck.lang.logs.from_actions import Claims
from sgcheck.lang.logs.writer import format_log
from sgcheck.play.loop import GameLog, Step, play, result_line
from sgcheck.play.roller import random_roll_off
from sgcheck.play.start import draft_lines, game_ruleset, header, roll_off, start_game
from sgcheck.play.styles import Style, choose
from sgcheck.replay.interpreter import replay_text

#: The camps as the rulebook says them (core §1): White's ranks 1-4, Black's ranks 5-8.
RANKS = {Color.WHITE: "1234", Color.BLACK: "5678"}


def test_the_camp_is_the_rulebooks() -> None:
    for color in Color:
        assert camp(color) == tuple(sq for sq in ALL_SQUARES if name(sq)[1] in RANKS[color])
        assert all(list(check_king_placement(color, sq)) == [] for sq in camp(color))
        assert all(list(check_king_placement(color, sq)) != [] for sq in ALL_SQUARES if sq not in camp(color))


def _kings(items: list[LogItem]) -> dict[Color, Square]:
    return {item.color: item.square.square for item in items if isinstance(item, KingPlacement)}


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sets(st.sampled_from(ALL_SQUARES), max_size=24))
def test_kings_are_placed_on_free_squares_of_their_camps(rng: random.Random, taken: set[Square]) -> None:
    """core §1: anywhere free in the King's own camp; the state has them where the lines say."""
    pieces = tuple((sq, Kind.PAWN) for sq in sorted(taken))
    sides = (SideSetup(pieces=tuple(p for p in pieces if name(p[0])[1] in RANKS[Color.BLACK])),
             SideSetup(pieces=tuple(p for p in pieces if name(p[0])[1] in RANKS[Color.WHITE])))  # fmt: skip
    scenario = Scenario("crowded", sides=sides)
    start = start_game(header("t", CORE), CORE, scenario=scenario, rng=rng)
    kings = _kings(start.items)
    assert set(kings) == set(Color)
    for color, sq in kings.items():
        assert name(sq)[1] in RANKS[color] and sq not in taken
        assert start.state.king_square(color) == sq


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_driver_may_allow_fewer_squares_of_the_camp(rng: random.Random) -> None:
    """The simulator keeps its Kings off the back and front ranks of the camp: ranks 2-3 and 6-7."""
    from sgcheck.simulate.games import _off_the_edges

    start = start_game(header("t", CORE), CORE, rng=rng, where=_off_the_edges)
    kings = _kings(start.items)
    assert name(kings[Color.WHITE])[1] in "23" and name(kings[Color.BLACK])[1] in "67"


def test_a_king_the_scenario_places_has_no_line_and_one_it_does_not_needs_a_source() -> None:
    e1 = parse_square("e1")
    placed = Scenario("half", sides=(SideSetup(pieces=((e1, Kind.KING),)), SideSetup()))
    start = start_game(header("t", CORE), CORE, scenario=placed, rng=random.Random(1))
    assert list(_kings(start.items)) == [Color.BLACK] and start.state.king_square(Color.WHITE) == e1
    with pytest.raises(ValueError, match="Black King has no square"):
        start_game(header("t", CORE), CORE, scenario=placed)


def test_the_roll_off_is_thrown_until_someone_wins_and_the_winner_chooses() -> None:
    """R01: 3d6 each, ties thrown again, the higher total picks a colour."""
    throws = iter([((3, 3, 3), (4, 4, 1)), ((1, 1, 1), (1, 1, 1)), ((2, 2, 2), (6, 5, 1))])
    items = roll_off(lambda: next(throws))
    assert [type(item) for item in items] == [RollOff, RollOff, RollOff, ColourChoice]
    assert isinstance(items[-1], ColourChoice) and items[-1].color is Color.BLACK
    rng = random.Random(3)
    for item in roll_off(lambda: random_roll_off(rng)):
        if isinstance(item, RollOff):
            assert list(check_rolloff(item.white.faces, item.black.faces)) == []


def test_a_side_that_keeps_nothing_has_no_draft_line() -> None:
    """R19: a draft line names a card or more (the writer refuses an empty one)."""
    lines = draft_lines(((), ("Soul Ward",)))
    assert [(line.color, len(line.cards)) for line in lines if isinstance(line, Draft)] == [(Color.BLACK, 1)]
    assert format_log(lines).strip() == 'draft black "Soul Ward"'


def test_a_scenarios_turn_limit_comes_first() -> None:
    """R18, R24: the scenario's own limit, else the table's."""
    table = replace(CORE, turn_limit=30)
    assert game_ruleset(table, Scenario("s", turn_limit=9)).turn_limit == 9
    assert game_ruleset(table, Scenario("s")).turn_limit == 30
    assert game_ruleset(table, None) is table


class Refused(Exception):
    pass


def _refused(state: GameState, action: Action, outcome: Rejected) -> Exception:
    return Refused(outcome.first.diagnostic.code)


def test_an_action_the_engine_refuses_is_the_drivers_error_and_never_a_step() -> None:
    start = start_game(header("t", CORE), CORE, throw=lambda: random_roll_off(random.Random(0)), rng=random.Random(0))
    steps: list[Step] = []
    with pytest.raises(Refused):
        for step in play(start.state, lambda s: Move(parse_square("a1"), parse_square("h8")), _refused):
            steps.append(step)
    assert steps == []


def test_stop_is_asked_at_the_start_of_each_turn_only() -> None:
    start = start_game(header("t", CORE), CORE, rng=random.Random(0), throw=lambda: random_roll_off(random.Random(0)))
    asked: list[int] = []

    def stop(state: GameState) -> bool:
        asked.append(state.turn_number)
        return state.turn_number > 3

    steps = list(play(start.state, lambda s: EndTurn(), _refused, stop=stop))
    assert asked == [1, 1, 2, 2, 3, 3, 4] and len(steps) == 6  # a turn number is a round: White's, then Black's
    assert all(step.applied.effects.passed for step in steps)  # a turn without an action is a Pass (R04)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
def test_a_game_stopped_anywhere_is_written_as_far_as_it_went_and_replays(seed: int, length: int) -> None:
    """The loop's log of a game cut after any number of steps, its open turn closed, reads back
    clean in replay and reaches the loop's position (a turn cut short is closed by replay's End)."""
    rng = random.Random(seed)
    start = start_game(header("cut", CORE), CORE, throw=lambda: random_roll_off(rng), rng=rng)
    log = GameLog(start.state, Claims.ALL, rng)
    items = list(start.items)
    cut = iter(range(length))

    def chosen(state: GameState) -> Action | None:
        return choose(state, Style.RANDOM, rng) if next(cut, None) is not None else None

    state = start.state
    for step in play(start.state, chosen, _refused):
        turn = log.write(step)
        if turn is not None:
            items.append(turn)
        state = step.after
    last = log.close()
    if last is not None:
        items.append(last)
    assert log.close() is None  # closed once
    ended = result_line(state)
    if ended is not None:
        items.append(ended)
    result = replay_text(format_log(items), "cut.sglog")
    assert [f"{d.code} {d.message}" for d in result.diagnostics if d.is_error] == []
