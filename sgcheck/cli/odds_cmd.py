"""``sgcheck odds``: the accuracy and cost tables, and the chance to capture a piece this turn.

A thin front-end: the numbers come from :mod:`sgcheck.core.odds`; this module parses the
options, asks it and renders the answer as aligned text or JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import click

from sgcheck.cli.common import guarded
from sgcheck.core.caps import KING_HP, START_LP

if TYPE_CHECKING:
    from sgcheck.core.odds import AccuracyTable, CaptureOdds, CostTable, Plan

_FORMATS = ("text", "json")
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
        type=click.Choice(_FORMATS),
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


def _inherited(ctx: click.Context, name: str, value: Any, default: Any) -> Any:
    """An option given to the subcommand, else to ``odds`` itself, else its default."""
    if value is not None:
        return value
    parent = ctx.parent.params.get(name) if ctx.parent is not None else None
    return default if parent is None else parent


@click.group("odds", invoke_without_command=True, short_help="Accuracy and cost tables; the chance to capture.")
@_bonus_option(None)
@_format_option(None)
@click.pass_context
def odds_command(ctx: click.Context, bonus: int | None, fmt: str | None) -> None:
    """The numbers a player works out at the table.

    \b
    sgcheck odds                      accuracy and cost tables (same as 'sgcheck odds table')
    sgcheck odds --bonus 10           the accuracy table with a +10 to-hit bonus
    sgcheck odds capture --attacker R --target N --distance 2
                                      the chance to capture this turn with the starting LP,
                                      and the cheapest plan
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(table_command, bonus=bonus, fmt=fmt)


@odds_command.command("table", short_help="Accuracy of every attacker against every defender; costs.")
@_bonus_option(None)
@_format_option(None)
@click.pass_context
@guarded
def table_command(ctx: click.Context, bonus: int | None, fmt: str | None) -> int:
    """Print the hit thresholds of every attacker against every piece and the King, and the
    move, attack and summon costs by piece and distance."""
    from sgcheck.core.odds import OddsError, accuracy_table, cost_tables

    bonus = _inherited(ctx, "bonus", bonus, 0)
    fmt = _inherited(ctx, "fmt", fmt, "text")
    try:
        accuracy = accuracy_table(bonus)
    except OddsError as error:
        raise click.BadParameter(error.message, param_hint="'--bonus'") from None
    tables = cost_tables()
    if fmt == "json":
        click.echo(json.dumps(_tables_json(accuracy, tables), indent=2, ensure_ascii=False))
    else:
        click.echo(_tables_text(accuracy, tables), nl=False)
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
def capture_command(
    ctx: click.Context,
    attacker: int,
    target: int,
    distance: int,
    lp: int,
    sp: int,
    damage_so_far: int,
    bonus: int | None,
    damage_bonus: int,
    second_roll: str,
    fmt: str | None,
) -> int:
    """The exact chance that ATTACKER captures TARGET this turn (or, against the King, deals
    the damage that converts it), with the plan that gets that chance for the least expected
    spend: move closer first if it pays, then attack until the capture."""
    from sgcheck.core.odds import CaptureQuestion, OddsError, SecondRoll, capture_odds
    from sgcheck.core.pieces import Kind

    question = CaptureQuestion(
        attacker=Kind(attacker),
        target=Kind(target),
        distance=distance,
        lp=lp,
        sp=sp,
        damage_so_far=damage_so_far,
        bonus=_inherited(ctx, "bonus", bonus, 0),
        damage_bonus=damage_bonus,
        second_roll=SecondRoll(second_roll),
    )
    try:
        odds = capture_odds(question)
    except OddsError as error:
        raise click.BadParameter(error.message, param_hint=f"'--{error.field.replace('_', '-')}'") from None
    if _inherited(ctx, "fmt", fmt, "text") == "json":
        click.echo(json.dumps(_capture_json(odds), indent=2, ensure_ascii=False))
    else:
        click.echo(_capture_text(odds), nl=False)
    return 0


# --- rendering ----------------------------------------------------------------------------------


def _percent(chance: Fraction) -> str:
    """A chance as a percentage with two decimals that never rounds to a certainty it is not."""
    shown = f"{float(chance * 100):.2f}%"
    if chance not in (0, 1) and shown in ("0.00%", "100.00%"):
        return "<0.01%" if shown == "0.00%" else ">99.99%"
    return shown


