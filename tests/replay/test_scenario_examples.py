"""Games under scenarios (R24-R26): the shipped scenario logs replay with the outcome each is meant
to have (their output is golden), a log names its scenario safely, and replay never raises on
generated scenarios."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.cli import main
from sgcheck.contract.scenario_contract import check_scenario_text
from sgcheck.core.pieces import Color, Outcome
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText
from sgcheck.replay.files import LogInput, replay_input
from sgcheck.replay.generate import Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_source, replay_text
from tests.readers import by_grammar

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "examples" / "scenarios"
GOLDEN = Path(__file__).with_name("golden")
W, B = Color.WHITE, Color.BLACK

#: (log, winner, outcome, words of the result's detail); winner None with outcome None: unfinished.
SHIPPED = [
    ("gem-siege.sglog", W, Outcome.SCENARIO, "breaking Black's Gem and capturing a piece on White's turn 3"),
    ("gem-siege-reduced.sglog", W, Outcome.SCENARIO, "breaking Black's Gem and capturing a piece on White's turn 11"),
    ("drill-1-last-hit.sglog", W, Outcome.SCENARIO, "reaching captured value 1 on White's turn 1"),
    ("drill-2a-queen-now.sglog", B, Outcome.TURN_LIMIT, "score 32 to 30"),
    ("drill-2b-two-minors.sglog", B, Outcome.TURN_LIMIT, "score 32 to 16"),
    ("drill-2c-pass-then-summon.sglog", B, Outcome.TURN_LIMIT, "score 32 to 30"),
    ("guide-example-a.sglog", None, None, ""),
    ("guide-example-b.sglog", None, None, ""),
    ("guide-example-c.sglog", None, None, ""),
    ("wellsprings.sglog", W, Outcome.SCENARIO, "the 'wellsprings' markers at the end of a turn on White's turn 7"),
    ("turn-limit-king-damage.sglog", W, Outcome.TURN_LIMIT, "on King damage dealt 1 to 0"),
    ("turn-limit-score.sglog", W, Outcome.TURN_LIMIT, "King damage tied at 0, score 73 to 68"),
    ("turn-limit-draw.sglog", None, Outcome.TURN_LIMIT, "King damage and score tied (70)"),
]


def replay_log(path: Path, options: ReplayOptions | None = None) -> ReplayResult:
    """Replay a log file as ``sgcheck replay`` does: its tags read relative to its folder."""
    text = path.read_text(encoding="utf-8")
    return replay_source(SourceText(str(path), text), options or ReplayOptions(), folder=str(path.parent))


@pytest.mark.parametrize(("log", "winner", "outcome", "words"), SHIPPED, ids=[s[0] for s in SHIPPED])
def test_each_shipped_log_replays_with_its_outcome(
    log: str, winner: Color | None, outcome: Outcome | None, words: str
) -> None:
    """R24-R26, R18, R21: clean, and ending as it is meant to, read by the line reader or the grammar alike."""
    result = replay_log(SCENARIOS / log)
    assert result.diagnostics == (), result.diagnostics
    assert result.scenario is not None and result.scenario.scenario is not None
    state = result.state
    assert state is not None
    if outcome is None:
        assert state.result is None
    else:
        assert state.result is not None
        assert (state.result.winner, state.result.outcome) == (winner, outcome)
        assert words in state.result.detail
    path = SCENARIOS / log
    tree = by_grammar(path.read_text(encoding="utf-8"), str(path), folder=str(path.parent))
    assert (tree.diagnostics, tree.state) == (result.diagnostics, result.state)


def test_every_shipped_log_and_scenario_is_listed() -> None:
    assert {p.name for p in SCENARIOS.glob("*.sglog")} == {s[0] for s in SHIPPED}


@pytest.mark.parametrize("log", [s[0] for s in SHIPPED])
def test_shipped_scenario_output_matches_golden(log: str, monkeypatch: pytest.MonkeyPatch, golden: Golden) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["replay", f"examples/scenarios/{log}"])
    assert result.exit_code == 0, result.output
    golden.check(GOLDEN / f"scenario-{log.removesuffix('.sglog')}.txt", result.output)


@pytest.mark.parametrize("log", ["wellsprings.sglog", "gem-siege.sglog"])
def test_scenario_json_matches_golden_and_the_report_schema(
    log: str, monkeypatch: pytest.MonkeyPatch, golden: Golden
) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["replay", "--format", "json", f"examples/scenarios/{log}"])
    assert result.exit_code == 0, result.output
    golden.check(GOLDEN / f"scenario-{log.removesuffix('.sglog')}.json", result.output)
    report = json.loads(result.output)
    schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(report)
    facts = report["files"][0]["facts"]
    assert facts["result"]["outcome"] == "scenario"
    assert {c["side"]: c["met"] for c in facts["scenario"]["conditions"]} == {"White": True, "Black": False}


def test_the_worked_examples_start_at_the_attack_with_the_guides_numbers() -> None:
    """R21: costs 12, 21, 12 and thresholds 60, 60, 50, from positions the scenarios set."""
    for letter, cost, threshold in (("a", 12, 60), ("b", 21, 60), ("c", 12, 50)):
        text = (SCENARIOS / f"guide-example-{letter}.sglog").read_text(encoding="utf-8")
        assert f"cost {cost} threshold {threshold}" in text
        assert "king white" not in text  # the scenario places the Kings


# --- naming a scenario -------------------------------------------------------------------------------

SIEGE = (SCENARIOS / "gem-siege.scenario.yaml").read_text(encoding="utf-8")
GAME = (SCENARIOS / "gem-siege.sglog").read_text(encoding="utf-8")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def codes(result: ReplayResult) -> list[str]:
    return [d.code for d in result.diagnostics]


def test_the_command_line_scenario_overrides_the_tag(tmp_path: Path) -> None:
    log = write(tmp_path, "g.sglog", GAME.replace("gem-siege.scenario.yaml", "nowhere.scenario.yaml"))
    assert codes(replay_log(log)) == ["SG-P030"]
    result = replay_log(log, ReplayOptions(scenario=str(SCENARIOS / "gem-siege.scenario.yaml")))
    assert result.ok and result.state is not None and result.state.result is not None


def test_a_name_without_suffix_and_a_pack_with_a_scenario_section(tmp_path: Path) -> None:
    write(tmp_path, "gem-siege.scenario.yaml", SIEGE)
    log = write(tmp_path, "g.sglog", GAME.replace('"gem-siege.scenario.yaml"', '"gem-siege"'))
    assert replay_log(log).ok
    section = "\n".join("  " + line for line in SIEGE.splitlines() if line and not line.startswith("#"))
    write(tmp_path, "pack/sgpack.yaml", f"name: siege\nversion: 1.0.0\ncards: [c.sgcard]\nscenario:\n{section}\n")
    write(tmp_path, "pack/c.sgcard", 'relic "Eye" { cost 3 SP effect to_hit +5 when attacker is Knight }\n')
    by_tag = write(tmp_path, "p.sglog", GAME.replace('"gem-siege.scenario.yaml"', '"pack"'))
    result = replay_log(by_tag)
    assert result.ok, result.diagnostics
    assert result.state is not None and result.state.result is not None
    as_pack = write(tmp_path, "q.sglog", GAME.replace('[Scenario "gem-siege.scenario.yaml"]', '[Pack "pack"]'))
    result = replay_log(as_pack)  # no [Scenario]: the pack's own scenario is played
    assert result.ok and result.scenario is not None
    assert result.state is not None and result.state.result is not None


def test_a_tag_may_not_leave_the_logs_folder(tmp_path: Path) -> None:
    """As [Pack] (SG-P014): a corpus log must not make sgcheck read files elsewhere."""
    write(tmp_path, "gem-siege.scenario.yaml", SIEGE)
    for tag in ("../gem-siege.scenario.yaml", str(tmp_path / "gem-siege.scenario.yaml")):
        log = write(tmp_path, "logs/g.sglog", GAME.replace("gem-siege.scenario.yaml", tag))
        result = replay_log(log)
        assert codes(result) == ["SG-P031"] and result.stopped
    link = tmp_path / "logs" / "link.scenario.yaml"
    link.symlink_to(tmp_path / "gem-siege.scenario.yaml")
    log = write(tmp_path, "logs/g.sglog", GAME.replace("gem-siege.scenario.yaml", "link.scenario.yaml"))
    assert codes(replay_log(log)) == ["SG-P031"]


def test_a_scenario_with_an_error_is_reported_and_not_played(tmp_path: Path) -> None:
    """core §8, R24: its findings first, in its own text, then SG-P037 at the tag; exit 1."""
    write(tmp_path, "gem-siege.scenario.yaml", SIEGE + "rules:\n  cost.attack: 1\n")
    log = write(tmp_path, "g.sglog", GAME)
    result = replay_log(log)
    assert codes(result) == ["SG-C002", "SG-P037"] and result.stopped
    first, refused = result.diagnostics
    assert first.span is not None and first.span.source.endswith("gem-siege.scenario.yaml")
    assert refused.span is not None and refused.span.line == 4
    _, sources = replay_input(LogInput(str(log)), ReplayOptions())
    assert str(tmp_path / "gem-siege.scenario.yaml") in sources  # the report can quote it
    outcome = CliRunner().invoke(main, ["replay", str(log)])
    assert outcome.exit_code == 1 and "cost.attack: 1" in outcome.output


def test_a_warning_in_the_scenario_is_reported_and_the_game_played(tmp_path: Path) -> None:
    write(tmp_path, "s.scenario.yaml", SIEGE.replace("break_and_capture: {}", "captured_value: {at_least: 90}"))
    unfinished = GAME.replace("result 1-0 scenario", "").replace('[Result "1-0"]', "")
    log = write(tmp_path, "g.sglog", unfinished.replace("gem-siege.scenario", "s.scenario"))
    result = replay_log(log)
    assert "SG-P036" in codes(result) and result.ok and not result.stopped


def test_kings_the_scenario_places_are_not_placed_again(tmp_path: Path) -> None:
    """R01, R24: a King the scenario places is the scenario's; the log's King may not land on a
    square the scenario fills."""
    write(tmp_path, "s.scenario.yaml", "name: k\nwhite: {pieces: [Ke1]}\nblack: {pieces: [Rd8]}\n")
    again = write(tmp_path, "a.sglog", '[Scenario "s.scenario.yaml"]\nking white e1\nking black e8\n')
    result = replay_log(again)
    assert codes(result) == ["SG-S101"] and "placed by the scenario k (on e1)" in result.diagnostics[0].message
    taken = write(tmp_path, "b.sglog", '[Scenario "s.scenario.yaml"]\nking black d8\n')
    result = replay_log(taken)
    assert codes(result) == ["SG-S103"] and "d8 is taken by the scenario's Black Rook" in result.diagnostics[0].message
    fine = write(tmp_path, "c.sglog", '[Scenario "s.scenario.yaml"]\nking black e8\n1. end: pass lp 26\n')
    assert replay_log(fine).ok


def test_the_scenario_sets_the_turn_limit_and_a_log_may_not_contradict_it(tmp_path: Path) -> None:
    """R18, R24: [TurnLimit] saying otherwise is SG-P007; --ruleset decides over both."""
    limit = SCENARIOS / "turn-limit-draw.sglog"
    text = limit.read_text(encoding="utf-8")
    write(tmp_path, "turn-limit.scenario.yaml", (SCENARIOS / "turn-limit.scenario.yaml").read_text())
    log = write(tmp_path, "d.sglog", text.replace("[Result", '[TurnLimit "5"]\n[Result'))
    assert codes(replay_log(log))[0] == "SG-P007"
    same = write(tmp_path, "e.sglog", text.replace("[Result", '[TurnLimit "3"]\n[Result'))
    assert replay_log(same).ok
    longer = replay_log(log, ReplayOptions(ruleset="turn_limit=5"))
    assert "SG-R210" in codes(longer)  # the game no longer ends at turn 3, so its result is wrong


def test_black_first_log_numbers_its_turns_1_dots_then_2(tmp_path: Path) -> None:
    write(tmp_path, "s.scenario.yaml", "name: b\nfirst: black\nturn_limit: 1\n")
    log = write(
        tmp_path,
        "g.sglog",
        '[Scenario "s.scenario.yaml"]\nking white e1\nking black e8\n'
        "1... end: pass lp 26\n2. end: pass lp 26\nresult 1/2-1/2 turn-limit\n",
    )
    result = replay_log(log)
    assert result.ok, result.diagnostics
    wrong = write(tmp_path, "w.sglog", '[Scenario "s.scenario.yaml"]\nking white e1\nking black e8\n1. end: pass\n')
    result = replay_log(wrong)
    assert codes(result) == ["SG-T101"] and "expected Black's turn 1 (1...)" in result.diagnostics[0].message


# --- property: replay never raises on generated scenarios ----------------------------------------------

_SQUARES = [f + r for f in "abcdefghi" for r in "0123456789"]
_BOARD = [f + r for f in "abcdefgh" for r in "12345678"]


@st.composite
def scenario_texts(draw: st.DrawFn) -> str:
    """Scenario YAML: half of them well-formed (pieces on free squares, Kings in their camps,
    armies within a set), the others often wrong (off-board squares, clashes, big numbers)."""
    clean = draw(st.booleans())
    squares = _BOARD if clean else _SQUARES
    free = list(_BOARD)

    def side(color: str) -> dict[str, object]:
        data: dict[str, object] = {}
        if draw(st.booleans()):
            data["lp"] = draw(st.integers(0, 999 if clean else 1200))
        if draw(st.booleans()):
            data["sp"] = draw(st.integers(0, 60))
        if draw(st.booleans()):
            data["gem"] = {"captured": draw(st.dictionaries(st.sampled_from("PNB"), st.integers(0, 1), max_size=3))}
            if not clean or draw(st.booleans()):
                data["gem"]["own"] = draw(st.dictionaries(st.sampled_from("PNBRQ"), st.integers(0, 1), max_size=5))  # type: ignore[index]
        if not clean:
            pieces = st.lists(st.tuples(st.sampled_from("KQRBNP"), st.sampled_from(squares)), max_size=6)
            data["pieces"] = [letter + square for letter, square in draw(pieces)]
            return data
        placed = []
        camp = "1234" if color == "white" else "5678"
        if draw(st.booleans()):
            king = draw(st.sampled_from([sq for sq in free if sq[1] in camp]))
            free.remove(king)
            placed.append("K" + king)
        for letter in draw(st.lists(st.sampled_from("RNP"), max_size=2, unique=True)):
            where = draw(st.sampled_from(free))
            free.remove(where)
            placed.append(letter + where)
        data["pieces"] = placed
        return data

    data: dict[str, object] = {"name": draw(st.sampled_from(["S", "Siege", "x y"]))}
    if draw(st.booleans()):
        data["first"] = draw(st.sampled_from(["white", "black"]))
    if draw(st.booleans()):
        data["turn_limit"] = draw(st.integers(1 if clean else 0, 6))
    data["white"], data["black"] = side("white"), side("black")

    def marker_list(size: int) -> list[str]:
        return draw(st.lists(st.sampled_from(squares), min_size=1, max_size=size, unique=clean))

    white, black = marker_list(2), marker_list(2)
    if clean:
        black = [sq for sq in black if sq not in white] or [next(sq for sq in _BOARD if sq not in white)]
    data["markers"] = {"m": marker_list(3), "w": {"white": white, "black": black}}
    kinds = [
        {"break_and_capture": {}},
        {"hold_markers": {"set": "m"}},
        {"hold_markers": {"set": "w", "side": "black"}},
        {"captured_value": {"at_least": 2}},
        {"captured_value": {"at_least": 50, "side": "white"}},
    ]
    if not clean:
        kinds.append({"hold_markers": {"set": "nope"}})
    data["win"] = {"core": draw(st.booleans()), "conditions": draw(st.lists(st.sampled_from(kinds), max_size=3))}
    if not clean and draw(st.integers(0, 3)) == 0:
        data["rules"] = {draw(st.sampled_from(["cost.move", "king_hp", "phases", "start.lp", "nonsense"])): 3}
    return json.dumps(data)  # JSON is YAML


LOG_TAIL = "1. end: pass\n1... end: pass\n2. upkeep: summon P a2\n   main1: move Pa2 a4\n2... end: pass\n"


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(text=scenario_texts(), seed=st.integers(0, 2**16))
def test_replay_never_raises_on_generated_scenarios(tmp_path: Path, text: str, seed: int) -> None:
    """Whatever the scenario, replay returns a result: never an exception, never SG-X001. A
    scenario that loads clean plays random legal games that replay clean to the same state."""
    path = tmp_path / "s.scenario.yaml"
    path.write_text(text, encoding="utf-8")
    options = ReplayOptions(scenario=str(path))
    for log in ("king white e1\nking black e8\n" + LOG_TAIL, LOG_TAIL, "king white e1\n"):
        result = replay_text(log, "g.sglog", options)
        assert "SG-X001" not in codes(result)
    loaded, _ = check_scenario_text(text, str(path))
    if loaded.scenario is None:
        return
    rng = random.Random(seed)
    game = generate_game(rng, style=rng.choice(list(Style)[:2]), scenario=loaded.scenario, max_turns=12)
    result = replay_text(format_log(game.items), "g.sglog", options)
    assert result.ok, (text, [d.message for d in result.diagnostics][:3])
    assert result.state == game.final
