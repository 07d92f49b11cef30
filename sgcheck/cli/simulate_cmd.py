"""``sgcheck simulate``: play many games with and without a pack and report what a designer reads.

A thin front-end over :mod:`sgcheck.simulate`: it loads the pack (checked as ``sgcheck check``
checks it, R22), plans the games, plays them with a progress bar on standard error, and
renders the report as text, JSON or an HTML page.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from sgcheck.cli.common import (
    FormatChoice,
    Output,
    cluster_options,
    commit_output,
    guarded,
    jobs_option,
    open_output,
    output_file_option,
    writable_folder,
)
from sgcheck.report.formats import ResultKind

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario
    from sgcheck.simulate.games import GameRecord, Side

#: Without a turn limit: 20 LP + 6 a Pass reach 1000 LP by round 164 (core §1, §2.5, §7); past 200, stop.
MAX_TURNS = 200

_POLICIES = ("search", "lookahead", "greedy", "random")


@click.command("simulate", short_help="Play many games with and without a pack; report balance.")
@click.argument("pack", type=click.Path())
@click.option(
    "--against",
    "against_packs",
    multiple=True,
    metavar="PACK|core",
    help="The other side's pack, or core: the core alone, no cards (the default). "
    "Given more than once: a gauntlet, each pack against each, both seats.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    metavar="N",
    help="Games per side: N with the pack's side first, N with the other side first.",
)
@click.option("--scenario", metavar="FILE", help="Play every game under this scenario (R24).")
@click.option(
    "--policy",
    type=click.Choice(_POLICIES),
    default="search",
    show_default=True,
    help="How both sides play: search (expectimax, the strongest), lookahead, greedy, or random (the baseline).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The same seed gives the same report.")
@click.option(
    "--turn-limit",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="End each game after N rounds, decided as R18 says (a scenario's own limit comes first). "
    "Default: none, as in the core (core §7): games end by King conversion or 1000 LP.",
)
@jobs_option("Play the games")
@cluster_options("Play the games")
@click.option(
    "--format",
    "fmt",
    type=FormatChoice(ResultKind.SIMULATION, ResultKind.GAUNTLET),
    default="text",
    show_default=True,
    help="text for people, json for tools (schemas/simulate.schema.json), html for a page with plots.",
)
@output_file_option("Write the report to this file instead of standard output.")
@click.option(
    "--sample-logs",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Write a sample of the games (at most 10) as .sglog files into DIR, for `sgcheck replay --pack`.",
)
@click.option(
    "--impact",
    is_flag=True,
    help="Measure each card's impact: play the same games again without it (once per card; docs/simulate.md).",
)
@click.option(
    "--impact-pair",
    "impact_pairs",
    nargs=2,
    multiple=True,
    metavar="CARD CARD",
    help="Measure the impact of two cards together: the same games without both. Repeatable.",
)
@click.option(
    "--allow-violations",
    is_flag=True,
    help="Simulate a pack that breaks the contract; its forbidden effects are never played (SG-N305).",
)
@guarded
def simulate_command(**given: Any) -> int:
    """Play many games of PACK against another pack or the core alone, and report balance.

    \b
    Both sides play with the same policy; each side plays first in half the games. Every game
    is played with the core engine: an action it refuses is an internal error (exit 2), never
    a statistic. The report: win rates with 95% intervals, the first player's edge, game
    length, endings, each card's record (drafted, played, won with and without it), economy
    curves, and the cards that dominate (docs/simulate.md).
    """
    return run_simulate(SimulateOptions(**given))


@dataclass(frozen=True, slots=True)
class SimulateOptions:
    """The options of ``sgcheck simulate``, as parsed."""

    pack: str
    against_packs: tuple[str, ...]
    games: int
    scenario: str | None
    policy: str
    seed: int
    turn_limit: int | None
    jobs: int | None
    cluster: str | None
    cluster_timeout: float
    fmt: str
    output_file: str | None
    sample_logs: str | None
    impact: bool
    impact_pairs: tuple[tuple[str, str], ...]
    allow_violations: bool


def run_simulate(options: SimulateOptions) -> int:
    """Load the sides and the scenario, plan the runs, play them, render the report, write the sample
    logs, and return the exit code."""
    from dataclasses import replace

    from sgcheck.cli.progress import CountBar
    from sgcheck.core.ruleset import CORE
    from sgcheck.distribute import ClusterError
    from sgcheck.play.policies import Policy
    from sgcheck.replay.reads import pack_reads
    from sgcheck.report import render
    from sgcheck.simulate.gauntlet import matches as gauntlet_matches
    from sgcheck.simulate.gauntlet import summarise as gauntlet_report
    from sgcheck.simulate.impact import paired
    from sgcheck.simulate.impact import plans as ablations
    from sgcheck.simulate.run import SAMPLES, RunPlan, play_runs
    from sgcheck.simulate.stats import summarise

    pack, scenario, sample_logs = options.pack, options.scenario, options.sample_logs
    gauntlet = len(options.against_packs) > 1
    entrants = _entrants(options)
    side, other = entrants[0], entrants[1]
    loaded_scenario = None
    scenario_label = None
    if scenario is not None:
        loaded_scenario, scenario_label = _scenario(scenario)
    inputs = [pack, *(a for a in options.against_packs if a != "core"), *([scenario] if scenario else [])]
    out_stream = (
        open_output(options.output_file, [read for given in inputs for read in pack_reads(given)])
        if options.output_file
        else None
    )
    if sample_logs:
        writable_folder(sample_logs, "--sample-logs")
    run = RunPlan(
        pack=side,
        against=other,
        games=options.games,
        seed=options.seed,
        policy=Policy(options.policy),
        ruleset=replace(CORE, turn_limit=options.turn_limit),
        scenario=loaded_scenario,
        scenario_label=scenario_label,
        max_turns=_max_turns(options.turn_limit, loaded_scenario),
        samples=SAMPLES if sample_logs else 0,
    )
    names = [card.name for card in side.cards]
    removals = _removals(options, names)
    runs = gauntlet_matches(run, entrants) if gauntlet else [run, *ablations(run, removals)]
    workers = options.jobs or os.cpu_count() or 1
    bar = CountBar(sum(r.total for r in runs), sys.stderr)
    played: list[list[GameRecord]] = []
    try:
        for records_of_run in play_runs(
            runs, workers, options.cluster, options.cluster_timeout, lambda _: bar.advance()
        ):
            played.append(records_of_run)
    except ClusterError as error:
        click.echo(f"sgcheck: --cluster: {error}", err=True)
        return 2
    finally:
        bar.close()
    if gauntlet:
        _write_report(out_stream, render(gauntlet_report(run, entrants, runs, played), options.fmt))
        return 0
    records = played[0]
    measured = [paired(names_out, records, again) for names_out, again in zip(removals, played[1:], strict=True)]
    if sample_logs:
        folder = Path(sample_logs)
        folder.mkdir(parents=True, exist_ok=True)
        for record in records:
            if record.log is not None:
                _write_new(folder, f"game-{record.index + 1:05d}", record.log)
    _write_report(out_stream, render(summarise(run, records, measured), options.fmt))
    if sample_logs:
        written = sum(1 for r in records if r.log is not None)
        scenario_option = f" --scenario {scenario}" if scenario else ""
        command = f"sgcheck replay --pack {pack}{scenario_option} {sample_logs}"
        click.echo(f"{written} sample logs in {sample_logs}: {command}",
                   err=True)  # fmt: skip
    return 0


def _entrants(options: SimulateOptions) -> list[Side]:
    """The sides that play: the pack first, then each ``--against`` (core when none), the pack
    against itself when it is named alone; what cannot be played together refused, in order."""
    from sgcheck.simulate.games import Side

    pack, allow_violations = options.pack, options.allow_violations
    against_packs = options.against_packs or ("core",)
    gauntlet = len(against_packs) > 1
    if gauntlet and (options.impact or options.impact_pairs or options.sample_logs):
        raise click.UsageError("a gauntlet (--against more than once) reports matches: "
                               "--impact and --sample-logs are for one pack against another")  # fmt: skip
    side = _side(pack, allow_violations)
    entrants = [side]
    for against in dict.fromkeys(against_packs):
        if against != pack:
            entrants.append(Side("core") if against == "core" else _side(against, allow_violations))
    if not gauntlet and len(entrants) == 1:  # the pack against itself
        entrants.append(side)
    for i, first_side in enumerate(entrants):
        for other in entrants[i + 1 :]:
            clash = {c.name for c in first_side.cards} & {c.name for c in other.cards}
            if other.cards and first_side.label != other.label and clash:
                raise click.BadParameter(f"{first_side.label} and {other.label} both have a card named "
                                         f"{sorted(clash)[0]!r}", param_hint="--against")  # fmt: skip
    other = entrants[1]
    if other.cards and side.label != other.label and options.sample_logs:
        raise click.BadParameter("sample logs are written for a pack against core or itself: "
                                 "a log names one pack", param_hint="--sample-logs")  # fmt: skip
    return entrants


def _removals(options: SimulateOptions, names: list[str]) -> list[tuple[str, ...]]:
    """The cards each impact run plays without: every card alone (``--impact``), then each
    ``--impact-pair``, a pair naming a card the pack lacks, or one card twice, refused."""
    removals: list[tuple[str, ...]] = [(name,) for name in dict.fromkeys(names)] if options.impact else []
    for first_card, second_card in options.impact_pairs:
        for card in (first_card, second_card):
            if card not in names:
                raise click.BadParameter(f"{options.pack} has no card named {card!r}", param_hint="--impact-pair")
        if first_card == second_card:
            raise click.BadParameter(f"a pair is two different cards, not {first_card!r} twice",
                                     param_hint="--impact-pair")  # fmt: skip
        removals.append((first_card, second_card))
    return removals


def _write_report(out_stream: IO[str] | None, text: str) -> None:
    out = Output(out_stream)
    try:
        out.write(text)
        commit_output(out_stream)  # written over the file only now that the run has ended well
    finally:
        if out_stream is not None:
            out_stream.close()


def _max_turns(turn_limit: int | None, scenario: Scenario | None) -> int:
    """Where a game that no rule has ended stops (counted as unfinished): past any turn limit, and
    without one past the turn by which a player who only passes reaches 1000 LP (core §7)."""
    limits = [n for n in (turn_limit, scenario.turn_limit if scenario is not None else None) if n]
    return max(limits) + 1 if limits else MAX_TURNS


def _side(path: str, allow_violations: bool) -> Side:
    """The cards of the pack at ``path``, checked as ``sgcheck check`` checks them (R22)."""
    from sgcheck.diagnostics import Diagnostic, plural
    from sgcheck.play.pack import load_game_pack
    from sgcheck.simulate.games import Side

    loaded = load_game_pack(path, log_folder=None, from_tag=False)
    if isinstance(loaded, Diagnostic):
        raise click.BadParameter(loaded.message, param_hint="PACK")
    if loaded.breaks_contract and not allow_violations:
        errors = [f for f in loaded.findings if f.is_error]
        shown = "; ".join(f"{f.code} {f.message}" for f in errors[:3])
        raise click.UsageError(
            f"{path} breaks the contract ({plural(len(errors), 'error')}: {shown}): fix it, "
            "or simulate it anyway with --allow-violations (`sgcheck check` lists the errors)"
        )
    if not loaded.cards:
        raise click.BadParameter(f"{path} has no card that loads", param_hint="PACK")
    keep = min(loaded.keep, loaded.hand_limit)
    return Side(path, loaded.cards, loaded.draw, keep)


def _scenario(path: str) -> tuple[Scenario, str]:
    from sgcheck.diagnostics import Diagnostic
    from sgcheck.play.game_scenario import load_game_scenario

    loaded = load_game_scenario(path, log_folder=None, from_tag=False)
    if isinstance(loaded, Diagnostic):
        raise click.BadParameter(loaded.message, param_hint="--scenario")
    if loaded.refused or loaded.scenario is None:
        errors = [f for f in loaded.findings if f.is_error]
        shown = "; ".join(f"{f.code} {f.message}" for f in errors[:3]) or "it does not load"
        raise click.UsageError(f"{path} is not a playable scenario ({shown}): `sgcheck check {path}` says why")
    return loaded.scenario, path


def _write_new(folder: Path, stem: str, text: str) -> None:
    """Write ``text`` as ``stem.sglog`` in ``folder``, or ``stem-2.sglog``... when that name is taken:
    a sample never writes over a file that is there (an earlier run's samples, or anything else)."""
    from sgcheck.project.kinds import LOG_SUFFIX

    n = 1
    while True:
        name = f"{stem}{LOG_SUFFIX}" if n == 1 else f"{stem}-{n}{LOG_SUFFIX}"
        try:
            with open(folder / name, "x", encoding="utf-8", newline="\n") as out:
                out.write(text)
            return
        except FileExistsError:
            n += 1
