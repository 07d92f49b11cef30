"""The numbers a player works out at the table: accuracy and cost tables, and the chance to
capture a piece this turn within a budget (the guide's Drill 1, "last-hit with minimal spend").

Pure functions over the core's own rules: every threshold, cost, die reading and damage figure
comes from :mod:`sgcheck.core.formulas` and the card model's attack sums, the same functions
replay calls, so the odds can never disagree with a replayed game. Chances are exact
(:class:`fractions.Fraction`): each attack's chance to hit counts the 100 faces of the two d10
(10,000 pairs with a second roll), and the chance to capture adds up every run of attacks.

What the capture calculation assumes, beyond the rules:

* the attacker and its target stand on one line of the attacker's movement (a rank, file or
  diagonal, or a route of knight jumps) with nothing between them, ``distance`` squares apart
  (jumps for a Knight): the distance of core §0 and R08;
* the attacker may first move straight toward the target in Main 1 (core §2, §3), then attacks
  in Battle as often as the budget pays for: the core puts no limit on the number of attacks in
  a turn, only their cost (core §2, §4.1);
* the player stops attacking as soon as the piece is captured, and as soon as the attacks the
  budget still pays for can no longer reach its value (damage clears at the End, core §2.5, R11).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from sgcheck.core import caps
from sgcheck.core.cards.semantics import AttackCards, Share
from sgcheck.core.formulas import (
    Worked,
    attack_cost,
    counted_roll,
    d100,
    hit_threshold,
    is_hit,
    move_cost,
    placement_cost,
    placement_extra,
    value_of,
)
from sgcheck.core.geometry import KNIGHT_JUMPS, attack_distances, move_distances
from sgcheck.core.pieces import KING, KNIGHT, NON_KING_KINDS, PAWN, WHITE, Kind
from sgcheck.core.record import pickle_by_fields
from sgcheck.core.ruleset import CORE
from sgcheck.core.squares import ALL_SQUARES, Square, in_camp

#: The kinds that may attack under the core (the King has no value and cannot, R09).
ATTACKERS: tuple[Kind, ...] = NON_KING_KINDS
#: The kinds that may be attacked: every piece, and the King (core §4.4).
DEFENDERS: tuple[Kind, ...] = (*NON_KING_KINDS, KING)
#: The kinds that can be summoned or teleported (never the King, R09, R12, R13).
SUMMONED: tuple[Kind, ...] = NON_KING_KINDS

#: The most LP, and the most SP, the calculation accepts: a limit of sgcheck, not a rule (a
#: player reaching 1000 LP wins at once, core §7). Larger budgets only make the exact sums slower.
MAX_BUDGET = 999
#: A to-hit bonus beyond these moves no threshold: +25 is the cap (core §4.5) and the clamp
#: holds every threshold within 5..95 (core §4.2).
MAX_BONUS = 100
#: A damage bonus beyond the +2 cap (core §4.5) deals nothing more; this bounds what is read.
MAX_DAMAGE_BONUS = 9

_BONUS_CARD = "bonus"  # how a bonus given on the command line is named in the worked figures

_ACCURACY_RULES = ("core §4.2", "core §4.4", "R10")
_MOVE_RULES = ("core §3", "R06", "R07", "R09")
_ATTACK_RULES = ("core §4.1", "R08")
_SUMMON_RULES = ("core §5", "R12", "R13")


class OddsError(ValueError):
    """A question the rules cannot ask (a King attacking, a distance off the board, ...).

    ``field`` names what is wrong (``attacker``, ``target``, ``distance``, ``lp``, ``sp``,
    ``damage_so_far``, ``bonus``, ``damage_bonus``), so a front-end can point at its option.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class SecondRoll(StrEnum):
    """A card's second accuracy roll on each attack; at most one source (core §4.5, R20)."""

    NONE = "none"
    REROLL = "reroll"  # roll again after a miss; the second roll counts
    ADVANTAGE = "advantage"  # roll twice; the better (lower) roll counts


# --- reach on the board (the distances themselves are :mod:`sgcheck.core.geometry`'s) ------------


