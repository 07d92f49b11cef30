"""The locked formulas of core §3-§6, each with a worked explanation.

Every function returns the number and a short text showing how it was obtained
(``"2×Rook 5 + distance 2"``), which diagnostics quote so a player can check the
arithmetic at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Final

from sgcheck.core import caps
from sgcheck.core.pieces import KING, KNIGHT, NON_KING_KINDS, PIECE_VALUES, Color, Kind
from sgcheck.core.record import compiled
from sgcheck.core.ruleset import Ruleset
from sgcheck.core.squares import Square, manhattan, name, starting_squares


class Worked:
    """A number and how it was worked out.

    The explanation is built only when asked for (a claim is wrong), since replay computes
    millions of these and almost all of them are never shown.
    """

    __slots__ = ("_args", "_fmt", "alone", "raw", "rules", "sources", "value")

    def __init__(
        self,
        value: int,
        fmt: str,
        *args: object,
        rules: tuple[str, ...] = (),
        raw: int | None = None,
        sources: tuple[str, ...] = (),
        alone: tuple[str, ...] = (),
    ) -> None:
        self.value = value
        self._fmt = fmt
        self._args = args
        self.rules = rules  # the rule sections and rulings the number follows, for diagnostics
        # before a floor: a cost the cards push below 0 is charged 0 (R23), and ``raw`` keeps
        # what they added up to, with the cards (``sources``), for the contract's watch
        self.raw = value if raw is None else raw
        self.sources = sources
        # the cards among them whose own modifiers take the cost below 0 (below_zero_alone)
        self.alone = alone

    @property
    def detail(self) -> str:
        return self._fmt.format(*self._args) if self._args else self._fmt

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Worked) and (self.value, self.detail) == (other.value, other.detail)

    def __hash__(self) -> int:
        return hash((self.value, self.detail))

    def __repr__(self) -> str:
        return f"Worked({self.value}, {self.detail!r})"


_VALUES: tuple[int, ...] = tuple(PIECE_VALUES.get(k, 0) for k in Kind)

# The rule sections and rulings each formula follows, cited by the diagnostics that quote it.
_MOVE = ("core §3", "R06")  # value + distance; distance is the number of squares travelled
_KNIGHT_MOVE = ("core §3", "R07")  # 3 per jump, overriding value + distance
_KING_MOVE = ("core §3", "R09")  # the King has no value: distance only
_KING_VALUE_MOVE = ("core §3", "R06", "R09")  # the king_value house rule
_ATTACK = ("core §4.1", "R08")  # distance along the path of a Move
_ATTACK_RULES = {
    KNIGHT: (*_ATTACK, "R07"),  # a Knight's distance is its jumps
    KING: (*_ATTACK, "R09"),  # a King has a value (and attacks) only under the king_value house rule
}


def value_of(kind: Kind, ruleset: Ruleset) -> int:
    """Piece value; the King's is 0 unless a house rule gives it one (R09)."""
    if kind is KING:
        return ruleset.king_value or 0
    return _VALUES[kind]


def move_cost(kind: Kind, distance: int, ruleset: Ruleset) -> Worked:
    """Move = value + distance (core §3); knights 3 per jump (R07); the core King 1 (R09)."""
    return _move_cost(kind, distance, ruleset.king_value)


@cache
def _move_cost(kind: Kind, distance: int, king_value: int | None) -> Worked:
    # Cached (as are the threshold, placement and income below): replay asks for the same few
    # numbers millions of times, and a Worked never changes. Compiled, the caches make no
    # measurable difference; the pure build replays about a tenth slower without them, which is
    # what keeps it at python-chess's speed on the corpus (docs/benchmarks.md).
    if kind is KNIGHT:
        return Worked(
            caps.KNIGHT_JUMP_COST * distance, "{} per jump × {}", caps.KNIGHT_JUMP_COST, distance, rules=_KNIGHT_MOVE
        )
    if kind is KING and king_value is None:
        return Worked(caps.KING_MOVE_COST * distance, "King moves cost distance only ({})", distance, rules=_KING_MOVE)
    v = (king_value or 0) if kind is KING else _VALUES[kind]
    rules = _KING_VALUE_MOVE if kind is KING else _MOVE
    return Worked(v + distance, "{} {} + distance {}", kind.title, v, distance, rules=rules)


