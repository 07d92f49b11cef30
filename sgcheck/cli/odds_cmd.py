"""``sgcheck odds``: the accuracy and cost tables, and the chance to capture a piece this turn.

A thin front-end: the numbers come from :mod:`sgcheck.core.odds`; this module parses the
options, asks it and has the report layer spell the answer as aligned text or JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from sgcheck.cli.common import FormatChoice, guarded
from sgcheck.core.caps import START_LP
from sgcheck.report.formats import ResultKind

_PIECES = ("Pawn", "Knight", "Bishop", "Rook", "Queen", "King")
_LETTERS = "PNBRQK"  # as logs write them (docs/log-format.md): capitals
_SECOND_ROLLS = ("none", "reroll", "advantage")


class _Piece(click.ParamType):  # type: ignore[type-arg]
    """A piece kind as logs write it, a capital letter (K Q R B N P), or its name in any case
    (Rook, rook); its index in :data:`_PIECES`."""

    name = "piece"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "K|Q|R|B|N|P"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if len(text) == 1 and text in _LETTERS:
            return _LETTERS.index(text)
        from sgcheck.diagnostics import did_you_mean
        from sgcheck.letters import ascii_lower

        titles = [ascii_lower(piece) for piece in _PIECES]
        if ascii_lower(text) in titles:
            return titles.index(ascii_lower(text))

        if len(text) == 1 and text.upper() in _LETTERS:
            hint = f"; piece letters are capitals, as in logs: {text.upper()!r}"
        else:
            hint = did_you_mean(text, _PIECES)
        names = "K Q R B N P, or King, Queen, Rook, Bishop, Knight, Pawn"
        self.fail(f"{text!r} is not a piece{hint} ({names})", param, ctx)


F = TypeVar("F", bound=Callable[..., Any])


def _format_option(default: str | None) -> Callable[[F], F]:
    return click.option(
        "--format",
        "fmt",
        # the formats that spell both answers: ``--format`` is given to ``odds`` or to either subcommand
        type=FormatChoice(ResultKind.ODDS_TABLE, ResultKind.CAPTURE_ODDS),
        default=default,
        help="Output format: aligned text tables, or JSON for tools.  [default: text]",
    )


def _bonus_option(default: int | None) -> Callable[[F], F]:
    return click.option(
        "--bonus",
        type=int,
        default=default,
        metavar="N",
        help="To-hit bonus from cards, capped at +25 as the core caps it (core §4.5).  [default: 0]",
    )


#: What ``--bonus`` and ``--format`` are when neither the subcommand nor ``odds`` is given them.
_DEFAULTS: dict[str, Any] = {"bonus": 0, "fmt": "text"}


def _inherited(ctx: click.Context, given: dict[str, Any]) -> dict[str, Any]:
    """The options as given, ``--bonus`` and ``--format`` not given to the subcommand taken from
    ``odds`` itself, else their defaults."""
    parent = ctx.parent.params if ctx.parent is not None else {}
    for name, default in _DEFAULTS.items():
        if given[name] is None:
            given[name] = default if parent.get(name) is None else parent[name]
    return given


@click.group("odds", invoke_without_command=True, short_help="Accuracy and cost tables; the chance to capture.")
@_bonus_option(None)
@_format_option(None)
@click.pass_context
def odds_command(ctx: click.Context, /, **given: Any) -> None:
    """The numbers a player works out at the table.

    \b
    sgcheck odds                      accuracy and cost tables (same as 'sgcheck odds table')
    sgcheck odds --bonus 10           the accuracy table with a +10 to-hit bonus
    sgcheck odds capture --attacker R --target N --distance 2
                                      the chance to capture this turn with the starting LP,
                                      and the cheapest plan
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(table_command, **given)


