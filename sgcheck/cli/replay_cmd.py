"""``sgcheck replay``: audit game logs against the locked core."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import click

from sgcheck.cli.common import (
    DEFAULT_WALK,
    ExitPolicy,
    WalkOptions,
    cluster_options,
    color_option,
    commit_output,
    discovery_of,
    discovery_options,
    guarded,
    jobs_option,
    open_output,
    open_report,
    project_of,
    refuse_other_kinds,
    replay_format_option,
    report_options,
    selection_options,
    statistics_setting,
    write_report,
)
from sgcheck.diagnostics import plural
from sgcheck.results import FileResult

if TYPE_CHECKING:
    from sgcheck.config import Config, ReplaySettings
    from sgcheck.replay.files import LogInput
    from sgcheck.replay.interpreter import ReplayOptions
    from sgcheck.report import PartRenderer
    from sgcheck.selection import Selection


def _validate_ruleset(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from sgcheck.core.ruleset import RulesetError, parse_ruleset

    try:
        parse_ruleset(value)
    except RulesetError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _turn_option(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, int] | None:
    """``--at``: ``4`` or ``4.`` White's turn 4, ``4...`` Black's (the log's turn headers)."""
    if value is None:
        return None
    text = value.strip()
    side = 1 if text.endswith("...") else 0
    number = text.removesuffix("...").removesuffix(".")
    if not number.isascii() or not number.isdigit() or int(number) < 1:
        raise click.BadParameter(f"{value!r} is not a turn: write 4 (or 4.) for White's turn 4, 4... for Black's")
    return int(number), side


@click.command("replay", short_help="Replay game logs against the locked core rules.")
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True))
@click.option(
    "--keep-going/--no-keep-going",
    default=None,
    help="Report every independent error instead of stopping at the first (default: [tool.sgcheck.replay], else no).",
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
    help="Replay even with a pack that breaks the contract, for playtesting a prototype: its errors "
    "are reported as warnings and SG-N305 instead of SG-P015, so a game that never plays an offending card passes.",
)
@click.option(
    "--explain",
    "explain_line",
    type=click.IntRange(min=1),
    metavar="LINE",
    help="Print why the statement at LINE of one log came out as it did (cost, threshold, roll, damage, "
    "each card's share...), then the position after it, instead of the report.",
)
@click.option(
    "--at",
    "explain_turn",
    metavar="TURN",
    callback=_turn_option,
    help="As --explain, for every statement of TURN and its end: '4' or '4.' is White's turn 4, '4...' Black's.",
)
@click.option(
    "--timeline",
    is_flag=True,
    help="With --format json: each log's result lists the explanation of every statement and turn end, "
    'in order (its "timeline").',
)
@click.option(
    "--dispute",
    is_flag=True,
    help="Add each log's dispute report: its first illegal action or wrong claim, the position had it not "
    "been written, and the outcome each ruling of the house-rule profile leads to (docs/disputes.md; not a core rule).",
)
@click.option("--no-summary", is_flag=True, help="Do not print the final board and totals.")
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="Print only the findings and the totals line: no summaries (as --no-summary), no progress bar.",
)
@jobs_option("Replay the logs")
@cluster_options("Replay")
@click.option(
    "--stdin-filename",
    metavar="NAME",
    default="<stdin>",
    show_default=True,
    help="The name a log read from standard input ('-') is reported under; its [Pack] tag is read from NAME's folder.",
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Read [tool.sgcheck.replay] from this file instead of the nearest pyproject.toml.",
)
@click.option("--isolated", is_flag=True, help="Ignore every configuration file.")
@click.option(
    "--audit",
    is_flag=True,
    help="Audit logs someone else sent: read no configuration beside the logs or above them (only --config), "
    "search folders whatever .gitignore says, and say what a configuration hid. --dispute implies it.",
)
@selection_options
@report_options
@replay_format_option
@color_option
@discovery_options
@guarded
def replay_command(**given: Any) -> int:
    """Replay game LOGS (.sglog files, or folders searched for *.sglog) and report the first
    illegal action or wrong claim in each.

    A long run draws a progress bar on standard error when it is a terminal (never with --quiet);
    the report on standard output is the same either way.

    \b
    Exit status: 0 every log is legal, 1 a log has an error, 2 usage, configuration, I/O or
    internal error (a log that cannot be read, or an invalid [tool.sgcheck], is reported and
    exits 2). Use '-' to read a log from standard input.
    """
    return run_replay(ReplayCommandOptions(**given))