def attack_cost(kind: Kind, distance: int, ruleset: Ruleset) -> Worked:
    """Attack = 2 × value + distance (core §4.1)."""
    return _attack_cost(kind, distance, value_of(kind, ruleset))


@cache
def _attack_cost(kind: Kind, distance: int, value: int) -> Worked:
    m = caps.ATTACK_VALUE_MULTIPLIER
    rules = _ATTACK_RULES.get(kind, _ATTACK)
    return Worked(m * value + distance, "{}×{} {} + distance {}", m, kind.title, value, distance, rules=rules)


@cache
def placement_extra(color: Color, kind: Kind, to: Square) -> Worked:
    """Extra placement cost: the smallest |Δx|+|Δy| from a starting square of the kind (core §5, R12)."""
    starts = starting_squares(color, kind)
    best = min(starts, key=lambda s: manhattan(s, to))
    extra = manhattan(best, to)
    if extra == 0:
        return Worked(0, "a starting square")
    return Worked(extra, "{} from {}", extra, name(best))


def placement_cost(
    color: Color, kind: Kind, to: Square, ruleset: Ruleset, rules: tuple[str, ...] = ("core §5", "R12")
) -> Worked:
    """Summon/Teleport = value + 5 + extra placement (core §5, R12; a Teleport's ``rules`` add R13)."""
    v = value_of(kind, ruleset)
    extra = placement_extra(color, kind, to)
    base = caps.SUMMON_BASE_COST
    if extra.value == 0:
        return Worked(v + base, "{} {} + {}", kind.title, v, base, rules=rules)
    return Worked(v + base + extra.value, "{} {} + {} + placement {}", kind.title, v, base, extra.detail, rules=rules)


def clamp_to_hit(raw: int) -> int:
    return max(caps.MIN_TO_HIT, min(caps.MAX_TO_HIT, raw))


def hit_threshold(attacker: Kind, defender: Kind, ruleset: Ruleset, bonus: int = 0, why: str = "") -> Worked:
    """The d100 threshold (core §4.2, §4.4, R10): bonus capped at +25, then clamped to 5..95.

    ``why`` says where the bonus comes from (each card's share and the cap, R20).
    """
    return _hit_threshold(attacker, defender, value_of(attacker, ruleset), value_of(defender, ruleset), bonus, why)


def with_card_costs(cost: Worked, shares: Sequence[tuple[str, int]]) -> Worked:
    """A cost changed by cards (``Rook 5 + distance 2 − 1 (Swift Boots −1)``); never below 0 (R23)."""
    if not shares:
        return cost
    delta = sum(amount for _, amount in shares)
    raw = cost.value + delta
    named = ", ".join(f"{card} {amount:+d}" for card, amount in shares)
    sign = "+" if delta >= 0 else "−"
    fmt = "{} {} {} ({})" + (", never below 0" if raw < 0 else "")
    sources = tuple(dict.fromkeys(card for card, _ in shares))
    alone = below_zero_alone(cost.value, shares) if raw < 0 else ()
    return Worked(
        max(0, raw),
        fmt,
        cost.detail,
        sign,
        abs(delta),
        named,
        rules=(*cost.rules, "R23"),
        raw=raw,
        sources=sources,
        alone=alone,
    )


def below_zero_alone(base: int, shares: Sequence[tuple[str, int]]) -> tuple[str, ...]:
    """The cards whose own modifiers (every copy of the card) take a cost of ``base`` below 0.

    A cost that only several cards together take below 0 is clamped at 0 (R23) as caps passed only
    together are clamped (R20): the contract checker warns of it; one card that does it alone breaks
    core §8.
    """
    by_card: dict[str, int] = {}
    for card, amount in shares:
        by_card[card] = by_card.get(card, 0) + amount
    return tuple(card for card, amount in by_card.items() if base + amount < 0)