def _number(value: Fraction) -> str:
    """Up to four decimals, trailing zeros dropped (the exact fraction is printed beside it)."""
    return f"{float(value):.4f}".rstrip("0").rstrip(".") if value.denominator != 1 else str(value.numerator)


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    """Columns aligned: the first to the left, the others to the right."""
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
    out = []
    for line in [header, *rows]:
        rest = (cell.rjust(width) for cell, width in zip(line[1:], widths[1:], strict=True))
        cells = [line[0].ljust(widths[0]), *rest]
        out.append("  ".join(cells).rstrip())
    return out


def _bonus_line(table: AccuracyTable) -> str:
    if table.applied != table.bonus:
        return f"to-hit bonus {table.bonus:+d}, capped at {table.applied:+d} (core §4.5, R20)"
    return f"to-hit bonus {table.bonus:+d}"


#: The corner of each cost table: what its rows and its columns are (the title says it in full).
_COLUMN_LABELS = {"move": "squares", "attack": "distance", "summon": "extra"}


def _tables_text(accuracy: AccuracyTable, tables: tuple[CostTable, ...]) -> str:
    lines = [f"Accuracy: hit if d100 ≤ the threshold ({', '.join(accuracy.rules)}); {_bonus_line(accuracy)}", ""]
    defenders = [d for d, _ in accuracy.rows[0][1]]
    header = ["attacker \\ defender", *(d.title for d in defenders)]
    lines += _grid(header, [[a.title, *(str(w.value) for _, w in row)] for a, row in accuracy.rows])
    for table in tables:
        lines += ["", f"{table.name.title()} cost by {table.column} ({', '.join(table.rules)})", ""]
        columns = table.columns
        rows = []
        for kind, costs in table.rows:
            by = dict(costs)
            rows.append([kind.title, *(str(by[c].value) if c in by else "-" for c in columns)])
        lines += _grid([f"piece \\ {_COLUMN_LABELS.get(table.name, 'distance')}", *map(str, columns)], rows)
    return "\n".join(lines) + "\n"


def _tables_json(accuracy: AccuracyTable, tables: tuple[CostTable, ...]) -> dict[str, Any]:
    return {
        "bonus": accuracy.bonus,
        "applied_bonus": accuracy.applied,
        "accuracy": [
            {"attacker": a.title, "defender": d.title, "threshold": w.value, "worked": w.detail, "rules": list(w.rules)}
            for a, row in accuracy.rows
            for d, w in row
        ],
        "costs": {
            table.name: {
                "distance": table.column,
                "rules": list(table.rules),
                "entries": [
                    {"piece": kind.title, "distance": d, "cost": w.value, "worked": w.detail}
                    for kind, costs in table.rows
                    for d, w in costs
                ],
            }
            for table in tables
        },
    }


def _unit(odds: CaptureOdds, n: int) -> str:
    from sgcheck.core.pieces import KNIGHT

    if odds.question.attacker is KNIGHT:
        return "jump" if n == 1 else "jumps"
    return "square" if n == 1 else "squares"


def _plan_sentence(odds: CaptureOdds, plan: Plan) -> str:
    if plan.attack is None or plan.probability == 0:
        return "none"
    steps = []
    if plan.moves:
        costs = " + ".join(f"{m.value} ({m.detail})" for m in plan.moves)
        steps.append(f"in Main 1, move {plan.moved} {_unit(odds, plan.moved)} toward the target for {costs}")
    times = "once" if plan.attacks == 1 else f"up to {plan.attacks} times"
    steps.append(
        f"in Battle, attack {times} from distance {plan.distance} for {plan.attack.value} each "
        f"({plan.attack.detail}), stopping at the capture"
    )
    return "; then ".join(steps)


