"""The numbers of the locked core a card may name, and only name (``set value.rook to 6``).

A card that rewrites one of them breaks the contract (core §8): ``sgcheck check`` reports it
with the code of its family, and replay refuses to play it naming that same code (R23). Both
card front-ends read parameter names from this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sgcheck.core import caps
from sgcheck.core.pieces import PIECE_VALUES
from sgcheck.core.record import pickle_by_fields


class ParamFamily(StrEnum):
    """Which part of the locked core a parameter belongs to (decides the rule that reports it)."""

    PIECE_VALUE = "piece value"
    COST = "cost formula"
    ACCURACY = "accuracy formula"
    CAP = "safety cap"
    CONVERSION = "conversion"
    GEM_THRESHOLD = "gem threshold"
    ACTIVATIONS = "activation limit"
    HAND_LIMIT = "hand limit"
    OTHER = "core number"


@dataclass(frozen=True, slots=True)
class Parameter:
    """A number of the core that a ``set`` effect names: its core value, its source, and the code
    ``sgcheck check`` reports a card that rewrites it with."""

    name: str
    family: ParamFamily
    core: str
    section: str
    code: str


#: The contract code of each family; the safety caps each have their own (below).
_FAMILY_CODES: dict[ParamFamily, str] = {
    ParamFamily.PIECE_VALUE: "SG-C001",
    ParamFamily.COST: "SG-C002",
    ParamFamily.ACCURACY: "SG-C003",
    ParamFamily.CONVERSION: "SG-C020",
    ParamFamily.GEM_THRESHOLD: "SG-C021",
    ParamFamily.ACTIVATIONS: "SG-C070",
    ParamFamily.HAND_LIMIT: "SG-C080",
    ParamFamily.OTHER: "SG-C004",
}
_CAP_CODES = {"cap.to_hit": "SG-C010", "cap.damage": "SG-C011", "cap.reroll": "SG-C012"}


def _p(name: str, family: ParamFamily, core: object, section: str) -> Parameter:
    code = _CAP_CODES[name] if family is ParamFamily.CAP else _FAMILY_CODES[family]
    return Parameter(name, family, str(core), section, code)


_PV, _CO, _AC, _CA = ParamFamily.PIECE_VALUE, ParamFamily.COST, ParamFamily.ACCURACY, ParamFamily.CAP

PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        *(_p(f"value.{k.title.lower()}", _PV, v, "core §3") for k, v in PIECE_VALUES.items()),
        _p("value.king", _PV, "none (R09)", "core §3"),
        _p("cost.move", _CO, "piece value + distance", "core §3"),
        _p("cost.knight_jump", _CO, caps.KNIGHT_JUMP_COST, "core §3"),
        _p("cost.attack", _CO, f"{caps.ATTACK_VALUE_MULTIPLIER} x piece value + distance", "core §4.1"),
        _p("cost.summon", _CO, f"piece value + {caps.SUMMON_BASE_COST}", "core §5"),
        _p("cost.teleport", _CO, f"piece value + {caps.SUMMON_BASE_COST}", "core §5"),
        _p("cost.break", _CO, caps.BREAK_COST, "core §6"),
        _p("cost.repair", _CO, caps.REPAIR_COST, "core §6"),
        _p("accuracy.base", _AC, caps.BASE_TO_HIT, "core §4.2"),
        _p("accuracy.step", _AC, caps.TO_HIT_PER_VALUE, "core §4.2"),
        _p("accuracy.king_step", _AC, caps.TO_HIT_PER_VALUE, "core §4.4"),
        _p("accuracy.min", _AC, caps.MIN_TO_HIT, "core §4.2"),
        _p("accuracy.max", _AC, caps.MAX_TO_HIT, "core §4.2"),
        _p("cap.to_hit", _CA, f"+{caps.TO_HIT_BONUS_CAP}", "core §4.5"),
        _p("cap.damage", _CA, f"+{caps.DAMAGE_BONUS_CAP}", "core §4.5"),
        _p("cap.reroll", _CA, caps.REROLL_SOURCES_CAP, "core §4.5"),
        _p("conversion.rate", ParamFamily.CONVERSION, f"{caps.CONVERSION_SP_PER_LP} SP per LP", "core §2"),
        _p("conversion.cap", ParamFamily.CONVERSION, f"{caps.CONVERSION_CAP_SP} SP per turn", "core §2"),
        _p("threshold.break", ParamFamily.GEM_THRESHOLD, f"{caps.BREAK_THRESHOLD}+ on 3d6", "core §6"),
        _p("threshold.repair", ParamFamily.GEM_THRESHOLD, f"{caps.REPAIR_THRESHOLD}+ on 3d6", "core §6"),
        _p("activations", ParamFamily.ACTIVATIONS, caps.ACTIVATIONS_PER_TURN, "core §0"),
        _p("hand_limit", ParamFamily.HAND_LIMIT, caps.HAND_LIMIT, "R19"),
        _p("king.hp", ParamFamily.OTHER, caps.KING_HP, "core §4.4"),
        _p("damage.per_hit", ParamFamily.OTHER, caps.DAMAGE_PER_HIT, "core §4.3"),
        _p("capture.reward", ParamFamily.OTHER, f"{caps.CAPTURE_SP_PER_VALUE} x piece value SP", "core §4.3"),
        _p("income.rate", ParamFamily.OTHER, f"{caps.INCOME_PER_VALUE} x gem value SP", "core §6"),
        _p("pass.bonus", ParamFamily.OTHER, f"{caps.PASS_BONUS_LP} LP", "core §2"),
        _p("start.lp", ParamFamily.OTHER, caps.START_LP, "core §1"),
        _p("start.sp", ParamFamily.OTHER, caps.START_SP, "core §1"),
        _p("victory.lp", ParamFamily.OTHER, caps.LP_VICTORY, "core §7"),
    )
}


pickle_by_fields(globals())