@cache
def _hit_threshold(attacker: Kind, defender: Kind, a: int, d: int, bonus: int, why: str = "") -> Worked:
    bonus = min(bonus, caps.TO_HIT_BONUS_CAP)
    args: tuple[object, ...]
    if defender is KING:
        raw = caps.TO_HIT_PER_VALUE * a + bonus
        fmt, args = "{}×{} {}", (caps.TO_HIT_PER_VALUE, attacker.title, a)
        rules: tuple[str, ...] = ("core §4.4", "R10")
    else:
        raw = caps.BASE_TO_HIT + caps.TO_HIT_PER_VALUE * (a - d) + bonus
        fmt = "{} + {}×({} {} − {} {})"
        args = (caps.BASE_TO_HIT, caps.TO_HIT_PER_VALUE, attacker.title, a, defender.title, d)
        rules = ("core §4.2", "R10")
    if attacker is KING:
        rules = (*rules, "R09")  # only the king_value house rule lets a King attack
    if why:
        sign = "+" if bonus >= 0 else "−"
        fmt, args = fmt + " {} {} ({})", (*args, sign, abs(bonus), why)  # each card's share (R20)
        rules = (*rules, "R20")
    elif bonus:
        fmt, args = fmt + " + bonus {}", (*args, bonus)  # capped at +25 (core §4.5), as R10 says
    clamped = clamp_to_hit(raw)
    if clamped != raw:
        fmt, args = fmt + " = {}, clamped to {}", (*args, raw, clamped)
    return Worked(clamped, fmt, *args, rules=rules)


def d100(tens: int, ones: int) -> int:
    """Two d10 read as tens and ones; 0 0 counts as 100 (core §4.2)."""
    value = tens * 10 + ones
    return 100 if value == 0 else value


def is_hit(roll: int, threshold: int) -> bool:
    """An accuracy roll hits when it is at or under the threshold (core §4.2, R10)."""
    return roll <= threshold


def counted_roll(first: int, second: int, advantage: bool) -> int:
    """The d100 an attack with a second roll counts: advantage the better (lower) of the two, a
    reroll the second (core §4.5, R20)."""
    return min(first, second) if advantage else second


def income(gem: tuple[int, ...], color: Color, ruleset: Ruleset) -> Worked:
    """SP income = 2 × value of the enemy pieces in the Gem (R14; all pieces under the table choice)."""
    return _income(gem, color, ruleset.income_counts_all)


#: Compiled, an Upkeep's income is worked out at every turn (a few additions in C, cheaper than
#: the cache's look-up); pure, it is read from :func:`_income`'s cache (docs/benchmarks.md).
_COMPILED: Final = compiled()


def upkeep_income(gem: tuple[int, ...], color: Color, ruleset: Ruleset) -> int:
    """:func:`income`'s value, the SP an Upkeep gives (R14), without its explanation."""
    if _COMPILED:
        return caps.INCOME_PER_VALUE * _gem_value(gem, color, ruleset.income_counts_all)
    return _income(gem, color, ruleset.income_counts_all).value


def _gem_value(gem: tuple[int, ...], color: Color, counts_all: bool) -> int:
    """The value of the pieces in the Gem that income counts: the enemy's, or all (R14)."""
    total = 0
    for c in (color.other, color) if counts_all else (color.other,):
        base = c * 6
        for k in NON_KING_KINDS:
            total += gem[base + k] * _VALUES[k]
    return total


@lru_cache(maxsize=1024)
def _income(gem: tuple[int, ...], color: Color, counts_all: bool) -> Worked:
    # Cached: asked at every turn, while a Gem changes only on captures, summons and Breaks.
    total = _gem_value(gem, color, counts_all)
    return Worked(
        caps.INCOME_PER_VALUE * total, "{}×{} (Gem value)", caps.INCOME_PER_VALUE, total, rules=("core §6", "R14")
    )
