"""Ruleset profiles: the locked core plus the table choices a group may switch on.

A profile is written ``core`` or ``core; king_value=3; income=all; turn_limit=40``
(also accepted: commas instead of semicolons, ``-`` instead of ``_``). Table choices
are house rules (RULINGS: R09, R14); each names the core §8 item it breaks so a
group knows its games are no longer core-compatible. ``turn_limit`` is a scenario
setting (core §7), not a house rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.core.pieces import PIECE_VALUES, Kind
from sgcheck.core.record import pickle_by_fields
from sgcheck.letters import ascii_lower, foreign_note


@dataclass(frozen=True, slots=True)
class HouseRule:
    """A switched-on table choice and what it costs in core compatibility."""

    setting: str
    ruling: str
    description: str
    breaks: str | None  # the core §8 item it breaks, or None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What replay enforces. The default instance is the locked core with no scenario limit."""

    king_value: int | None = None  # R09 table choice: a value for King movement and attacks
    income_counts_all: bool = False  # R14 table choice: income counts every piece in the Gem
    turn_limit: int | None = None  # core §7: a scenario's maximum number of rounds

    @property
    def is_core(self) -> bool:
        return self.king_value is None and not self.income_counts_all

    def value_of(self, kind: Kind) -> int | None:
        """A kind's piece value under this ruleset; None for the King under the core (R09)."""
        if kind is Kind.KING:
            return self.king_value
        return PIECE_VALUES[kind]

    def house_rules(self) -> tuple[HouseRule, ...]:
        rules: list[HouseRule] = []
        if self.king_value is not None:
            rules.append(
                HouseRule(
                    f"king_value={self.king_value}",
                    "R09",
                    f"the King has value {self.king_value} for movement and attacks",
                    "core §8: cards, expansions and campaigns must not change piece values",
                )
            )
        if self.income_counts_all:
            rules.append(
                HouseRule(
                    "income=all",
                    "R14",
                    "SP income counts every piece in the Gem, own unsummoned pieces included",
                    "core §8: must not add effects that create unbounded SP/LP "
                    "(income of 78 SP a turn from turn 2 changes the economy the core is balanced on)",
                )
            )
        return tuple(rules)

    def describe(self) -> str:
        parts = ["core"]
        if self.king_value is not None:
            parts.append(f"king_value={self.king_value}")
        if self.income_counts_all:
            parts.append("income=all")
        if self.turn_limit is not None:
            parts.append(f"turn_limit={self.turn_limit}")
        return "; ".join(parts)


CORE = Ruleset()

_MAX_TURN_LIMIT = 100_000


#: A setting's number: plain ASCII digits, short enough to convert (``str.isdigit`` also accepts
#: digits such as "²" that ``int`` refuses, and ``int`` refuses 4,300 digits and more).
_WHOLE_NUMBER = re.compile(f"[0-9]{{1,{MAX_NUMBER_DIGITS}}}")
_SHOWN_CHARS = 24


def _whole_number(text: str) -> int | None:
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


def _shown(text: str) -> str:
    """Text from the profile as a message quotes it: in quotes, shortened, control characters escaped."""
    if len(text) > _SHOWN_CHARS:
        text = text[:_SHOWN_CHARS] + "…"
    return "'" + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text) + "'"


class RulesetError(ValueError):
    """A profile text that cannot be understood; the message says which part and why."""


def parse_ruleset(text: str, base: Ruleset = CORE) -> Ruleset:
    """Parse a profile, starting from ``base`` (so ``--ruleset`` can refine a log's header)."""
    from dataclasses import replace

    result = base
    parts = [p.strip() for p in text.replace(",", ";").split(";")]
    for part in parts:
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = ascii_lower(key.strip()).replace("-", "_")  # ASCII only: the Kelvin sign is no 'k'
        value = ascii_lower(value.strip())
        if not sep:
            if key == "core":
                continue
            raise RulesetError(f"unknown ruleset profile {_shown(part)}{foreign_note(part)} (known: core)")
        if key == "king_value":
            if value in ("none", "core"):
                result = replace(result, king_value=None)
                continue
            number = _whole_number(value)
            if number is None or not 1 <= number <= 9:
                raise RulesetError(f"king_value must be a whole number from 1 to 9, not {_shown(value)}")
            result = replace(result, king_value=number)
        elif key == "income":
            if value not in ("enemy", "all"):
                raise RulesetError(
                    f"income must be 'enemy' (core, R14) or 'all', not {_shown(value)}{foreign_note(value)}"
                )
            result = replace(result, income_counts_all=value == "all")
        elif key == "turn_limit":
            if value in ("none", "0"):
                result = replace(result, turn_limit=None)
                continue
            number = _whole_number(value)
            if number is None or not 1 <= number <= _MAX_TURN_LIMIT:
                raise RulesetError(
                    f"turn_limit must be a whole number from 1 to {_MAX_TURN_LIMIT}, not {_shown(value)}"
                )
            result = replace(result, turn_limit=number)
        else:
            raise RulesetError(
                f"unknown ruleset setting {_shown(key)}{foreign_note(key)} (known: king_value, income, turn_limit)"
            )
    return result


pickle_by_fields(globals())