@dataclass(frozen=True, slots=True)
class ReplayCommandOptions:
    """The options of ``sgcheck replay``, as parsed (the interpreter's own are
    :class:`~sgcheck.replay.interpreter.ReplayOptions`, made from these)."""

    logs: tuple[str, ...]
    keep_going: bool | None
    ruleset: str | None
    pack: str | None
    scenario: str | None
    allow_violations: bool
    explain_line: int | None
    explain_turn: tuple[int, int] | None
    timeline: bool
    dispute: bool
    no_summary: bool
    quiet: bool
    jobs: int | None
    cluster: str | None
    cluster_timeout: float
    stdin_filename: str
    config_file: str | None
    isolated: bool
    audit: bool
    select: tuple[str, ...] | None
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    per_file_ignores: tuple[str, ...]
    output_file: str | None
    exit_zero: bool
    fail_on: str
    statistics: bool | None
    verbose: bool
    fmt: str
    color: bool | None
    walk: WalkOptions = DEFAULT_WALK


def _refuse_combinations(options: ReplayCommandOptions) -> None:
    """The usage errors of options that cannot go together, in the order they are said."""
    fmt = options.fmt
    explaining = options.explain_line is not None or options.explain_turn is not None
    if options.explain_line is not None and options.explain_turn is not None:
        raise click.UsageError("--explain and --at cannot be used together: give a line or a turn")
    if explaining and fmt != "text":
        raise click.UsageError("--explain and --at print text: they cannot be used with --format " + fmt)
    if explaining and options.output_file:
        raise click.UsageError("--explain and --at print to standard output: -o/--output-file is for reports")
    if options.dispute and fmt not in ("text", "json", "html"):
        raise click.UsageError(f"--dispute is written in the text, json and html reports, not with --format {fmt}")
    if options.dispute and explaining:
        raise click.UsageError("--dispute cannot be used with --explain or --at")
    if options.timeline and fmt != "json":
        raise click.UsageError("--timeline adds the explanations to the JSON report: use it with --format json")


def run_replay(options: ReplayCommandOptions) -> int:
    """Refuse what cannot go together, find the logs, replay them (or explain one), render, and
    return the exit code."""
    from sgcheck.cli.progress import ProgressBar, is_terminal
    from sgcheck.codes import REPLAY_CODES
    from sgcheck.distribute import ClusterError
    from sgcheck.lang.source import SourceText
    from sgcheck.replay.files import discover_logs, replay_all, replays_here, run_findings
    from sgcheck.replay.interpreter import ReplayOptions
    from sgcheck.report import FACT_FORMATS

    logs, fmt, output_file = options.logs, options.fmt, options.output_file
    _refuse_combinations(options)
    refuse_other_kinds(logs, "replay")  # a card file, scenario or manifest named here is check's
    audit = options.audit or options.dispute  # a dispute is an audit: the log's sender chooses nothing of it
    project = project_of(logs, options.config_file, isolated=options.isolated, audit=audit)
    if options.verbose and project.origin.looked:
        click.echo(project.described(), err=True)
    settings = ReplaySetup(project.config)
    statistics = statistics_setting(options.statistics, bool(settings.values.statistics), fmt)
    config = settings.config
    walk = options.walk
    if audit:  # a .gitignore beside the logs could hide one from the search (docs/ci.md)
        walk = replace(walk, no_respect_gitignore=True)
    discovery = discovery_of(project, walk)
    inputs = discover_logs(logs, discovery)
    if not inputs and all(log != "-" and discovery.skips_named(log) for log in logs):
        return 0  # --force-exclude left out every log named (a pre-commit run on excluded files only)
    if not inputs:
        click.echo(f"sgcheck: no game logs (*.sglog) found in {', '.join(map(repr, logs))}", err=True)
        click.echo("sgcheck: files git ignores and paths an exclude pattern names are not searched", err=True)
        return 2
    ruleset = options.ruleset
    if ruleset is None and settings.values.ruleset is not None:
        ruleset = settings.values.ruleset
    replaying = ReplayOptions(
        keep_going=options.keep_going if options.keep_going is not None else bool(settings.values.keep_going),
        ruleset=ruleset,
        pack=options.pack,
        allow_violations=options.allow_violations,
        scenario=options.scenario,
        timeline=fmt == "html" or options.timeline,
        dispute=options.dispute,
    )
    policy = ExitPolicy(options.exit_zero, options.fail_on)
    if options.explain_line is not None or options.explain_turn is not None:
        if len(inputs) != 1:
            flag = "--explain" if options.explain_line is not None else "--at"
            raise click.UsageError(f"{flag} explains one game log; {len(inputs)} were given or found")
        return explain_log(
            inputs[0], replaying, options.explain_line, options.explain_turn, options.stdin_filename, policy
        )
    selection = settings.selection(options.select, options.extend_select, options.ignore, options.per_file_ignores)
    if options.verbose:
        click.echo(f"sgcheck: {plural(len(inputs), 'game log')} to replay", err=True)
    stream = (
        open_output(output_file, settings.inputs(logs, inputs, options.pack, options.scenario)) if output_file else None
    )
    out, report = open_report(
        fmt, command="replay", rules=REPLAY_CODES, file_count=len(inputs), color=options.color, stream=stream
    )
    if config is not None or audit:
        report.configuration = (config.source or "") if config is not None else ""
    workers = options.jobs or settings.values.jobs or os.cpu_count() or 1
    bar = ProgressBar([log.path for log in inputs], sys.stderr, enabled=not options.quiet)
    # the logs replayed here are read once: their replay takes the texts the headers' pass read
    held: dict[str, SourceText] | None = {} if replays_here(inputs, workers, options.cluster) else None
    try:
        try:
            extra = run_findings(inputs, held)
            rendered = replay_all(
                inputs,
                replaying,
                report.renderer,
                with_summary=not (options.no_summary or options.quiet),
                jobs=workers,
                cluster=options.cluster,
                cluster_timeout=options.cluster_timeout,
                stdin=sys.stdin.buffer,
                progress=bar.in_file if bar.active else None,
                stdin_name=options.stdin_filename,
                selection=selection,
                extra=extra,
                with_facts=fmt in FACT_FORMATS,
                held=held,
            )
        except ClusterError as error:
            click.echo(f"sgcheck: --cluster: {error}", err=True)
            return 2
        parts = itertools.chain(settings.problems(report.renderer), rendered)
        shared = is_terminal(out.stream)
        status = write_report(bar.follow(parts, shares_terminal=shared), out, report, policy, statistics=statistics)
        commit_output(stream)
        return status
    finally:
        bar.close()  # on errors and Ctrl-C too: the terminal keeps only the report
        if stream is not None:
            stream.close()


