"""``sgcheck check`` (cards and packs against the core §8 contract) and ``sgcheck schema``.

Thin by design: parse the options, build the configuration, call
:func:`sgcheck.contract.check_paths`, render, return the exit code (0 clean, 1 error
findings, 2 usage, configuration or I/O problems). Everything heavy is imported inside the commands.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from sgcheck.cli.common import (
    ExitPolicy,
    Output,
    WalkOptions,
    color_option,
    commit_output,
    discovery_of,
    discovery_options,
    format_option,
    guarded,
    jobs_option,
    open_output,
    open_report,
    project_of,
    refuse_other_kinds,
    refuse_output,
    report_options,
    selection_options,
    statistics_setting,
    writable_folder,
    write_report,
)
from sgcheck.diagnostics import plural
from sgcheck.project.kinds import Kind, is_kind

if TYPE_CHECKING:
    from sgcheck.config import Config
    from sgcheck.contract.checker import CheckJob
    from sgcheck.discovery import DiscoveryOptions

SCHEMAS = {
    "card": "card.schema.json",
    "pack": "pack.schema.json",
    "scenario": "scenario.schema.json",
    "module": "module.schema.json",
    "report": "report.schema.json",
    "simulate": "simulate.schema.json",
}


@click.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True, path_type=str))
@format_option
@color_option
@click.option(
    "--config",
    "config_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Read [tool.sgcheck] from this file instead of the nearest pyproject.toml.",
)
@click.option("--isolated", is_flag=True, help="Ignore every configuration file.")
@selection_options
@click.option("--disable", multiple=True, metavar="CODE", help="Do not report CODE (repeatable; as --ignore).")
@click.option("--enable", multiple=True, metavar="CODE", help="Report CODE even if the configuration disables it.")
@report_options
@click.option("-q", "--quiet", is_flag=True, help="Print only the findings and the totals line: no pack summaries.")
@click.option(
    "--no-suppressions",
    is_flag=True,
    help="Do not honour '# sgcheck: ignore' comments: report what they would silence as findings.",
)
@click.option(
    "--stdin-filename",
    metavar="NAME",
    default="<stdin>",
    show_default=True,
    help="The name cards read from standard input ('-') are reported under; a .yaml/.yml name reads them as YAML, "
    "a .scenario.yaml name as a scenario.",
)
@click.option(
    "--ruleset",
    metavar="PROFILE",
    default=None,
    help="Ruleset for card files outside packs, e.g. 'core; king_value=3' (packs name their own).",
)
@click.option(
    "--explain-break",
    "explain_break",
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write each break found by playing the cards (SG-C150-SG-C162) as a game that replays to it, one folder a "
    "break under DIR: replay its proof.sglog to see the break.",
)
@jobs_option("Play each pack")
@click.option("--fix", "apply_fixes", is_flag=True, help="Apply the safe fixes to the files, then report what is left.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the fixes --fix would apply as a diff; change nothing.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff, apply the unsafe fixes too (docs/fmt.md).")
@discovery_options
@guarded
def check_command(**given: Any) -> int:
    """Check Relic & Spell cards and scenarios (PATH: .sgcard/.yaml files, .scenario.yaml files, pack
    folders, '-' for standard input) against the caps and core §8.

    \b
    Exit status: 0 no errors, 1 error findings (syntax errors included), 2 usage, configuration
    or I/O problem (a folder with no card file or pack in it, or a game log, is a usage problem;
    an invalid [tool.sgcheck] is reported, then exits 2).
    Configuration: [tool.sgcheck] in the nearest pyproject.toml (docs/ci.md).
    Suppress a finding: '# sgcheck: ignore SG-C092 -- reason' in or above the card; a suppressed
    finding is still listed and counted, and is no error.
    """
    return run_check(CheckOptions(**given))


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """The options of ``sgcheck check``, as parsed."""

    paths: tuple[str, ...]
    fmt: str
    color: bool | None
    config_file: Path | None
    isolated: bool
    select: tuple[str, ...] | None
    extend_select: tuple[str, ...]
    ignore: tuple[str, ...]
    per_file_ignores: tuple[str, ...]
    disable: tuple[str, ...]
    enable: tuple[str, ...]
    output_file: str | None
    exit_zero: bool
    fail_on: str
    statistics: bool | None
    verbose: bool
    quiet: bool
    no_suppressions: bool
    stdin_filename: str
    ruleset: str | None
    explain_break: Path | None
    jobs: int | None
    apply_fixes: bool
    show_diff: bool
    unsafe_fixes: bool
    walk: WalkOptions


def run_check(options: CheckOptions) -> int:
    """Configure, plan the check, fix when asked, render, and return the exit code."""
    import os

    from sgcheck.contract.checker import plan_check

    paths = options.paths
    refuse_other_kinds(paths, "check")  # a game log named here is replay's
    project = project_of(paths, options.config_file, isolated=options.isolated)
    if options.verbose:
        click.echo(project.described(), err=True)
    config, statistics = _settings(options, project.settings)
    discovery = discovery_of(project, options.walk, whole_pack=True)
    if options.apply_fixes and options.output_file is not None:  # refused before a fix writes over the file -o names
        refuse_output(options.output_file, [*paths, *plan_check(paths, config, discovery=discovery).inputs()])
    fix_status = 0
    if options.show_diff or options.apply_fixes:
        fix_status = _fix(options, config, discovery)
        if options.show_diff:
            return fix_status
    job = plan_check(paths, config, stdin_name=options.stdin_filename, discovery=discovery)
    job.proof_dir = options.explain_break
    if options.explain_break is not None:
        writable_folder(str(options.explain_break), "--explain-break")
    job.jobs = options.jobs or os.cpu_count() or 1
    if job.empty and all(discovery.skips_named(path) for path in paths):
        return 0  # --force-exclude left out every file named (a pre-commit run on excluded files only)
    if job.empty:
        named = ", ".join(map(repr, paths))
        click.echo(
            f"sgcheck: no card files (*.sgcard, *.sgcard.yaml), scenarios (*.scenario.yaml) or packs found in {named}",
            err=True,
        )
        click.echo("sgcheck: files git ignores and paths an exclude pattern names are not searched", err=True)
        return 2
    if options.verbose:
        packs = sum(1 for plan in job.plans if plan.manifest is not None)
        loose = len(job.plans) - packs
        click.echo(f"sgcheck: {plural(packs, 'pack')} and {plural(loose, 'loose file')} to check", err=True)
    status = _report(options, job, statistics)
    if options.explain_break is not None and not _proofs(job.proofs, options.explain_break):
        return 2
    return max(status, fix_status)


def _settings(options: CheckOptions, config: Config) -> tuple[Config, bool]:
    """The configuration with the command line's choices on top (codes, suppressions, ruleset),
    and whether to print statistics; each option refused in the order they are read."""
    from sgcheck.contract import code_catalogue
    from sgcheck.core.ruleset import RulesetError, parse_ruleset

    try:
        config = config.with_codes(
            code_catalogue(),
            enable=options.enable,
            disable=options.disable,
            select=options.select,
            extend_select=options.extend_select,
            ignore=options.ignore,
            per_file=options.per_file_ignores,
        )
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--select/--ignore/--per-file-ignores") from None
    statistics = statistics_setting(options.statistics, config.statistics, options.fmt)
    if options.no_suppressions:
        config = replace(config, honour_suppressions=False)
    if options.ruleset is not None:
        try:
            config = replace(config, ruleset=parse_ruleset(options.ruleset))
        except RulesetError as error:
            raise click.BadParameter(str(error), param_hint="--ruleset") from None
    return config, statistics


def _fix(options: CheckOptions, config: Config, discovery: DiscoveryOptions) -> int:
    """``--fix`` and ``--diff``: the status they end with (``--diff``'s is the command's)."""
    from sgcheck.contract.fix_files import fix_paths
    from sgcheck.visible import visible

    unsafe = options.unsafe_fixes
    fixed = fix_paths(
        options.paths,
        config,
        unsafe=unsafe,
        write=not options.show_diff,
        stdin_name=options.stdin_filename,
        discovery=discovery,
    )
    for problem in fixed.problems:
        click.echo(visible(problem), err=True)
    if options.show_diff:
        Output().write(fixed.diff())
        click.echo(f"sgcheck: {fixed.summary(unsafe=unsafe, would=True)}", err=True)
        return 2 if fixed.problems else (1 if fixed.changes else 0)
    click.echo(f"sgcheck: {fixed.summary(unsafe=unsafe)}", err=True)
    return 2 if fixed.problems else 0  # a file not rewritten is an I/O problem, whatever is found


def _report(options: CheckOptions, job: CheckJob, statistics: bool) -> int:
    """Check the planned files and write the report; the findings' exit code."""
    import sys

    from sgcheck.contract.checker import rules_table

    stream = open_output(options.output_file, [*options.paths, *job.inputs()])
    try:
        out, report = open_report(
            options.fmt,
            command="check",
            rules=rules_table(),
            file_count=len(job.plans),
            color=options.color,
            stream=stream,
        )
        results = job.results(sys.stdin.buffer)
        if options.quiet:
            results = ((replace(result, summary=None), sources) for result, sources in results)
        rendered = ((result, report.renderer(result, sources)) for result, sources in results)
        policy = ExitPolicy(options.exit_zero, options.fail_on)
        status = write_report(rendered, out, report, policy, statistics=statistics)
        commit_output(stream)
    finally:
        if stream is not None:
            stream.close()
    return status


