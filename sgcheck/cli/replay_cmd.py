"""``sgcheck replay``: audit game logs against the locked core."""

from __future__ import annotations

import sys

import click

from sgcheck import __version__
from sgcheck.cli.common import color_option, emit, format_option, guarded


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
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "--keep-going", is_flag=True, help="Report every independent error instead of stopping at the first."
)
@click.option(
    "--ruleset",
    metavar="PROFILE",
    callback=_validate_ruleset,
    help="Ruleset profile refining the log's [Ruleset] tag, e.g. 'king_value=3' or 'income=all' (R09, R14).",
)
@click.option("--no-summary", is_flag=True, help="Do not print the final board and totals.")
@format_option
@color_option
@guarded
def replay_command(
    logs: tuple[str, ...],
    keep_going: bool,
    ruleset: str | None,
    no_summary: bool,
    fmt: str,
    color: bool | None,
) -> int:
    """Replay game LOGs (.sglog) and report the first illegal action or wrong claim.

    Exit status: 0 every log is legal, 1 a log has an error, 2 usage, I/O or internal error
    (a log that cannot be read is reported and exits 2). Use '-' to read a log from standard input.
    """
    from sgcheck.codes import CATALOGUE
    from sgcheck.diagnostics import Diagnostic
    from sgcheck.lang.source import SourceText, decode, read_source
    from sgcheck.replay.interpreter import ReplayOptions, replay_text
    from sgcheck.report.from_replay import replay_file_result
    from sgcheck.report.model import FileResult, Run

    options = ReplayOptions(keep_going=keep_going, ruleset=ruleset)
    files: list[FileResult] = []
    sources: dict[str, str] = {}
    for path in logs:
        source: SourceText | Diagnostic
        source = decode(sys.stdin.buffer.read(), "<stdin>") if path == "-" else read_source(path)
        if isinstance(source, Diagnostic):
            files.append(FileResult(path=path, diagnostics=(source,)))
            continue
        sources[source.name] = source.text
        result = replay_text(source.text, source.name, options)
        files.append(replay_file_result(path, result, with_summary=not no_summary))
    run = Run(
        command="replay", files=tuple(files), sources=sources, rules=CATALOGUE, tool_version=__version__
    )
    return emit(run, fmt, color=color)
