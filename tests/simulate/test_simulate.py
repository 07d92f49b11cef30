"""``sgcheck simulate``: real games (replayed clean), the same report for a seed whatever the
number of workers, the report's shape (schemas/simulate.schema.json), the statistics, and a
deliberately over-strong card flagged as dominant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from sgcheck.cli import main
from sgcheck.cli.progress import CountBar
from sgcheck.core.actions import Move
from sgcheck.core.pieces import Color
from sgcheck.core.squares import Square
from sgcheck.play.policies import Policy
from sgcheck.simulate import games as games_module
from sgcheck.simulate.games import GameTask, Side, game_seed, play_task
from sgcheck.simulate.run import RunPlan, plan, play, sampled
from sgcheck.simulate.stats import summarise, wilson

ROOT = Path(__file__).resolve().parents[2]
STARTER = "examples/packs/starter"
GUIDE = "examples/logs/relic-pack"
OVERPOWERED = "examples/packs/overpowered"
SCHEMA = json.loads((ROOT / "schemas" / "simulate.schema.json").read_text(encoding="utf-8"))
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}


def simulate(*args: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    import os

    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner(env=ENV).invoke(main, ["simulate", *args], prog_name="sgcheck")
    finally:
        os.chdir(here)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)  # sound at the ends, unlike p ± z·se
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_games_seed_comes_from_the_run_seed_and_its_index_alone() -> None:
    assert game_seed(7, 3) == game_seed(7, 3)
    assert len({game_seed(7, i) for i in range(1000)}) == 1000
    assert game_seed(7, 3) != game_seed(8, 3)


def test_each_side_plays_first_in_half_the_games_and_samples_are_spread() -> None:
    run = RunPlan(Side("p"), Side("core"), games=5, seed=1, policy=Policy.GREEDY)
    tasks = list(plan(run))
    assert [t.pack_color for t in tasks] == [Color.WHITE] * 5 + [Color.BLACK] * 5  # White plays first (core §2)
    assert [i for i in range(100) if sampled(i, 100, 10)] == list(range(0, 100, 10))


def test_the_report_is_the_same_for_a_seed_whatever_the_number_of_workers(capfd: pytest.CaptureFixture[str]) -> None:
    outputs = [simulate(STARTER, "--games", "2", "--turn-limit", "6", "--seed", "11", "--format", "json",
                        "--jobs", jobs)[1] for jobs in ("1", "2")]  # fmt: skip
    assert outputs[0] == outputs[1]
    # the worker processes played the games: a task that cannot travel (pickled cards) would kill
    # them, and the games would be played here after their tracebacks
    assert "Traceback" not in capfd.readouterr().err
    Draft202012Validator(SCHEMA).validate(json.loads(outputs[0]))


def test_a_local_cluster_gives_the_report_of_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed, the same report, whether the games run here or on a Dask cluster (its workers
    import this sgcheck)."""
    from tests.test_distribute import _worker_environment

    monkeypatch.setenv("PYTHONPATH", _worker_environment()["PYTHONPATH"])
    args = ("--games", "2", "--turn-limit", "6", "--seed", "5", "--format", "json")
    _, here, _ = simulate(STARTER, *args, "--jobs", "1")
    code, there, err = simulate(STARTER, *args, "--jobs", "2", "--cluster", "local", "--cluster-timeout", "60")
    assert code == 0, err
    assert there == here


def test_an_unreachable_cluster_is_one_line_and_exit_2() -> None:
    code, out, err = simulate(STARTER, "--games", "1", "--cluster", "tcp://127.0.0.1:9", "--cluster-timeout", "1")
    assert code == 2 and out == ""
    assert err.startswith("sgcheck: --cluster: ") and err.count("\n") == 1


