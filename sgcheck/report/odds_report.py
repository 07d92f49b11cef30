"""The odds of ``sgcheck odds`` as aligned text and as JSON: the accuracy and cost tables
(:class:`~sgcheck.core.odds.OddsTables`) and the chance to capture this turn
(:class:`~sgcheck.core.odds.CaptureOdds`). The numbers are the core's (:mod:`sgcheck.core.odds`);
this module only spells them."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from sgcheck.core.caps import KING_HP
from sgcheck.core.odds import AccuracyTable, CaptureOdds, OddsTables, Plan
from sgcheck.core.pieces import KING, KNIGHT


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


def tables_text(odds: OddsTables) -> str:
    """The accuracy table, then each cost table, columns aligned."""
    accuracy, tables = odds.accuracy, odds.costs
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


def tables_json(odds: OddsTables) -> str:
    """The accuracy and cost tables as a JSON document, each number with its worked sum."""
    accuracy, tables = odds.accuracy, odds.costs
    return _json(
        {
            "bonus": accuracy.bonus,
            "applied_bonus": accuracy.applied,
            "accuracy": [
                {
                    "attacker": a.title,
                    "defender": d.title,
                    "threshold": w.value,
                    "worked": w.detail,
                    "rules": list(w.rules),
                }
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
    )


def _unit(odds: CaptureOdds, n: int) -> str:
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


def capture_text(odds: CaptureOdds) -> str:
    """The chance of each plan, then the best plan in words, with the rules it reads."""
    q = odds.question
    best = odds.best
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


def capture_json(odds: CaptureOdds) -> str:
    """The question, the chance of each plan and the best plan as a JSON document, each chance
    as an exact fraction and as a number."""
    q = odds.question
    return _json(
        {
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
    )


def _json(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


__all__ = ["capture_json", "capture_text", "tables_json", "tables_text"]