def _capture_text(odds: CaptureOdds) -> str:
    q = odds.question
    best = odds.best
    from sgcheck.core.pieces import KING

    goal = "convert" if q.target is KING else "capture"
    so_far = f", {q.damage_so_far} so far" if q.damage_so_far else ""
    whole = f"{KING_HP} HP" if goal == "convert" else f"value {odds.damage_needed + q.damage_so_far}"
    lines = [
        f"{q.attacker.title} against {q.target.title} from distance {q.distance}, with {q.lp} LP + {q.sp} SP",
        f"  each attack: hit if d100 ≤ {odds.threshold.value} ({odds.threshold.detail}): {_percent(odds.hit_chance)}"
        + ("" if q.second_roll == "none" else f" with a {q.second_roll.value} after a miss"),
        f"  to {goal}: {odds.damage_needed} more damage this turn ({q.target.title} {whole}{so_far}),"
        f" {odds.hits_needed} {'hit' if odds.hits_needed == 1 else 'hits'} of {odds.damage_per_hit}",
        "",
    ]
    header = ["move", "distance", "move cost", "attack cost", "attacks", "chance", "expected spend", "most spend"]
    rows = [
        [
            str(p.moved),
            str(p.distance),
            str(p.move_cost),
            "-" if p.attack is None else str(p.attack.value),
            str(p.attacks),
            _percent(p.probability),
            _number(p.expected_spend),
            str(p.most_spend),
        ]
        for p in odds.plans
    ]
    lines += ["  " + line for line in _grid(header, rows)]
    lines.append("")
    if best.probability == 0:
        most = max(p.attacks for p in odds.plans)
        lines.append(
            f"No plan within {q.lp} LP + {q.sp} SP can {goal} the {q.target.title} this turn: "
            f"{odds.hits_needed} {'hit is' if odds.hits_needed == 1 else 'hits are'} needed and the budget pays "
            f"for at most {most} {'attack' if most == 1 else 'attacks'}."
        )
    else:
        from_sp = best.expected_from_sp(q.sp)
        lines += [
            f"Best plan: {_plan_sentence(odds, best)}.",
            f"  chance to {goal} this turn: {_percent(best.probability)} (exactly {best.probability})",
            f"  expected spend: {_number(best.expected_spend)} (exactly {best.expected_spend}),"
            f" {_number(from_sp)} of it from SP (SP first, R05); at most {best.most_spend}",
            f"  expected attacks: {_number(best.expected_attacks)}",
        ]
        if odds.reward_sp:
            lines.append(f"  on capture: +{odds.reward_sp} SP (core §4.3)")
        else:
            lines.append("  on conversion: the game ends (core §4.4, §7)")
    lines.append(f"rules: {', '.join(odds.rules)}")
    return "\n".join(lines) + "\n"


def _fraction(value: Fraction) -> dict[str, Any]:
    return {"fraction": str(value), "value": float(value)}


def _plan_json(odds: CaptureOdds, plan: Plan) -> dict[str, Any]:
    return {
        "moved": plan.moved,
        "moves": [{"cost": m.value, "worked": m.detail} for m in plan.moves],
        "distance": plan.distance,
        "attack_cost": None if plan.attack is None else {"cost": plan.attack.value, "worked": plan.attack.detail},
        "attacks": plan.attacks,
        "probability": {**_fraction(plan.probability), "percent": float(plan.probability * 100)},
        "expected_spend": _fraction(plan.expected_spend),
        "expected_spend_from_sp": _fraction(plan.expected_from_sp(odds.question.sp)),
        "expected_attacks": _fraction(plan.expected_attacks),
        "most_spend": plan.most_spend,
        "spend": [{"amount": amount, "chance": str(chance)} for amount, chance in plan.spend],
    }


def _capture_json(odds: CaptureOdds) -> dict[str, Any]:
    q = odds.question
    return {
        "question": {
            "attacker": q.attacker.title,
            "target": q.target.title,
            "distance": q.distance,
            "lp": q.lp,
            "sp": q.sp,
            "damage_so_far": q.damage_so_far,
            "bonus": q.bonus,
            "damage_bonus": q.damage_bonus,
            "second_roll": q.second_roll.value,
        },
        "threshold": {"value": odds.threshold.value, "worked": odds.threshold.detail},
        "hit_chance": {**_fraction(odds.hit_chance), "percent": float(odds.hit_chance * 100)},
        "damage_per_hit": odds.damage_per_hit,
        "damage_needed": odds.damage_needed,
        "hits_needed": odds.hits_needed,
        "reward_sp": odds.reward_sp,
        "probability": {**_fraction(odds.probability), "percent": float(odds.probability * 100)},
        "expected_spend": _fraction(odds.best.expected_spend),
        "plan": _plan_json(odds, odds.best),
        "plans": [_plan_json(odds, p) for p in odds.plans],
        "rules": list(odds.rules),
    }
