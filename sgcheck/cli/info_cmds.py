"""``sgcheck explain`` and ``sgcheck rulings``: the reference, at the terminal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from sgcheck.cli.common import guarded


@click.command("explain", short_help="Explain a diagnostic code, or list them all.")
@click.argument("code", required=False)
@click.option("--list", "list_all", is_flag=True, help="List every code with its name and severity.")
@guarded
def explain_command(**given: Any) -> int:
    """Explain a diagnostic CODE (SG-R204, R204, r204 or its name, wrong-hit), or list all codes."""
    return run_explain(ExplainOptions(**given))


@dataclass(frozen=True, slots=True)
class ExplainOptions:
    """The options of ``sgcheck explain``, as parsed."""

    code: str | None
    list_all: bool


def run_explain(options: ExplainOptions) -> int:
    """List the codes, or say what the one asked for means; the exit code."""
    from sgcheck.report.catalogue_pages import all_codes

    codes = all_codes()
    code = options.code
    if options.list_all or code is None:
        for info in sorted(codes.values(), key=lambda i: i.code):
            click.echo(f"{info.code}  {info.severity.value:<7}  {info.name}")
        return 0
    from sgcheck.codes import spell_code, unknown_code

    spelled = spell_code(code, codes)  # SG-R204, R204, r204 or the rule's name
    found = codes.get(spelled) if spelled is not None else None
    if found is None:
        raise click.BadParameter(
            f"unknown code {code!r}{unknown_code(code, codes)} ('sgcheck explain --list' shows them all)",
            param_hint="CODE",
        )
    click.echo(f"{found.code} {found.name} ({found.severity.value})")
    if found.rules:
        click.echo(f"rules: {', '.join(found.rules)}")
    click.echo("")
    click.echo(found.explanation)
    return 0


@click.command("rulings", short_help="Print the default rulings R01-R26.")
@click.argument("ids", nargs=-1)
@guarded
def rulings_command(**given: Any) -> int:
    """Print the default rulings R01-R26 (or just the given IDs)."""
    return run_rulings(RulingsOptions(**given))


@dataclass(frozen=True, slots=True)
class RulingsOptions:
    """The options of ``sgcheck rulings``, as parsed."""

    ids: tuple[str, ...]


def run_rulings(options: RulingsOptions) -> int:
    """Print the rulings asked for, an unknown one refused; the exit code."""
    from sgcheck.core.rulings import BY_ID, RULINGS
    from sgcheck.letters import ascii_upper

    wanted = [ascii_upper(i) for i in options.ids]
    unknown = [i for i in wanted if i not in BY_ID]
    if unknown:
        from sgcheck.diagnostics import did_you_mean

        hint = did_you_mean(unknown[0], list(BY_ID))
        raise click.BadParameter(f"unknown ruling {unknown[0]!r}{hint} (R01-R26)", param_hint="IDS")
    for ruling in RULINGS:
        if wanted and ruling.id not in wanted:
            continue
        choice = f" [table choice: {ruling.setting}]" if ruling.setting else ""
        click.echo(f"{ruling.id}  {ruling.topic}{choice}  ({', '.join(ruling.sources)})")
        click.echo(click.wrap_text(ruling.text, width=96, initial_indent="     ", subsequent_indent="     "))
        click.echo("")
    return 0