def explain_log(
    log: LogInput,
    options: ReplayOptions,
    line: int | None,
    turn: tuple[int, int] | None,
    stdin_name: str,
    policy: ExitPolicy,
) -> int:
    """``--explain LINE`` and ``--at TURN``: the explanations asked for and the position after them.
    The exit code is the replay's (1 when the log has an error, with ``policy``); 2 when the log
    cannot be read, or the line or turn has nothing replayed to explain (a usage error naming
    the nearest that have)."""
    from sgcheck.cli.common import exit_code_of
    from sgcheck.replay.files import replay_log
    from sgcheck.report.replay_text import explained_text, nothing_to_explain, turn_text
    from sgcheck.report.text import render_file

    asked = replace(options, timeline=True, keep_line=line, keep_turn=turn)
    found, sources, result = replay_log(log, asked, False, sys.stdin.buffer, None, stdin_name)
    if result is None:  # not replayed (unreadable, binary...): the finding says why
        click.echo(render_file(found, sources), nl=False)
        click.echo("sgcheck: nothing to explain: the log could not be replayed", err=True)
        return exit_code_of([found], policy) or 2
    explanations = result.timeline.explanations if result.timeline is not None else ()
    if not result.kept:
        raise click.UsageError(nothing_to_explain(line, turn, explanations, result.stopped))
    what = f"line {line}" if line is not None else f"turn {turn_text(turn)}"
    click.echo(explained_text(result.kept, what), nl=False)
    return exit_code_of([found], policy)


@dataclass(frozen=True, slots=True)
class ReplaySetup:
    """``[tool.sgcheck.replay]`` as the command uses it: the settings, and the table's problems."""

    config: Config | None

    @property
    def values(self) -> ReplaySettings:
        from sgcheck.config import ReplaySettings

        return self.config.replay if self.config is not None else ReplaySettings()

    def inputs(self, logs: tuple[str, ...], found: list[LogInput], pack: str | None, scenario: str | None) -> list[str]:
        """The files the replay is known to read before it runs, which ``--output-file`` must not name:
        the logs (as named and as found in folders), ``--pack`` (with the files of a pack folder),
        ``--scenario`` and the configuration file. A pack a log's tag names is read later; its
        card files and manifest are found from its header (sgcheck.replay.reads)."""
        from sgcheck.replay.reads import pack_reads, tag_reads

        named = [*logs, *(log.path for log in found)]
        named += [path for path in (pack, scenario, self.config.source if self.config else None) if path]
        for given in (pack, scenario):
            named += pack_reads(given) if given is not None else []
        for log in found:
            if log.path != "-" and (pack is None or scenario is None):
                named += tag_reads(log.path)
        return named

    def selection(
        self,
        select: tuple[str, ...] | None,
        extend_select: tuple[str, ...],
        ignore: tuple[str, ...],
        per_file: tuple[str, ...],
    ) -> Selection | None:
        """The command line's selection on top of the table's; None when neither selects anything."""
        if not self.values.selects(select, extend_select, ignore, per_file):
            return None  # the contract's catalogue of codes is not loaded for nothing
        from sgcheck.contract import code_catalogue
        from sgcheck.selection import SelectionError

        try:
            return self.values.selection(code_catalogue(), select, extend_select, ignore, per_file)
        except SelectionError as error:
            raise click.BadParameter(str(error), param_hint="--select/--ignore/--per-file-ignores") from None

    def problems(self, render: PartRenderer) -> Iterator[tuple[FileResult, str]]:
        """The table's mistakes (SG-C210), reported first as a file of their own."""
        config = self.config
        if config is not None and config.problems and config.source is not None:
            result = FileResult(config.source, config.problems)
            yield result, render(result, {config.source: config.text})
