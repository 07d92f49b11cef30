"""One format protocol and one registry serve every command (docs/architecture.md, "report").

Each registry entry is its module's ``FORMAT``; each command offers exactly the formats of the
kind of result it builds; a format written in a test module, once registered, spells every kind
of result, a run streamed as it is whole."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.cli import main
from sgcheck.codes import CATALOGUE
from sgcheck.core.odds import ATTACKERS, CaptureQuestion, capture_odds, odds_tables
from sgcheck.core.pieces import Color, Kind
from sgcheck.diagnostics import Diagnostic, Severity, Span
from sgcheck.play.policies import Policy
from sgcheck.replay.dice_stats import DiceStats, PlayerDice
from sgcheck.report import CHECK_FORMATS, REPLAY_FORMATS, ReportStream, render
from sgcheck.report import formats as registry
from sgcheck.report.formats import REGISTRY, Entry, Format, ResultKind, format_named, names_for
from sgcheck.results import (
    DisputedEnd,
    DisputeReport,
    ExplainedFact,
    Explanation,
    FactPart,
    FileResult,
    Frame,
    GauntletReport,
    ManifestFacts,
    ReplayFacts,
    Run,
    SideTotals,
    SimulationReport,
    Timeline,
    Totals,
)
from sgcheck.simulate.games import GameRecord, Side
from sgcheck.simulate.gauntlet import matches
from sgcheck.simulate.gauntlet import summarise as gauntlet_summary
from sgcheck.simulate.run import RunPlan
from sgcheck.simulate.stats import summarise

_SIDE = st.builds(SideTotals, st.integers(0, 99), st.integers(0, 99), st.integers(0, 20))
_FACT = st.builds(
    ExplainedFact,
    key=st.sampled_from(["cost", "hit", "refused"]),
    label=st.text(max_size=8),
    value=st.one_of(st.booleans(), st.integers(), st.text(max_size=8)),
    text=st.text(max_size=20),
    rules=st.lists(st.sampled_from(["core §4.2", "R10"]), max_size=2).map(tuple),
    parts=st.lists(st.builds(FactPart, st.text(max_size=5), st.integers()), max_size=2).map(tuple),
)
_EXPLANATION = st.builds(
    Explanation,
    line=st.integers(1, 99),
    turn=st.integers(1, 99),
    side=st.sampled_from(["white", "black"]),
    phase=st.sampled_from(["upkeep", "main1", "battle", "main2", "end"]),
    statement=st.text(max_size=20),
    legal=st.booleans(),
    kind=st.sampled_from(["statement", "turn_end"]),
    facts=st.lists(_FACT, max_size=2).map(tuple),
    after=st.builds(Totals, _SIDE, _SIDE),
)
_START = Frame(1, 0, 1, 0, -1, "e1K", (), (20, 0, 0, 20, 0, 0), "0/0", None, (-1, -1), None)


@pytest.mark.parametrize("entry", REGISTRY, ids=lambda entry: entry.name)
def test_each_entry_of_the_registry_is_its_modules_format(entry: Entry) -> None:
    loaded = format_named(entry.name)
    assert isinstance(loaded, Format)
    assert (loaded.name, loaded.renders) == (entry.name, entry.renders)
    assert type(loaded).__module__ == entry.module


def _choices(*path: str) -> tuple[str, ...]:
    command: click.Command = main
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    option = next(p for p in command.params if p.name == "fmt")
    assert isinstance(option.type, click.Choice)
    return tuple(option.type.choices)


def test_each_command_offers_the_formats_of_the_result_it_builds() -> None:
    """check and replay a Run, simulate a simulation or a gauntlet, odds its two answers; html
    draws a replay's positions, so check does not offer it."""
    assert _choices("check") == names_for(ResultKind.CHECK) == CHECK_FORMATS
    assert _choices("replay") == names_for(ResultKind.REPLAY) == REPLAY_FORMATS
    assert "html" in REPLAY_FORMATS and "html" not in CHECK_FORMATS
    assert _choices("simulate") == names_for(ResultKind.SIMULATION) == names_for(ResultKind.GAUNTLET)
    for path in (("odds",), ("odds", "table"), ("odds", "capture")):
        assert _choices(*path) == names_for(ResultKind.ODDS_TABLE) == names_for(ResultKind.CAPTURE_ODDS)
    assert _choices("dice", "stats") == names_for(ResultKind.DICE_STATS) == ("text", "json")