@cache
def _most_knight_jumps() -> int:
    """The most knight jumps two squares of the board are apart (6, corner to corner)."""
    most = 0
    for start in ALL_SQUARES:
        seen = {start: 0}
        queue: deque[Square] = deque([start])
        while queue:
            here = queue.popleft()
            for there in KNIGHT_JUMPS[here]:
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        most = max(most, *seen.values())
    return most


def farthest(kind: Kind) -> int:
    """The largest distance an attacker of ``kind`` can stand from its target and still be asked
    about: its longest attack for a sliding piece or a Pawn, and for a Knight the most jumps
    two squares are apart (it moves closer first)."""
    if kind is KNIGHT:
        return _most_knight_jumps()
    reach = attack_distances(kind)
    return reach[-1] if reach else 0


# --- the tables ---------------------------------------------------------------------------------


def attack_cards(bonus: int = 0, damage_bonus: int = 0, second_roll: SecondRoll = SecondRoll.NONE) -> AttackCards:
    """The card effects on an attack as the core sums them (R20): a to-hit bonus, a damage bonus
    and a second-roll source, each given as a number rather than a card."""
    return AttackCards(
        to_hit=(Share(_BONUS_CARD, bonus),) if bonus else (),
        damage=(Share(_BONUS_CARD, damage_bonus),) if damage_bonus else (),
        rerolls=((_BONUS_CARD, second_roll is SecondRoll.ADVANTAGE),) if second_roll is not SecondRoll.NONE else (),
    )


def threshold(attacker: Kind, defender: Kind, bonus: int = 0) -> Worked:
    """The d100 an attack must roll at or under, with ``bonus`` summed and capped as the core
    does for an attack's cards (core §4.2, §4.4, §4.5, R10, R20)."""
    cards = attack_cards(bonus)
    why = cards.to_hit_text() if cards.to_hit else ""
    return hit_threshold(attacker, defender, CORE, cards.raw_to_hit, why)


@dataclass(frozen=True, slots=True)
class AccuracyTable:
    """Every attacker against every defender and the King, at one to-hit bonus."""

    bonus: int  # as given
    applied: int  # what the attack adds after the +25 cap (core §4.5, R20)
    rows: tuple[tuple[Kind, tuple[tuple[Kind, Worked], ...]], ...]  # attacker -> (defender, threshold)

    def threshold(self, attacker: Kind, defender: Kind) -> int:
        return dict(dict(self.rows)[attacker])[defender].value

    @property
    def rules(self) -> tuple[str, ...]:
        return cited_in_order((*_ACCURACY_RULES, "core §4.5", "R20")) if self.bonus else _ACCURACY_RULES


def accuracy_table(bonus: int = 0) -> AccuracyTable:
    """The hit thresholds a player reads before attacking (core §4.2, §4.4, R10)."""
    _check_bonus(bonus)
    rows = tuple((a, tuple((d, threshold(a, d, bonus)) for d in DEFENDERS)) for a in ATTACKERS)
    return AccuracyTable(bonus, attack_cards(bonus).to_hit_bonus, rows)


@dataclass(frozen=True, slots=True)
class CostTable:
    """One cost by piece and distance: ``rows`` gives each kind its (distance, cost) pairs."""

    name: str
    column: str  # what the distance counts
    rules: tuple[str, ...]
    rows: tuple[tuple[Kind, tuple[tuple[int, Worked], ...]], ...]

    def cost(self, kind: Kind, distance: int) -> int:
        return dict(dict(self.rows)[kind])[distance].value

    @property
    def columns(self) -> tuple[int, ...]:
        return tuple(sorted({d for _, costs in self.rows for d, _ in costs}))


def move_cost_table() -> CostTable:
    """Move = value + distance, a Knight 3 a jump, the King 1 (core §3, R06, R07, R09)."""
    rows = tuple((k, tuple((d, move_cost(k, d, CORE)) for d in move_distances(k))) for k in (*NON_KING_KINDS, KING))
    return CostTable("move", "squares (Knight: jumps) in one Move action", _MOVE_RULES, rows)