def test_the_json_report_keeps_its_schema_and_adds_up() -> None:
    code, out, _ = simulate(GUIDE, "--games", "3", "--turn-limit", "8", "--format", "json", "--policy", "lookahead")
    assert code == 0
    report = json.loads(out)
    Draft202012Validator(SCHEMA).validate(report)
    assert report["run"]["games"] == 6 and report["run"]["policy"] == "lookahead"
    sides = report["sides"]
    assert sides["pack"]["wins"] + sides["against"]["wins"] + sides["pack"]["draws"] == 6
    assert sum(report["endings"].values()) == 6
    assert sum(h["games"] for h in report["length"]["histogram"]) == 6
    assert {card["card"] for card in report["cards"]} == {
        "Soul Ward",
        "Soul Drain",
        "Mirror Barrier",
        "Arcane Surge",
        "Spirit Exchange",
    }
    assert all(card["small_sample"] for card in report["cards"])  # 6 games: under 30, said so
    assert report["economy"]["pack"][0]["turn"] == 1


def test_sample_logs_are_real_games_that_replay_clean(tmp_path: Path) -> None:
    folder = tmp_path / "samples"
    code, _, err = simulate(STARTER, "--games", "3", "--turn-limit", "10", "--sample-logs", str(folder), "--jobs", "1")
    assert code == 0
    logs = sorted(folder.glob("*.sglog"))
    assert len(logs) == 6 and "sgcheck replay --pack" in err
    assert any("draft " in log.read_text(encoding="utf-8") for log in logs)  # the pack's side drafted (R19)
    result = CliRunner(env=ENV).invoke(main, ["replay", "--quiet", "--pack", str(ROOT / STARTER), str(folder)])
    assert result.exit_code == 0, result.stdout
    assert "6 files checked: no problems found" in result.stdout


def test_sample_logs_never_write_over_a_file(tmp_path: Path) -> None:
    """A second run into the same folder, or a file already there, keeps what was written."""
    folder = tmp_path / "samples"
    folder.mkdir()
    mine = folder / "game-00001.sglog"
    mine.write_text("; my notes\n", encoding="utf-8")
    args = ("--games", "1", "--turn-limit", "4", "--sample-logs", str(folder), "--jobs", "1")
    assert simulate(STARTER, *args)[0] == 0
    assert mine.read_text(encoding="utf-8") == "; my notes\n"
    first = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.sglog")}
    assert "game-00001-2.sglog" in first and "game-00002.sglog" in first
    assert simulate(STARTER, *args)[0] == 0
    again = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.sglog")}
    assert all(again[name] == text for name, text in first.items()) and len(again) == len(first) + 2


def test_greedy_play_is_a_game_a_person_would_recognise() -> None:
    """Greedy play summons, attacks the King when the odds pay (core §4.4) and plays its cards."""
    pack = Side(OVERPOWERED, *_cards(OVERPOWERED))
    record = play_task(GameTask(0, game_seed(3, 0), pack, Side("core"), Color.WHITE, Policy.GREEDY,
                                _limit(20), sample=True))  # fmt: skip
    assert record.log is not None
    assert "summon" in record.log and "attack" in record.log and "king-damage" in record.log
    assert record.played[0] == ("War Banner",)
    assert record.outcome == "turn-limit" and record.rounds == 20  # R18


def test_an_action_the_engine_refuses_is_an_internal_error_never_a_statistic(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games_module, "choose", lambda state, policy, rng: Move(Square(27), Square(35)))
    code, out, err = simulate(STARTER, "--games", "1", "--turn-limit", "4", "--jobs", "1")
    assert code == 2 and out == ""
    assert "internal error: RefusedAction" in err and "the engine refused" in err


def test_a_pack_that_breaks_the_contract_is_refused_unless_violations_are_allowed() -> None:
    code, _, err = simulate("examples/cards/guide-relics.sgcard", "--games", "1", "--turn-limit", "4")
    assert code == 2 and "breaks the contract" in err and "--allow-violations" in err
    code, out, _ = simulate("examples/cards/guide-relics.sgcard", "--games", "2", "--turn-limit", "6",
                            "--allow-violations", "--format", "json")  # fmt: skip
    assert code == 0
    rift = next(c for c in json.loads(out)["cards"] if c["card"] == "Temporal Rift")
    assert rift["played"] == 0  # its extra phase is refused by the engine when played (core §8)


