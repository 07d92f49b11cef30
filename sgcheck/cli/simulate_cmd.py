"""``sgcheck simulate``: play many games with and without a pack and report what a designer reads.

A thin front-end over :mod:`sgcheck.simulate`: it loads the pack (checked as ``sgcheck check``
checks it, R22), plans the games, plays them with a progress bar on standard error, and
renders the report as text, JSON or an HTML page.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sgcheck.cli.common import (
    Output,
    cluster_options,
    commit_output,
    guarded,
    jobs_option,
    open_output,
    writable_folder,
)

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario
    from sgcheck.simulate.games import Side

_POLICIES = ("greedy", "lookahead", "random")


@click.command("simulate", short_help="Play many games with and without a pack; report balance.")
@click.argument("pack", type=click.Path())
@click.option(
    "--against",
    default="core",
    show_default=True,
    metavar="PACK|core",
    help="The other side's pack, or core: the core alone, no cards.",
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
    default="greedy",
    show_default=True,
    help="How both sides play: greedy, lookahead (one turn), or random (the baseline).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The same seed gives the same report.")
@click.option(
    "--turn-limit",
    type=click.IntRange(min=1),
    default=30,
    show_default=True,
    metavar="N",
    help="End each game after N rounds, decided as R18 says (a scenario's own limit comes first).",
)
@jobs_option("Play the games")
@cluster_options("Play the games")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("text", "json", "html")),
    default="text",
    show_default=True,
    help="text for people, json for tools (schemas/simulate.schema.json), html for a page with plots.",
)
@click.option(
    "-o",
    "--output",
    "output_file",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Write the report to this file instead of standard output.",
)
@click.option(
    "--sample-logs",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Write a sample of the games (at most 10) as .sglog files into DIR, for `sgcheck replay --pack`.",
)
@click.option(
    "--allow-violations",
    is_flag=True,
    help="Simulate a pack that breaks the contract; its forbidden effects are never played (SG-N305).",
)
@guarded
def simulate_command(
    pack: str,
    against: str,
    games: int,
    scenario: str | None,
    policy: str,
    seed: int,
    turn_limit: int,
    jobs: int | None,
    cluster: str | None,
    cluster_timeout: float,
    fmt: str,
    output_file: str | None,
    sample_logs: str | None,
    allow_violations: bool,
) -> int:
    """Play many games of PACK against another pack or the core alone, and report balance.

    \b
    Both sides play with the same policy; each side plays first in half the games. Every game
    is played with the core engine: an action it refuses is an internal error (exit 2), never
    a statistic. The report: win rates with 95% intervals, the first player's edge, game
    length, endings, each card's record (drafted, played, won with and without it), economy
    curves, and the cards that dominate (docs/simulate.md).
    """
    from dataclasses import replace

    from sgcheck.cli.progress import CountBar
    from sgcheck.core.ruleset import CORE
    from sgcheck.distribute import ClusterError
    from sgcheck.replay.reads import pack_reads
    from sgcheck.simulate.games import Side
    from sgcheck.simulate.page import render_html
    from sgcheck.simulate.policies import Policy
    from sgcheck.simulate.run import SAMPLES, RunPlan, plan, play
    from sgcheck.simulate.stats import summarise
    from sgcheck.simulate.tables import render_json, render_text

    side = _side(pack, allow_violations)
    other = Side("core") if against == "core" else _side(against, allow_violations)
    if other.cards and side.label != other.label:
        clash = {c.name for c in side.cards} & {c.name for c in other.cards}
        if clash:
            raise click.BadParameter(f"both packs have a card named {sorted(clash)[0]!r}", param_hint="--against")
        if sample_logs:
            raise click.BadParameter("sample logs are written for a pack against core or itself: "
                                     "a log names one pack", param_hint="--sample-logs")  # fmt: skip
    loaded_scenario = None
    scenario_label = None
    if scenario is not None:
        loaded_scenario, scenario_label = _scenario(scenario)
    inputs = [pack, *([against] if against != "core" else []), *([scenario] if scenario else [])]
    out_stream = (
        open_output(output_file, [read for given in inputs for read in pack_reads(given)]) if output_file else None
    )
    if sample_logs:
        writable_folder(sample_logs, "--sample-logs")
    run = RunPlan(
        pack=side,
        against=other,
        games=games,
        seed=seed,
        policy=Policy(policy),
        ruleset=replace(CORE, turn_limit=turn_limit),
        scenario=loaded_scenario,
        scenario_label=scenario_label,
        max_turns=max(turn_limit, loaded_scenario.turn_limit or 0 if loaded_scenario else 0) + 1,
        samples=SAMPLES if sample_logs else 0,
    )
    tasks = plan(run)
    workers = jobs or os.cpu_count() or 1
    bar = CountBar(len(tasks), sys.stderr)
    records = []
    try:
        for record in play(tasks, workers, cluster, cluster_timeout):
            records.append(record)
            bar.advance()
    except ClusterError as error:
        click.echo(f"sgcheck: --cluster: {error}", err=True)
        return 2
    finally:
        bar.close()
    if sample_logs:
        folder = Path(sample_logs)
        folder.mkdir(parents=True, exist_ok=True)
        for record in records:
            if record.log is not None:
                _write_new(folder, f"game-{record.index + 1:05d}", record.log)
    report = summarise(run, records)
    text = {"text": render_text, "json": render_json, "html": render_html}[fmt](report)
    out = Output(out_stream)
    try:
        out.write(text)
        commit_output(out_stream)
    finally:
        if out_stream is not None:
            out_stream.close()
    if sample_logs:
        written = sum(1 for r in records if r.log is not None)
        scenario_option = f" --scenario {scenario}" if scenario else ""
        command = f"sgcheck replay --pack {pack}{scenario_option} {sample_logs}"
        click.echo(f"{written} sample logs in {sample_logs}: {command}",
                   err=True)  # fmt: skip
    return 0


def _side(path: str, allow_violations: bool) -> Side:
    """The cards of the pack at ``path``, checked as ``sgcheck check`` checks them (R22)."""
    from sgcheck.diagnostics import Diagnostic
    from sgcheck.replay.pack import load_game_pack
    from sgcheck.simulate.games import Side

    loaded = load_game_pack(path, log_folder=None, from_tag=False)
    if isinstance(loaded, Diagnostic):
        raise click.BadParameter(loaded.message, param_hint="PACK")
    if loaded.breaks_contract and not allow_violations:
        errors = [f for f in loaded.findings if f.is_error]
        shown = "; ".join(f"{f.code} {f.message}" for f in errors[:3])
        raise click.UsageError(
            f"{path} breaks the contract ({len(errors)} errors: {shown}): fix it, "
            "or simulate it anyway with --allow-violations (`sgcheck check` lists the errors)"
        )
    if not loaded.cards:
        raise click.BadParameter(f"{path} has no card that loads", param_hint="PACK")
    keep = min(loaded.keep, loaded.hand_limit)
    return Side(path, loaded.cards, loaded.draw, keep)


def _scenario(path: str) -> tuple[Scenario, str]:
    from sgcheck.diagnostics import Diagnostic
    from sgcheck.replay.game_scenario import load_game_scenario

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
    n = 1
    while True:
        name = f"{stem}.sglog" if n == 1 else f"{stem}-{n}.sglog"
        try:
            with open(folder / name, "x", encoding="utf-8", newline="\n") as out:
                out.write(text)
            return
        except FileExistsError:
            n += 1