def test_a_format_asked_for_a_result_it_does_not_render_is_refused() -> None:
    simulation = _simulation(2)
    with pytest.raises(ValueError, match="does not render a simulation"):
        render(simulation, "sarif")
    with pytest.raises(ValueError, match="unknown output format 'yaml'"):
        render(simulation, "yaml")
    with pytest.raises(ValueError, match="not a result a format renders"):
        render({"run": {}}, "json")


def _run(command: str) -> Run:
    found = Diagnostic("SG-R114", Severity.ERROR, "a d10 shows 0-9", Span("a.sglog", 2, 1, 2, 5, 10, 14))
    files = (FileResult("a.sglog", (found, found)), FileResult("b.sglog", ()))
    return Run(command, files, {"a.sglog": "x\nroll 12\n"}, CATALOGUE, "test")


def _games(count: int) -> list[GameRecord]:
    """``count`` games the pack's side won by King conversion (core §7), each side first in half."""
    return [
        GameRecord(i, Color.WHITE if i < count // 2 else Color.BLACK, Color.WHITE, Color.WHITE, "conversion", 10,
                   ((), ()), ((), ()))
        for i in range(count)
    ]  # fmt: skip


def _simulation(games: int) -> SimulationReport:
    """The report of ``games`` games of a pack against the core, summarised as simulate does."""
    run = RunPlan(Side("pack"), Side("core"), games=games // 2, seed=0, policy=Policy.RANDOM)
    return summarise(run, _games(games))


def _gauntlet(*labels: str) -> GauntletReport:
    """The report of a gauntlet of ``labels``, each match two games, summarised as simulate does."""
    base = RunPlan(Side(labels[0]), Side(labels[1]), games=1, seed=0, policy=Policy.RANDOM)
    entrants = [Side(label) for label in labels]
    runs = matches(base, entrants)
    return gauntlet_summary(base, entrants, runs, [_games(2) for _ in runs])


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test module's format, registered as a new format is: one entry."""
    entry = Entry("tally", "tests.report.tally_format", frozenset(ResultKind))
    monkeypatch.setattr(registry, "REGISTRY", (*REGISTRY, entry))


@pytest.mark.usefixtures("tally")
def test_a_new_format_is_one_module_that_serves_every_command() -> None:
    assert "tally" in names_for(ResultKind.CHECK) and "tally" in names_for(ResultKind.CAPTURE_ODDS)
    for command in ("check", "replay"):
        expected = f"a.sglog: 2\nb.sglog: 0\n{command}: 2 files, 2 findings\n"
        assert render(_run(command), "tally") == expected
        stream = ReportStream("tally", command=command, rules=CATALOGUE, tool_version="test")
        streamed = [stream.add(file, _run(command).sources) for file in _run(command).files]
        assert streamed == ["a.sglog: 2\n", "b.sglog: 0\n"]  # written as each file is checked
        assert "".join(streamed) + stream.close() == expected
    assert render(_simulation(12), "tally") == "simulation: 12 games\n"
    assert render(_gauntlet("a", "b", "c"), "tally") == "gauntlet: 3 entrants\n"
    # every attacker of the accuracy table; the move, attack and summon costs (core §3, §4.1)
    assert render(odds_tables(), "tally") == f"odds table: {len(ATTACKERS)} attackers, 3 cost tables\n"
    odds = capture_odds(CaptureQuestion(attacker=Kind.ROOK, target=Kind.PAWN, distance=1, lp=50, sp=0))
    # a Rook needs 1 hit on a Pawn (value 1, core §4.3): the chance of a plan is at least one hit's
    assert render(odds, "tally") == f"capture odds: {odds.best.probability}\n"
    stats = DiceStats(3, 0, (), (), (), 0, (), (PlayerDice("Ann", "d6", ((1, 2),), 2, None, 5, None),))
    assert render(stats, "tally") == "dice stats: 3 logs, 1 players' dice\n"
    assert Fraction(odds.best.probability) >= odds.hit_chance


_GAUNTLET = ["--against", "examples/packs/inert", "--against", "examples/packs/in-play", "--allow-violations"]
_SHORT = ["--games", "1", "--jobs", "1", "--turn-limit", "2"]


@pytest.mark.usefixtures("tally")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["check", "examples/packs/starter"],
         r"\A(examples/packs/starter/\S+: \d+\n)+check: \d+ files, \d+ findings\n\Z"),
        (["replay", "examples/logs/full-game.sglog"],
         r"\Aexamples/logs/full-game.sglog: 0\nreplay: 1 files, 0 findings\n\Z"),
        (["simulate", "examples/packs/starter", *_SHORT], r"\Asimulation: 2 games\n\Z"),
        (["simulate", "examples/packs/starter", *_GAUNTLET, *_SHORT], r"\Agauntlet: 3 entrants\n\Z"),
        (["odds"], r"\Aodds table: \d+ attackers, 3 cost tables\n\Z"),
        (["odds", "table"], r"\Aodds table: \d+ attackers, 3 cost tables\n\Z"),
        (["odds", "capture", "--attacker", "R", "--target", "N", "--distance", "2", "--sp", "40"],
         r"\Acapture odds: [1-9]\d*/[1-9]\d*\n\Z"),  # a fraction strictly between 0 and 1
        (["dice", "stats", "examples/logs"], r"\Adice stats: [1-9]\d* logs, [1-9]\d* players' dice\n\Z"),
    ],
    ids=lambda value: " ".join(w for w in value[:2] if not w.startswith("ex")) if isinstance(value, list) else "",
)  # fmt: skip
def test_a_new_format_registered_is_offered_and_written_by_every_command_with_a_format(
    args: list[str], expected: str
) -> None:
    """One entry in the registry, no edit of any command: each command's ``--format`` takes the
    new format and writes its result in it (the check of a pack, the replay of a clean log, a
    simulation, a gauntlet of three packs, the odds of core §4.2, the dice of the example logs)."""
    result = CliRunner().invoke(main, [*args, "--format", "tally"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1) and re.match(expected, result.output), result.output


def test_every_format_option_of_the_commands_reads_the_registry() -> None:
    """Every ``--format`` of a command is the registry's, ``dice next`` too: its rolls are a typed
    result (sgcheck.replay.dice_next) that the report layer spells."""
    from sgcheck.cli.common import FormatChoice

    def walk(command: click.Command, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], click.Option]]:
        found = [(path, p) for p in command.params if isinstance(p, click.Option) and "--format" in p.opts]
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                found += walk(sub, (*path, name))
        return found

    options = walk(main, ())
    offered = {path for path, option in options if isinstance(option.type, FormatChoice)}
    assert offered == {
        ("check",), ("replay",), ("simulate",), ("odds",), ("odds", "table"), ("odds", "capture"), ("dice", "stats"),
        ("dice", "next"),
    }  # fmt: skip
    assert {path for path, _ in options} == offered