def _proofs(proofs: list[str], folder: Path) -> bool:
    """``--explain-break``: say what was written under ``folder``; False when a proof could not be."""
    for line in proofs:
        click.echo(f"sgcheck: proof: {line}", err=True)
    written = sum(1 for line in proofs if is_kind(line, Kind.LOG))
    if written:
        why = " (play each with `sgcheck replay --allow-violations PATH`)"
    elif proofs:
        why = ": none could be written (see above)"
    else:
        why = (
            ": no break of the contract was found by playing the cards, and only such a break "
            "(a finding labelled 'found in play') has a game that replays to it"
        )
    click.echo(f"sgcheck: {plural(written, 'proof game')} written under {folder}{why}", err=True)
    return written == len(proofs)


@click.command("schema")
@click.argument("kind", type=click.Choice(sorted(SCHEMAS)), default="card")
@guarded
def schema_command(**given: Any) -> int:
    """Print the JSON Schema of YAML card files (card), pack manifests (pack), scenarios (scenario),
    a manifest's module section (module), the JSON report of check and replay (report) or of simulate
    (simulate).

    \b
    Editors validate and complete YAML files with a modeline on the first line:
    # yaml-language-server: $schema=<path or URL of card.schema.json>
    """
    return run_schema(SchemaOptions(**given))


@dataclass(frozen=True, slots=True)
class SchemaOptions:
    """The options of ``sgcheck schema``, as parsed."""

    kind: str


def run_schema(options: SchemaOptions) -> int:
    """Print the schema asked for; the exit code."""
    from sgcheck.resources import schema_path

    click.echo(schema_path(SCHEMAS[options.kind]).read_text(encoding="utf-8"), nl=False)
    return 0