def attack_cost_table() -> CostTable:
    """Attack = 2 × value + distance, at every distance the piece attacks from (core §4.1, R08)."""
    rows = tuple((k, tuple((d, attack_cost(k, d, CORE)) for d in attack_distances(k))) for k in ATTACKERS)
    return CostTable("attack", "distance (Knight: jumps)", _ATTACK_RULES, rows)


def summon_cost_table() -> CostTable:
    """Summon and Teleport = value + 5 + the extra placement |Δx|+|Δy| from the nearest starting
    square, for every extra some square of the camp costs (core §5, R12, R13)."""
    rows = []
    for kind in SUMMONED:
        by_extra: dict[int, Worked] = {}
        for sq in ALL_SQUARES:
            if in_camp(sq, WHITE):
                extra = placement_extra(WHITE, kind, sq).value
                by_extra.setdefault(extra, placement_cost(WHITE, kind, sq, CORE, _SUMMON_RULES))
        rows.append((kind, tuple(sorted(by_extra.items()))))
    return CostTable("summon", "extra placement |Δx|+|Δy|", _SUMMON_RULES, tuple(rows))


def cost_tables() -> tuple[CostTable, ...]:
    return move_cost_table(), attack_cost_table(), summon_cost_table()


@dataclass(frozen=True, slots=True)
class OddsTables:
    """What ``sgcheck odds table`` answers: the accuracy table and the cost tables."""

    accuracy: AccuracyTable
    costs: tuple[CostTable, ...]


def odds_tables(bonus: int = 0) -> OddsTables:
    """The accuracy table with a to-hit ``bonus`` and every cost table (OddsError: a bonus out of range)."""
    return OddsTables(accuracy_table(bonus), cost_tables())


# --- one attack ---------------------------------------------------------------------------------


_FACES: tuple[int, ...] = tuple(d100(tens, ones) for tens in range(10) for ones in range(10))


@cache
def hit_chance(threshold: int, second_roll: SecondRoll = SecondRoll.NONE) -> Fraction:
    """The exact chance one attack hits, over every face of the two d10 (core §4.2, R10).

    With a second roll (core §4.5, R20), the player rolls again only after a miss: a reroll then
    counts the second roll, advantage the better of the two (a hit stays a hit either way).
    """
    if second_roll is SecondRoll.NONE:
        return Fraction(sum(is_hit(roll, threshold) for roll in _FACES), len(_FACES))
    advantage = second_roll is SecondRoll.ADVANTAGE
    hits = 0
    for first in _FACES:
        if is_hit(first, threshold):
            hits += len(_FACES)
            continue
        hits += sum(is_hit(counted_roll(first, second, advantage), threshold) for second in _FACES)
    return Fraction(hits, len(_FACES) ** 2)


# --- the capture question -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CaptureQuestion:
    """Can ``attacker`` capture ``target`` this turn from ``distance`` with ``lp`` + ``sp``?

    ``damage_so_far`` is the damage already dealt to the target this turn (for the King, all the
    damage it has taken: that never clears, core §4.4). ``bonus``, ``damage_bonus`` and
    ``second_roll`` stand for cards in play, summed and capped as the core does (R20).
    """

    attacker: Kind
    target: Kind
    distance: int
    lp: int
    sp: int = 0
    damage_so_far: int = 0
    bonus: int = 0
    damage_bonus: int = 0
    second_roll: SecondRoll = SecondRoll.NONE

    @property
    def budget(self) -> int:
        """Any cost may be paid from any mix of LP and SP (core §0, R05)."""
        return self.lp + self.sp


@dataclass(frozen=True, slots=True)
class Plan:
    """Move ``moved`` squares toward the target (jumps for a Knight), then attack up to
    ``attacks`` times from ``distance``, stopping on a capture or once it can no longer happen.

    ``spend`` is the exact distribution of what the plan costs: (amount, chance) pairs.
    """

    moved: int
    moves: tuple[Worked, ...]  # the cost of each Move action (core §3)
    distance: int
    attack: Worked | None  # the cost of one attack; None when no attack is in reach or in budget
    attacks: int
    probability: Fraction
    spend: tuple[tuple[int, Fraction], ...]

    @property
    def move_cost(self) -> int:
        return sum(m.value for m in self.moves)

    @property
    def expected_spend(self) -> Fraction:
        return sum((chance * amount for amount, chance in self.spend), Fraction(0))

    @property
    def most_spend(self) -> int:
        return max(amount for amount, _ in self.spend)

    @property
    def expected_attacks(self) -> Fraction:
        if self.attack is None or self.attack.value == 0:
            return Fraction(0)
        return (self.expected_spend - self.move_cost) / self.attack.value

    def expected_from_sp(self, sp: int) -> Fraction:
        """The expected part of the spend paid with SP, SP being spent first (R05)."""
        return sum((chance * min(amount, sp) for amount, chance in self.spend), Fraction(0))


