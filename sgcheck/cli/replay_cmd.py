"""``sgcheck replay``: audit game logs against the locked core."""

from __future__ import annotations

import os
import sys

import click

from sgcheck.cli.common import color_option, format_option, guarded, open_report, write_report


def _validate_ruleset(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from sgcheck.core.ruleset import RulesetError, parse_ruleset

    try:
        parse_ruleset(value)
    except RulesetError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


@click.command("replay", short_help="Replay game logs against the locked core rules.")
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True))
@click.option(
    "--keep-going", is_flag=True, help="Report every independent error instead of stopping at the first."
)
@click.option(
    "--ruleset",
    metavar="PROFILE",
    callback=_validate_ruleset,
    help="Ruleset profile refining the log's [Ruleset] tag, e.g. 'king_value=3' or 'income=all' (R09, R14).",
)
@click.option(
    "--pack",
    metavar="PATH",
    type=click.Path(exists=True),
    help="Play every game with this pack folder (with sgpack.yaml) or card file, "
    "instead of the one the log's [Pack] tag names (R22).",
)
@click.option(
    "--scenario",
    metavar="FILE",
    type=click.Path(exists=True),
    help="Play every game under this scenario (a .scenario.yaml file, or a pack with a scenario section), "
    "instead of the one the log's [Scenario] tag names (R24).",
)
@click.option(
    "--allow-violations",
    is_flag=True,
    help="Replay even with a pack that breaks the contract, for playtesting a prototype "
    "(a warning, SG-N305, instead of SG-P015).",
)
@click.option("--no-summary", is_flag=True, help="Do not print the final board and totals.")
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="Print only the findings and the totals line: no summaries (as --no-summary), no progress bar.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Replay N logs at once in separate processes (default: the number of cores). The output is the same.",
)
@format_option
@color_option
@guarded
def replay_command(
    logs: tuple[str, ...],
    keep_going: bool,
    ruleset: str | None,
    pack: str | None,
    scenario: str | None,
    allow_violations: bool,
    no_summary: bool,
    quiet: bool,
    jobs: int | None,
    fmt: str,
    color: bool | None,
) -> int:
    """Replay game LOGS (.sglog files, or folders searched for *.sglog) and report the first
    illegal action or wrong claim in each.

    A long run draws a progress bar on standard error when it is a terminal (never with --quiet);
    the report on standard output is the same either way.

    \b
    Exit status: 0 every log is legal, 1 a log has an error, 2 usage, I/O or internal error
    (a log that cannot be read is reported and exits 2). Use '-' to read a log from standard input.
    """
    from sgcheck.cli.progress import ProgressBar, is_terminal
    from sgcheck.codes import CATALOGUE
    from sgcheck.replay.files import discover_logs, replay_all
    from sgcheck.replay.interpreter import ReplayOptions

    inputs = discover_logs(logs)
    if not inputs:
        click.echo(f"sgcheck: no game logs (*.sglog) found in {', '.join(map(repr, logs))}", err=True)
        return 2
    options = ReplayOptions(
        keep_going=keep_going, ruleset=ruleset, pack=pack, allow_violations=allow_violations, scenario=scenario
    )
    out, report = open_report(fmt, command="replay", rules=CATALOGUE, file_count=len(inputs), color=color)
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    bar = ProgressBar([log.path for log in inputs], sys.stderr, enabled=not quiet)
    try:
        rendered = replay_all(
            inputs,
            options,
            report.renderer,
            with_summary=not (no_summary or quiet),
            jobs=workers,
            stdin=sys.stdin.buffer,
            progress=bar.in_file if bar.active else None,
        )
        return write_report(bar.follow(rendered, shares_terminal=is_terminal(out.stream)), out, report)
    finally:
        bar.close()  # on errors and Ctrl-C too: the terminal keeps only the report