@odds_command.command("table", short_help="Accuracy of every attacker against every defender; costs.")
@_bonus_option(None)
@_format_option(None)
@click.pass_context
@guarded
def table_command(ctx: click.Context, /, **given: Any) -> int:
    """Print the hit thresholds of every attacker against every piece and the King, and the
    move, attack and summon costs by piece and distance."""
    return run_table(TableOptions(**_inherited(ctx, given)))


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The options of ``sgcheck odds table`` (and of ``odds`` alone), as parsed, ``odds``'s own filled in."""

    bonus: int
    fmt: str


def run_table(options: TableOptions) -> int:
    """Work out the tables and render them; the exit code."""
    from sgcheck.core.odds import OddsError, odds_tables
    from sgcheck.report import render

    try:
        tables = odds_tables(options.bonus)
    except OddsError as error:
        raise click.BadParameter(error.message, param_hint="'--bonus'") from None
    click.echo(render(tables, options.fmt), nl=False)
    return 0


@odds_command.command("capture", short_help="The chance to capture a piece this turn within a budget.")
@click.option("--attacker", required=True, type=_Piece(), help="Attacking piece: its letter as in logs, or its name.")
@click.option("--target", required=True, type=_Piece(), help="Attacked piece: its letter as in logs, or its name.")
@click.option(
    "--distance",
    required=True,
    type=int,
    metavar="N",
    help="Squares between them along the attacker's line (Knight: jumps), core §0.",
)
@click.option(
    "--lp",
    default=START_LP,
    show_default=True,
    type=click.IntRange(min=0),
    metavar="N",
    help="LP available this turn; by default the LP a player starts with (core §1).",
)
@click.option("--sp", default=0, show_default=True, type=click.IntRange(min=0), metavar="N", help="SP available.")
@click.option(
    "--damage-so-far",
    default=0,
    show_default=True,
    type=click.IntRange(min=0),
    metavar="N",
    help="Damage already dealt to the target this turn (the King: all the damage it has taken).",
)
@_bonus_option(None)
@click.option(
    "--damage-bonus",
    default=0,
    show_default=True,
    type=click.IntRange(min=0),
    metavar="N",
    help="Damage bonus per hit from cards, capped at +2 (core §4.5).",
)
@click.option(
    "--second-roll",
    type=click.Choice(_SECOND_ROLLS),
    default="none",
    show_default=True,
    help="A card's reroll or advantage on every attack (at most one source, core §4.5).",
)
@_format_option(None)
@click.pass_context
@guarded
def capture_command(ctx: click.Context, /, **given: Any) -> int:
    """The exact chance that ATTACKER captures TARGET this turn (or, against the King, deals
    the damage that converts it), with the plan that gets that chance for the least expected
    spend: move closer first if it pays, then attack until the capture."""
    return run_capture(CaptureOptions(**_inherited(ctx, given)))


@dataclass(frozen=True, slots=True)
class CaptureOptions:
    """The options of ``sgcheck odds capture``, as parsed, ``odds``'s own filled in (pieces as
    indices of :data:`_PIECES`)."""

    attacker: int
    target: int
    distance: int
    lp: int
    sp: int
    damage_so_far: int
    bonus: int
    damage_bonus: int
    second_roll: str
    fmt: str


def run_capture(options: CaptureOptions) -> int:
    """Ask the core for the chance and the plan, and render them; the exit code."""
    from sgcheck.core.odds import CaptureQuestion, OddsError, SecondRoll, capture_odds
    from sgcheck.core.pieces import Kind
    from sgcheck.report import render

    question = CaptureQuestion(
        attacker=Kind(options.attacker),
        target=Kind(options.target),
        distance=options.distance,
        lp=options.lp,
        sp=options.sp,
        damage_so_far=options.damage_so_far,
        bonus=options.bonus,
        damage_bonus=options.damage_bonus,
        second_roll=SecondRoll(options.second_roll),
    )
    try:
        odds = capture_odds(question)
    except OddsError as error:
        raise click.BadParameter(error.message, param_hint=f"'--{error.field.replace('_', '-')}'") from None
    click.echo(render(odds, options.fmt), nl=False)
    return 0