@dataclass(frozen=True, slots=True)
class CaptureOdds:
    """The answer: the best plan (the highest chance, then the lowest expected spend) and every
    plan weighed, with the figures each attack uses."""

    question: CaptureQuestion
    threshold: Worked  # hit if d100 ≤ this (core §4.2, §4.4)
    hit_chance: Fraction  # of one attack, over the dice
    damage_per_hit: int
    damage_detail: str
    damage_needed: int  # still to deal this turn (the King: to 20)
    hits_needed: int
    reward_sp: int  # SP gained on a capture (0 for the King: the game ends, core §4.4)
    plans: tuple[Plan, ...]
    best: Plan

    @property
    def probability(self) -> Fraction:
        return self.best.probability

    @property
    def rules(self) -> tuple[str, ...]:
        extra = ("core §4.5", "R20") if self.question.bonus or self.question.damage_bonus else ()
        second = ("core §4.5", "R20") if self.question.second_roll is not SecondRoll.NONE else ()
        capture = ("core §4.4", "R11") if self.question.target is KING else ("core §4.3", "R11")
        cited = (*self.threshold.rules, "core §4.1", "R08", *capture, "R05", *extra, *second)
        if any(p.moves for p in self.plans):
            cited = (*cited, "core §3", *(("R07",) if self.question.attacker is KNIGHT else ("R06",)))
        return cited_in_order(cited)


def cited_in_order(cited: tuple[str, ...]) -> tuple[str, ...]:
    """Each citation once: the core's sections in their order, then the rulings in theirs."""

    def key(rule: str) -> tuple[int, tuple[int, ...]]:
        if rule.startswith("core §"):
            return 0, tuple(int(n) for n in rule.removeprefix("core §").split("."))
        return 1, (int(rule.removeprefix("R")),)

    return tuple(sorted(set(cited), key=key))


def _check_bonus(bonus: int) -> None:
    if not -MAX_BONUS <= bonus <= MAX_BONUS:
        raise OddsError("bonus", f"a to-hit bonus must be within ±{MAX_BONUS} (the cap is +25, core §4.5)")


def check_question(q: CaptureQuestion) -> None:
    """Raise :class:`OddsError` for a question the rules cannot ask."""
    if q.attacker is KING or q.attacker not in ATTACKERS:
        raise OddsError("attacker", "the King has no piece value under the core and cannot attack (core §4.4, R09)")
    for field, amount in (("lp", q.lp), ("sp", q.sp)):
        if amount < 0:
            raise OddsError(field, f"{field.upper()} cannot be negative (a cost larger than LP+SP is illegal, R05)")
        if amount > MAX_BUDGET:
            raise OddsError(field, f"{field.upper()} above {MAX_BUDGET} is more than sgcheck computes odds for")
    most = farthest(q.attacker)
    if q.distance < 1:
        raise OddsError("distance", "the distance is at least 1 square (the target is another square, core §0)")
    if q.distance > most:
        if q.attacker is PAWN:
            why = "a Pawn attacks only one square diagonally forward, from distance 1 (R08)"
        elif q.attacker is KNIGHT:
            why = f"no two squares of the board are more than {most} knight jumps apart (core §0, R07)"
        else:
            why = f"a {q.attacker.title} is at most {most} squares from a piece on its line on an 8×8 board (R08)"
        where = "out of reach" if q.attacker is PAWN else "off the board"
        raise OddsError("distance", f"distance {q.distance} is {where}: {why}")
    if q.damage_so_far < 0:
        raise OddsError("damage_so_far", "damage dealt so far cannot be negative")
    total = caps.KING_HP if q.target is KING else value_of(q.target, CORE)
    if q.damage_so_far >= total:
        done = "converted (20 damage, core §4.4)" if q.target is KING else f"captured (value {total}, core §4.3)"
        raise OddsError("damage_so_far", f"with {q.damage_so_far} damage the {q.target.title} is already {done}")
    _check_bonus(q.bonus)
    if not 0 <= q.damage_bonus <= MAX_DAMAGE_BONUS:
        raise OddsError(
            "damage_bonus", f"a damage bonus must be within 0..{MAX_DAMAGE_BONUS} (the cap is +2, core §4.5)"
        )