def test_the_odds_and_a_simulation_through_the_registry_are_what_their_renderers_write() -> None:
    """The JSON of the odds is the core's numbers (core §4.2): an oracle read from the tables."""
    tables = odds_tables(10)
    document = json.loads(render(tables, "json"))
    rows = {(row["attacker"], row["defender"]): row["threshold"] for row in document["accuracy"]}
    for attacker, row in tables.accuracy.rows:
        for defender, worked in row:
            assert rows[(attacker.title, defender.title)] == worked.value
    assert document["bonus"] == 10 and render(tables, "text").startswith("Accuracy: hit if d100")


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "examples/packs/starter", "--format", "sarif"],
        ["odds", "--format", "html"],
        ["odds", "capture", "--attacker", "R", "--target", "N", "--distance", "2", "--format", "junit"],
        ["check", "examples/cards", "--format", "html"],
    ],
)
def test_a_format_the_command_does_not_offer_is_a_usage_error(args: list[str]) -> None:
    """Exit 2 with the choices named, before anything is played or read, never a traceback."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert "Invalid value for '--format'" in result.output and "Traceback" not in result.output


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@settings(deadline=None, max_examples=60)
@given(
    cards=st.integers(0, 10**6),
    files=st.integers(0, 10**4),
    named=st.lists(st.one_of(st.none(), _TEXT), min_size=5, max_size=5),
)
def test_a_manifests_facts_say_in_json_what_it_names_and_nothing_else(
    cards: int, files: int, named: list[str | None]
) -> None:
    """The JSON report's facts of a pack (docs/output-formats.md): the names the manifest gave, in
    the order pack, version, ruleset, scenario, module, then the counts; none it did not give."""
    keys = ("pack", "version", "ruleset", "scenario", "module")
    facts = ManifestFacts(cards, files, *named)
    document = json.loads(render(Run("check", (FileResult("p/sgpack.yaml", (), facts=facts),)), "json"))
    written = document["files"][0]["facts"]
    expected = [(key, value) for key, value in zip(keys, named, strict=True) if value is not None]
    assert list(written.items()) == [*expected, ("cards", cards), ("files", files)]


@settings(deadline=None, max_examples=30)  # each example renders a run in five formats
@given(
    legal=st.booleans(),
    stopped=st.booleans(),
    turns=st.integers(0, 2000),
    explanations=st.lists(_EXPLANATION, max_size=3),
    dispute=st.one_of(
        st.none(),
        st.builds(
            DisputeReport,
            profile=st.just("disputes-1"),
            legal=st.just(True),
            first=st.none(),
            position=st.none(),
            rulings=st.just(()),
            end=st.builds(DisputedEnd, headline=st.text(max_size=20), result=st.none(), final=st.none()),
        ),
    ),
)
def test_a_replays_timeline_reaches_json_as_its_explanations_and_the_dispute_as_its_section(
    legal: bool, stopped: bool, turns: int, explanations: list[Explanation], dispute: DisputeReport | None
) -> None:
    """The positions are the HTML page's; JSON keeps the explanations (replay --timeline) and the
    dispute report (replay --dispute, docs/disputes.md) as sections of the file, not as facts."""
    timeline = Timeline("g.sglog", (_START,), (), None, None, (), (), tuple(explanations))
    facts = ReplayFacts(legal, stopped, "core", (), turns, None, None, 0, timeline=timeline, dispute=dispute)
    file = json.loads(render(Run("replay", (FileResult("g.sglog", (), facts=facts),)), "json"))["files"][0]
    assert file["timeline"] == [explained.as_json() for explained in explanations]
    assert file["facts"] == {**facts.as_json(), "house_rules": []} and "timeline" not in file["facts"]
    assert ("dispute" in file) is (dispute is not None)
    assert file.get("dispute") == (dispute.as_json() if dispute is not None else None)
    run = Run("replay", (FileResult("g.sglog", (), facts=facts),))
    assert '"frames":[[1,0,1,0,-1,"e1K",[],[20,0,0,20,0,0],"0/0",null,[-1,-1],null]]' in render(run, "html")
    for fmt in ("text", "sarif", "junit", "github"):  # no other format writes them out
        assert "frames" not in render(run, fmt)


def test_the_documented_table_of_commands_and_formats_is_the_registrys() -> None:
    """docs/output-formats.md lists each command's formats; they are the ones it offers."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "output-formats.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `sgcheck ([\w ]+)` \| [^|]+ \| (.+) \|$", text, re.MULTILINE))
    kinds = {"check": ResultKind.CHECK, "replay": ResultKind.REPLAY}
    kinds |= {"simulate": ResultKind.SIMULATION, "odds": ResultKind.ODDS_TABLE, "dice stats": ResultKind.DICE_STATS}
    kinds |= {"dice next": ResultKind.DICE_NEXT}
    assert set(rows) == set(kinds)
    for command, kind in kinds.items():
        assert tuple(re.findall(r"`(\w+)`", rows[command])) == names_for(kind), command
