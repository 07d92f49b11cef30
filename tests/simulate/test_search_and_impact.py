"""The search policy and the impact of a card by ablation: the ladder of policies holds on a fixed
seed, a game between equal sides ends the way the rules end games (core §4.4, §7), taking a card
away finds a dominant card that is in every game and nothing in a pack of inert cards, and the
sampled games of every policy replay clean."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sgcheck.cli import main
from sgcheck.core import engine
from sgcheck.core.actions import Action, Attack, EndTurn
from sgcheck.core.formulas import attack_cost
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Kind, piece
from sgcheck.core.ruleset import CORE
from sgcheck.core.squares import Square
from sgcheck.core.state import GameState, PlayerState, full_gem, initial_state
from sgcheck.diagnostics import Diagnostic
from sgcheck.play import search
from sgcheck.play.policies import Policy, choose
from sgcheck.simulate.games import GameRecord, GameTask, Side, game_seed, play_task
from sgcheck.simulate.impact import paired, sign_test
from sgcheck.simulate.run import RunPlan, plan, play
from sgcheck.simulate.stats import wilson
from tests.simulate.test_simulate import ENV, ROOT, SCHEMA, STARTER, simulate

PACKS = ROOT / "examples" / "packs"
PLANTED = str(PACKS / "planted")
INERT = str(PACKS / "inert")


def _score(stronger: Policy, weaker: Policy, games: int, seed: int) -> tuple[int, int]:
    """Wins and losses of ``stronger`` against ``weaker``, each side first in half the games."""
    run = RunPlan(Side("core"), Side("core"), games=games, seed=seed, policy=stronger, against_policy=weaker)
    records = list(play(plan(run)))
    wins = sum(1 for r in records if r.winner_role == "pack")
    losses = sum(1 for r in records if r.winner_role == "against")
    return wins, losses


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        (Policy.GREEDY, Policy.RANDOM),
        (Policy.LOOKAHEAD, Policy.GREEDY),
        (Policy.SEARCH, Policy.LOOKAHEAD),
        (Policy.SEARCH, Policy.GREEDY),
    ],
)
def test_the_ladder_holds_on_a_fixed_seed(stronger: Policy, weaker: Policy) -> None:
    """Each side first in half the games, so a first player's edge cannot pass for strength; the
    stronger wins the decided games with the 95% interval of its share above one half (a draw is a
    game no rule ended by round 200, or the tiebreak's last step, R18)."""
    wins, losses = _score(stronger, weaker, games=4, seed=1)
    low, _ = wilson(wins, wins + losses)
    assert low > 0.5, (stronger, weaker, wins, losses)


def _queen_in_reach(lp: int) -> GameState:
    """White's Upkeep of turn 20: its Queen on f3 reaches the Black King on f7 along the file, its
    Rooks stand at home, the rest of its pieces are in its Gem, and it has ``lp`` LP."""
    state = initial_state(Square(10), Square(53))
    board = list(state.board)
    gem = list(full_gem(Color.WHITE))
    for sq, kind in ((21, Kind.QUEEN), (0, Kind.ROOK), (7, Kind.ROOK)):
        board[sq] = piece(Color.WHITE, kind)
        gem[piece(Color.WHITE, kind).index] -= 1
    state = state.with_board(tuple(board)).replace(turn_number=20)
    return state.with_player(Color.WHITE, PlayerState(lp, 0, tuple(gem), turns_started=20))


def _white_turn(state: GameState, policy: Policy) -> tuple[list[Action], GameState]:
    rng = random.Random(1)
    taken: list[Action] = []
    while state.to_move is Color.WHITE and state.result is None:
        action = choose(state, policy, rng)
        step = engine.apply(state, action)
        assert isinstance(step, Applied), action
        taken.append(action)
        state = step.state
    return taken, state


@pytest.mark.parametrize("lp", [40, 100, 300])
def test_the_lookahead_sees_the_battle_from_the_upkeep_and_greedy_does_not(lp: int) -> None:
    """Entering a phase changes nothing on the board, so greedy values it below the Pass (+6 LP,
    core §2.5) and ends its turn in the Upkeep with a Queen in reach of the enemy King; the
    lookahead values entering a phase by the best of the rest of the turn (core §2) and attacks
    the King (hit at 90%, 18 + 4 LP an attack, core §4.1, §4.4) while the damage it expects is
    worth more to it than the Pass."""
    greedy_took, after_greedy = _white_turn(_queen_in_reach(lp), Policy.GREEDY)
    assert greedy_took == [EndTurn()] and after_greedy.player(Color.WHITE).lp == lp + 6
    took, after = _white_turn(_queen_in_reach(lp), Policy.LOOKAHEAD)
    attacks = [a for a in took if isinstance(a, Attack)]
    assert attacks and all(a.frm == 21 and a.to == 53 for a in attacks)
    spent = lp - after.player(Color.WHITE).lp
    assert spent == sum(attack_cost(Kind.QUEEN, 4, CORE).value for _ in attacks)  # no Pass: it acted (R04)
    assert after.player(Color.BLACK).king_damage <= len(attacks)  # one damage a hit (core §4.3)


def test_a_game_between_equal_searching_sides_ends_by_the_rules() -> None:
    """No turn limit in the core (core §7): the search saves LP and converts a King (core §4.4)."""
    record = play_task(GameTask(0, game_seed(1, 0), Side("core"), Side("core"), Color.WHITE, Policy.SEARCH, CORE))
    assert record.outcome == "conversion" and record.winner is not None
    assert record.rounds < 164  # before a side that only passed would reach 1000 LP (20 + 6 a turn)


def _pack_side(path: str) -> Side:
    from sgcheck.play.pack import load_game_pack

    loaded = load_game_pack(path, log_folder=None, from_tag=False)
    assert not isinstance(loaded, Diagnostic)
    return Side(path, loaded.cards, loaded.draw, min(loaded.keep, loaded.hand_limit))


@pytest.mark.parametrize("pack_color", [Color.WHITE, Color.BLACK])
def test_the_search_plays_a_card_that_changes_the_race_as_soon_as_it_can(pack_color: Color) -> None:
    """War Banner (+25 to hit, +2 damage a hit, within the caps of core §4.5) makes a strike cost a
    third of the core's: the search prices the strike with the cards in play, so it plays the card
    in its first turn, whichever side moves first, and converts the enemy King (core §4.4) long
    before a side without it could pay for a strike (some 450 LP saved at 6 a Pass: round 75)."""
    side = _pack_side(PLANTED)
    record = play_task(GameTask(0, game_seed(3, 0), side, Side("core"), pack_color, Policy.SEARCH, CORE))
    assert "War Banner" in record.played[0]
    assert record.winner_role == "pack" and record.outcome == "conversion"
    assert record.rounds < 45


def test_in_gem_siege_the_search_breaks_the_gem_whose_income_races_it() -> None:
    """Gem Siege (R25) starts the economy: each side's Gem holds a captured enemy Rook, 10 SP a
    turn from its second turn (core §6, R14). The search counts income in the race, so it breaks
    the enemy Gem (core §6, R15: no income until repaired) and the enemy earns less than its whole
    Gem would have paid, while its own whole Gem pays 10 every Upkeep after the first (SP earned
    counts income, captures and cards: here income alone, no piece being captured)."""
    from sgcheck.play.game_scenario import load_game_scenario

    siege = str(ROOT / "examples" / "scenarios" / "gem-siege.scenario.yaml")
    loaded = load_game_scenario(siege, log_folder=None, from_tag=False)
    assert not isinstance(loaded, Diagnostic) and loaded.scenario is not None
    task = GameTask(0, game_seed(1, 0), _pack_side(PLANTED), Side("core"), Color.WHITE, Policy.SEARCH, CORE,
                    scenario=loaded.scenario, scenario_label="siege")  # fmt: skip
    record = play_task(task)
    assert record.outcome == "conversion" and record.winner_role == "pack" and record.captures == 0
    assert record.sp_earned[0] == 10 * (record.rounds - 1)  # White: an income every Upkeep but the first
    enemy_turns = len(record.economy[1])
    assert record.sp_earned[1] < 10 * (enemy_turns - 1)


def _with_cards(names: tuple[str, ...], owner: Color, pack: str) -> GameState:
    """White's turn 1, White's King on c2, Black's on f7, ``names`` of ``pack`` put in play for ``owner``."""
    from sgcheck.core.cards.table import CardsByName, new_cards
    from sgcheck.core.play.cards import enter_play

    cards = _pack_side(pack).cards
    state = initial_state(Square(10), Square(53))
    state = state.replace(cards=new_cards(CardsByName(cards), (), ()))
    by_name = {card.name: card for card in cards}
    for order, name in enumerate(names):
        state = enter_play(state, by_name[name], owner, order, 0)
    return state


def test_a_strike_is_priced_with_the_cards_in_play() -> None:
    """Without cards, a Queen two squares from the King pays 2 × 9 + 2 = 20 an attack (core §4.1)
    and hits 90% of the time for 1 (core §4.3, §4.4); with War Banner the hit is clamped to 95%
    (+25, R10, R20) and deals 3 (+2, core §4.5)."""
    core = initial_state(Square(10), Square(53))
    assert search.price_per_damage(core, Color.WHITE, Kind.QUEEN, 2) == pytest.approx(20 / 0.90)
    banner = _with_cards(("War Banner",), Color.WHITE, PLANTED)
    assert search.price_per_damage(banner, Color.WHITE, Kind.QUEEN, 2) == pytest.approx(20 / (0.95 * 3))
    assert search.price_per_damage(banner, Color.BLACK, Kind.QUEEN, 2) == pytest.approx(20 / 0.90)  # White's card
    # a Rook: 2 × 5 + 3 = 13 at 50%, or 75% with the Banner
    assert search.price_per_damage(banner, Color.WHITE, Kind.ROOK, 3) == pytest.approx(13 / (0.75 * 3))


def test_a_king_cards_make_immune_turns_the_enemys_race_to_1000_lp() -> None:
    """Soul Ward (−2 on every hit on its owner's King) leaves a core hit 1 − 2 < 0, so 0 damage
    (R23): no attack can convert that King, and the enemy's only win left is 1000 LP (core §7), at
    6 LP a Pass (core §2.5), while the Ward's owner still races to convert."""
    guarded = _with_cards(("Soul Ward",), Color.BLACK, str(ROOT / "examples" / "logs" / "relic-pack"))
    for kind, distance in search.STRIKERS:
        assert math.isinf(search.price_per_damage(guarded, Color.WHITE, kind, distance))
    white, black = search._race_turns(guarded, Color.WHITE)
    core_white, core_black = search._race_turns(initial_state(Square(10), Square(53)), Color.WHITE)
    assert white == pytest.approx((1000 - 20) / 6)  # one Pass a turn from 20 LP to 1000
    assert black == pytest.approx(core_black) and core_white < white


def test_a_planted_dominant_card_in_every_game_is_found_by_taking_it_away() -> None:
    """War Banner (+25 to hit, +2 damage, within the caps of core §4.5) is drafted and played in
    every game: nothing to compare "played" with, but the same games without it say it all."""
    code, out, _ = simulate(PLANTED, "--policy", "greedy", "--turn-limit", "20", "--games", "10", "--seed", "3",
                            "--impact", "--format", "json", "--jobs", "1")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    Draft202012Validator(SCHEMA).validate(report)
    banner = next(c for c in report["cards"] if c["card"] == "War Banner")
    assert banner["played"] == report["run"]["games"]  # in every game
    assert banner["when_not_played"]["interval"] is None  # 0 of 0: unknown, not 0%-100%
    assert banner["impact"]["significant"] and banner["impact"]["impact"] >= 0.15
    assert report["dominant"] == ["War Banner"]
    others = [item for item in report["impact"] if item["cards"] != ["War Banner"]]
    assert others and not any(item["significant"] for item in others)


def test_a_pack_of_inert_cards_has_no_significant_impact() -> None:
    code, out, _ = simulate(INERT, "--policy", "greedy", "--turn-limit", "20", "--games", "10", "--seed", "3",
                            "--impact", "--impact-pair", "Rook Ward", "Knight Ward", "--format", "json",
                            "--jobs", "1")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert len(report["impact"]) == 4 and report["impact"][-1]["cards"] == ["Rook Ward", "Knight Ward"]
    assert not any(item["significant"] for item in report["impact"])
    assert report["dominant"] == []


def test_an_unknown_card_in_a_pair_is_a_usage_error() -> None:
    code, out, err = simulate(INERT, "--games", "1", "--impact-pair", "Rook Ward", "Nothing")
    assert code == 2 and out == "" and "no card named 'Nothing'" in err


def _record(index: int, winner: Color | None) -> GameRecord:
    return GameRecord(index, Color.WHITE, Color.WHITE, winner, "conversion", 10, ((), ()), ((), ()))


@given(st.lists(st.sampled_from([Color.WHITE, Color.BLACK, None]), min_size=1, max_size=60), st.randoms())
def test_the_paired_impact_is_the_difference_of_the_win_rates(outcomes: list[Color | None], rng: object) -> None:
    """The mean of the paired differences is the win rate with minus without (draws count half),
    and the interval holds it; the test sees only the games whose result changed."""
    other = list(outcomes)
    rng.shuffle(other)  # type: ignore[attr-defined]
    full = [_record(i, w) for i, w in enumerate(outcomes)]
    ablated = [_record(i, w) for i, w in enumerate(other)]
    found = paired(("Card",), full, ablated)

    def score(ws: list[Color | None]) -> float:
        return sum(1.0 if w is Color.WHITE else 0.5 if w is None else 0.0 for w in ws) / len(ws)

    assert found.impact is not None and found.interval is not None
    assert found.impact == pytest.approx(score(outcomes) - score(other), abs=1e-4)
    assert found.interval[0] <= found.impact <= found.interval[1]
    if outcomes == other:
        assert found.better_with == found.worse_with == 0 and not found.significant


def test_the_sign_test_is_mcnemars_exact_test() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(8, 0) == pytest.approx(2 / 2**8)  # every change one way
    assert sign_test(5, 5) == 1.0
    # the two-sided exact binomial: P(X <= 2) * 2 for n = 10
    assert sign_test(8, 2) == pytest.approx(2 * sum(math.comb(10, k) for k in range(3)) / 2**10)
    assert sign_test(1200, 1000) < 0.001  # large counts: the normal approximation


@settings(deadline=None)
@given(st.integers(0, 7), st.integers(0, 7))
def test_the_sign_test_agrees_with_counting_every_outcome(better: int, worse: int) -> None:
    """An oracle that shares nothing with the formula: under "the card changes nothing" each of the
    2^n ways the n changes could have gone is equally likely; p is the share of them at least as
    far from even as the one seen."""
    from itertools import product

    n = better + worse
    seen = abs(better - worse)
    ways = list(product((1, -1), repeat=n))
    extreme = sum(1 for way in ways if abs(sum(way)) >= seen)
    assert sign_test(better, worse) == pytest.approx(extreme / len(ways))


@pytest.mark.parametrize("policy", ["random", "greedy", "lookahead", "search"])
def test_sampled_games_of_every_policy_replay_clean(policy: str, tmp_path: Path) -> None:
    folder = tmp_path / "samples"
    code, _, _ = simulate(STARTER, "--games", "1", "--turn-limit", "8", "--policy", policy,
                          "--sample-logs", str(folder), "--jobs", "1")  # fmt: skip
    assert code == 0
    logs = sorted(folder.glob("*.sglog"))
    assert len(logs) == 2
    result = CliRunner(env=ENV).invoke(main, ["replay", "--quiet", "--pack", str(ROOT / STARTER), str(folder)])
    assert result.exit_code == 0, result.stdout
    assert "2 files checked: no problems found" in result.stdout


@pytest.mark.parametrize("policy", ["random", "greedy", "lookahead", "search"])
def test_whole_games_of_every_policy_replay_clean_to_their_end(policy: str, tmp_path: Path) -> None:
    """No turn limit (core §7 sets none): each sampled game is played to the rule that ended it
    (King conversion, core §4.4; 1000 LP, core §7) or to round 200, and the replay agrees with its
    result line, which it checks against the position."""
    folder = tmp_path / "samples"
    code, out, _ = simulate(STARTER, "--games", "1", "--policy", policy, "--sample-logs", str(folder),
                            "--format", "json", "--jobs", "1")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    logs = sorted(folder.glob("*.sglog"))
    assert len(logs) == 2
    ended = [
        line for log in logs for line in log.read_text(encoding="utf-8").splitlines() if line.startswith("result ")
    ]
    endings = report["endings"]
    assert sorted(line.split()[-1] for line in ended) == sorted(
        kind for kind, n in endings.items() if kind != "unfinished" for _ in range(n)
    )
    if policy in ("lookahead", "search"):  # they play to win: a King is converted
        assert endings["conversion"] == 2
    result = CliRunner(env=ENV).invoke(main, ["replay", "--quiet", "--pack", str(ROOT / STARTER), str(folder)])
    assert result.exit_code == 0, result.stdout
    assert "2 files checked: no problems found" in result.stdout


def test_a_gauntlet_plays_each_pack_against_each_in_both_seats() -> None:
    args = ("--against", "core", "--against", "examples/packs/overpowered", "--policy", "greedy",
            "--turn-limit", "6", "--games", "1", "--seed", "2", "--jobs", "1")  # fmt: skip
    code, out, _ = simulate(STARTER, *args, "--format", "json")
    assert code == 0
    report = json.loads(out)
    Draft202012Validator(SCHEMA).validate(report)
    assert report["kind"] == "gauntlet" and report["entrants"] == [STARTER, "core", "examples/packs/overpowered"]
    pairs = {(m["pack"], m["against"]) for m in report["matches"]}
    assert pairs == {(STARTER, "core"), (STARTER, "examples/packs/overpowered"), ("core", "examples/packs/overpowered")}
    assert all(m["games"] == 2 for m in report["matches"])  # one game with each side first
    for standing in report["standings"]:  # each entrant's standing adds up its matches, from both sides
        name = standing["entrant"]
        wins = sum(m["pack_wins"] for m in report["matches"] if m["pack"] == name)
        wins += sum(m["against_wins"] for m in report["matches"] if m["against"] == name)
        assert standing["games"] == 4 and standing["wins"] == wins
    code, text, _ = simulate(STARTER, *args)
    assert code == 0 and "results (win rate of the row against the column" in text and "standings" in text


def test_a_gauntlet_says_when_no_rule_ended_its_games() -> None:
    """Random play without a turn limit rarely converts a King (core §4.4) or reaches 1000 LP
    (core §7): games stopped at round 200 count as draws, and the gauntlet says so, as a run does."""
    args = ("--against", "core", "--against", INERT, "--policy", "random", "--games", "1", "--seed", "2",
            "--jobs", "1", "--format", "json")  # fmt: skip
    code, out, _ = simulate(STARTER, *args)
    assert code == 0
    report = json.loads(out)
    unfinished = report["endings"]["unfinished"]
    assert unfinished > 0
    games = report["run"]["games"]
    assert f"{unfinished} of {games} games reached round 200 with no rule ending them" in " ".join(report["warnings"])


def test_a_gauntlet_with_impact_is_a_usage_error() -> None:
    code, out, err = simulate(STARTER, "--against", "core", "--against", INERT, "--impact", "--games", "1")
    assert code == 2 and out == "" and "gauntlet" in err