def _approach(kind: Kind, squares: int) -> tuple[Worked, ...]:
    """The Move actions that bring ``kind`` ``squares`` closer along its line: one for a sliding
    piece, and for a Knight as many of at most two jumps as it takes (core §3, R07)."""
    if squares == 0:
        return ()
    longest = move_distances(kind)[-1]
    steps = [longest] * (squares // longest) + ([squares % longest] if squares % longest else [])
    return tuple(move_cost(kind, n, CORE) for n in steps)


def _runs(attacks: int, hits: int, chance: Fraction) -> tuple[Fraction, dict[int, Fraction]]:
    """The chance of ``hits`` hits within ``attacks`` attacks, stopping on the last needed hit
    or once the attacks left are fewer than the hits still needed, and the distribution of the
    number of attacks made. Exact: the weights of the runs that stop after ``t`` attacks are
    integers over ``denominator ** t``, made fractions once at the end."""
    num, den = chance.numerator, chance.denominator
    states = {hits: 1}
    stopped: dict[int, int] = {}
    captured: dict[int, int] = {}
    t = 0
    while states:
        following: dict[int, int] = {}
        for need, weight in states.items():
            if need == 0 or attacks - t < need:
                stopped[t] = stopped.get(t, 0) + weight
                if need == 0:
                    captured[t] = weight
                continue
            following[need - 1] = following.get(need - 1, 0) + weight * num
            following[need] = following.get(need, 0) + weight * (den - num)
        states = following
        t += 1
    last = t - 1
    probability = Fraction(sum(w * den ** (last - n) for n, w in captured.items()), den**last)
    return probability, {n: Fraction(w, den**n) for n, w in stopped.items()}


def capture_odds(q: CaptureQuestion) -> CaptureOdds:
    """The chance to capture (or convert the King) this turn, with the plan that gets it for the
    least expected spend (core §3, §4, R05, R08, R10, R11)."""
    check_question(q)
    cards = attack_cards(q.bonus, q.damage_bonus, q.second_roll)
    worked = threshold(q.attacker, q.target, q.bonus)
    chance = hit_chance(worked.value, q.second_roll)
    per_hit = cards.hit_damage()
    total = caps.KING_HP if q.target is KING else value_of(q.target, CORE)
    needed = total - q.damage_so_far
    hits = -(-needed // per_hit)
    reach = attack_distances(q.attacker)
    plans: list[Plan] = []
    for moved in range(q.distance):
        distance = q.distance - moved
        if distance not in reach:
            continue
        moves = _approach(q.attacker, moved)
        left = q.budget - sum(m.value for m in moves)
        if left < 0:
            continue
        cost = attack_cost(q.attacker, distance, CORE)
        attacks = left // cost.value
        probability, made = _runs(attacks, hits, chance)
        spend = tuple((sum(m.value for m in moves) + n * cost.value, share) for n, share in sorted(made.items()))
        plans.append(Plan(moved, moves, distance, cost, attacks, probability, spend))
    if not plans:  # nothing in reach and affordable: the only plan is to do nothing
        plans.append(Plan(0, (), q.distance, None, 0, Fraction(0), ((0, Fraction(1)),)))
    best = max(plans, key=lambda p: (p.probability, -p.expected_spend, -p.most_spend, -p.moved))
    reward = 0 if q.target is KING else caps.CAPTURE_SP_PER_VALUE * total
    return CaptureOdds(q, worked, chance, per_hit, cards.damage_text(), needed, hits, reward, tuple(plans), best)


pickle_by_fields(globals())
