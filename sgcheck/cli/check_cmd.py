"""``sgcheck check`` (cards and packs against the core §8 contract) and ``sgcheck schema``.

Thin by design: parse the options, build the configuration, call
:func:`sgcheck.contract.check_paths`, render, return the exit code (0 clean, 1 error
findings, 2 usage, configuration or I/O problems). Everything heavy is imported inside the commands.
"""

from __future__ import annotations

from pathlib import Path

import click

from sgcheck.cli.common import (
    ExitPolicy,
    Output,
    color_option,
    commit_output,
    discovery_from,
    discovery_options,
    format_option,
    guarded,
    jobs_option,
    open_output,
    open_report,
    refuse_other_kinds,
    refuse_output,
    report_options,
    selection_options,
    statistics_setting,
    writable_folder,
    write_report,
)
from sgcheck.diagnostics import plural

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
def check_command(
    paths: tuple[str, ...],
    fmt: str,
    color: bool | None,
    config_file: Path | None,
    isolated: bool,
    select: tuple[str, ...] | None,
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    per_file_ignores: tuple[str, ...],
    disable: tuple[str, ...],
    enable: tuple[str, ...],
    output_file: str | None,
    exit_zero: bool,
    fail_on: str,
    statistics: bool | None,
    verbose: bool,
    quiet: bool,
    no_suppressions: bool,
    stdin_filename: str,
    ruleset: str | None,
    explain_break: Path | None = None,
    jobs: int | None = None,
    apply_fixes: bool = False,
    show_diff: bool = False,
    unsafe_fixes: bool = False,
    exclude: tuple[str, ...] = (),
    extend_exclude: tuple[str, ...] = (),
    force_exclude: bool = False,
    no_respect_gitignore: bool = False,
) -> int:
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
    import os
    import sys
    from dataclasses import replace

    from sgcheck.config import Config, find_pyproject, load_config
    from sgcheck.contract import code_catalogue
    from sgcheck.contract.checker import plan_check, rules_table
    from sgcheck.core.ruleset import RulesetError, parse_ruleset
    from sgcheck.paths import display, found_display

    refuse_other_kinds(paths, "check")  # a game log named here is replay's
    config = Config()
    if not isolated:
        found = config_file or find_pyproject(Path(paths[0]) if paths and paths[0] != "-" else Path.cwd())
        shown = display(str(config_file)) if config_file is not None else found_display(found) if found else None
        config = load_config(found, shown, codes=code_catalogue())
    if verbose:
        click.echo(f"sgcheck: configuration: {config.source or 'none (defaults)'}", err=True)
    try:
        config = config.with_codes(
            code_catalogue(),
            enable=enable,
            disable=disable,
            select=select,
            extend_select=extend_select,
            ignore=ignore,
            per_file=per_file_ignores,
        )
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--select/--ignore/--per-file-ignores") from None
    statistics = statistics_setting(statistics, config.statistics, fmt)
    if no_suppressions:
        config = replace(config, honour_suppressions=False)
    if ruleset is not None:
        try:
            config = replace(config, ruleset=parse_ruleset(ruleset))
        except RulesetError as error:
            raise click.BadParameter(str(error), param_hint="--ruleset") from None
    discovery = discovery_from(
        exclude, extend_exclude, force_exclude, no_respect_gitignore, config.exclude, config.folder, whole_pack=True
    )
    if apply_fixes and output_file is not None:  # refused before a fix writes over the file -o names
        refuse_output(output_file, [*paths, *plan_check(paths, config, discovery=discovery).inputs()])
    if show_diff or apply_fixes:
        from sgcheck.contract.fix_files import fix_paths
        from sgcheck.visible import visible

        fixed = fix_paths(
            paths, config, unsafe=unsafe_fixes, write=not show_diff, stdin_name=stdin_filename, discovery=discovery
        )
        for problem in fixed.problems:
            click.echo(visible(problem), err=True)
        if show_diff:
            Output().write(fixed.diff())
            click.echo(f"sgcheck: {fixed.summary(unsafe=unsafe_fixes, would=True)}", err=True)
            return 2 if fixed.problems else (1 if fixed.changes else 0)
        click.echo(f"sgcheck: {fixed.summary(unsafe=unsafe_fixes)}", err=True)
        fix_status = 2 if fixed.problems else 0  # a file not rewritten is an I/O problem, whatever is found
    else:
        fix_status = 0
    job = plan_check(paths, config, stdin_name=stdin_filename, discovery=discovery)
    job.proof_dir = explain_break
    if explain_break is not None:
        writable_folder(str(explain_break), "--explain-break")
    job.jobs = jobs or os.cpu_count() or 1
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
    if verbose:
        packs = sum(1 for plan in job.plans if plan.manifest is not None)
        loose = len(job.plans) - packs
        click.echo(f"sgcheck: {plural(packs, 'pack')} and {plural(loose, 'loose file')} to check", err=True)
    stream = open_output(output_file, [*paths, *job.inputs()])
    try:
        out, report = open_report(
            fmt, command="check", rules=rules_table(), file_count=len(job.plans), color=color, stream=stream
        )
        results = job.results(sys.stdin.buffer)
        if quiet:
            results = ((replace(result, summary=None), sources) for result, sources in results)
        rendered = ((result, report.renderer(result, sources)) for result, sources in results)
        status = write_report(rendered, out, report, ExitPolicy(exit_zero, fail_on), statistics=statistics)
        commit_output(stream)
    finally:
        if stream is not None:
            stream.close()
    if explain_break is not None:
        for line in job.proofs:
            click.echo(f"sgcheck: proof: {line}", err=True)
        written = sum(1 for line in job.proofs if line.endswith(".sglog"))
        if written:
            why = " (play each with `sgcheck replay --allow-violations PATH`)"
        elif job.proofs:
            why = ": none could be written (see above)"
        else:
            why = (
                ": no break of the contract was found by playing the cards, and only such a break "
                "(a finding labelled 'found in play') has a game that replays to it"
            )
        click.echo(f"sgcheck: {plural(written, 'proof game')} written under {explain_break}{why}", err=True)
        if written != len(job.proofs):
            return 2
    return max(status, fix_status)


@click.command("schema")
@click.argument("kind", type=click.Choice(sorted(SCHEMAS)), default="card")
@guarded
def schema_command(kind: str) -> int:
    """Print the JSON Schema of YAML card files (card), pack manifests (pack), scenarios (scenario),
    a manifest's module section (module), the JSON report of check and replay (report) or of simulate
    (simulate).

    \b
    Editors validate and complete YAML files with a modeline on the first line:
    # yaml-language-server: $schema=<path or URL of card.schema.json>
    """
    from sgcheck.resources import schema_path

    click.echo(schema_path(SCHEMAS[kind]).read_text(encoding="utf-8"), nl=False)
    return 0