def test_the_over_strong_card_is_flagged_dominant() -> None:
    """War Banner keeps every cap (+25 to hit, +2 damage, core §4.5, R20) and passes `sgcheck
    check`; played, its side wins far more often than without it."""
    check = CliRunner(env=ENV).invoke(main, ["check", str(ROOT / OVERPOWERED)])
    assert check.exit_code == 0 and "no problems found" in check.stdout
    code, out, _ = simulate(OVERPOWERED, "--games", "40", "--seed", "0", "--format", "json", "--policy", "greedy",
                            "--turn-limit", "30")  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert report["dominant"] == ["War Banner"]
    banner = next(c for c in report["cards"] if c["card"] == "War Banner")
    assert banner["when_played"]["interval"][0] > banner["when_not_played"]["interval"][1]


def test_the_text_report_says_what_a_designer_reads() -> None:
    code, out, _ = simulate(STARTER, "--games", "2", "--turn-limit", "6")
    assert code == 0
    for heading in ("win rate (95% interval)", "first player wins", "game length (turns)", "endings: turn-limit 4",
                    "cards (win rate", "economy (mean LP/SP", "warning: only 4 games"):  # fmt: skip
        assert heading in out


def test_the_html_page_has_a_plot_of_each_kind(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, out, _ = simulate(STARTER, "--games", "2", "--turn-limit", "6", "--format", "html", "-o", str(page))
    assert code == 0 and out == ""
    text = page.read_text(encoding="utf-8")
    for plot in ("win rates", "game length", "economy", "cards"):
        assert f'data-plot="{plot}"' in text
    assert "http" not in text.replace("http://www.w3.org/2000/svg", "").replace("http-equiv", "")  # no external asset


def test_usage_errors_exit_2_without_a_traceback(tmp_path: Path) -> None:
    assert simulate(str(tmp_path / "nothing"))[0] == 2
    assert simulate(STARTER, "--games", "0")[0] == 2
    assert simulate(STARTER, "--policy", "clever")[0] == 2


def test_the_progress_bar_counts_games_rate_and_time_left() -> None:
    class Terminal:
        def __init__(self) -> None:
            self.text = ""

        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> None:
            self.text += text

        def flush(self) -> None:
            pass

    now = [0.0]
    stream = Terminal()
    bar = CountBar(100, stream, clock=lambda: now[0], columns=lambda: 80)  # type: ignore[arg-type]
    bar.active = True  # TERM may be dumb where the tests run
    now[0] = 2.0
    bar.advance(40)
    assert "40/100 games" in stream.text and "20.0/s" in stream.text and "ETA 0:03" in stream.text
    bar.close()
    assert stream.text.endswith("\r\x1b[K")


def _cards(path: str) -> tuple[tuple[object, ...], int, int]:
    from sgcheck.play.pack import load_game_pack

    loaded = load_game_pack(str(ROOT / path), log_folder=None, from_tag=False)
    assert not isinstance(loaded, type(None)) and hasattr(loaded, "cards")
    return loaded.cards, loaded.draw, loaded.keep  # type: ignore[union-attr]


def _limit(turns: int) -> object:
    from dataclasses import replace

    from sgcheck.core.ruleset import CORE

    return replace(CORE, turn_limit=turns)


def test_records_come_back_in_task_order_from_workers() -> None:
    run = RunPlan(Side(STARTER, *_cards(STARTER)), Side("core"), games=2, seed=5, policy=Policy.RANDOM,  # type: ignore[arg-type]
                  ruleset=_limit(5))  # type: ignore[arg-type]  # fmt: skip
    tasks = list(plan(run))
    alone, shared = list(play(tasks, 1)), list(play(iter(tasks), 2))  # a lazy stream of tasks too
    assert [r.index for r in shared] == [0, 1, 2, 3] and alone == shared
    assert summarise(run, alone) == summarise(run, shared)
