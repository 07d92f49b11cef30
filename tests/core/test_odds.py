"""The odds tables and the chance to capture this turn (core §3-§5, R05, R08-R13, R20; guide).

The guide's figures are asserted where the guide states them; capture chances are checked
against a walk over every face of the dice written here from the rulebook, and against the
engine itself, so the odds can disagree neither with the rules nor with replay.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.core.actions import Attack
from sgcheck.core.odds import (
    ATTACKERS,
    DEFENDERS,
    MAX_BUDGET,
    CaptureQuestion,
    OddsError,
    SecondRoll,
    accuracy_table,
    attack_cost_table,
    capture_odds,
    farthest,
    hit_chance,
    move_cost_table,
    summon_cost_table,
)
from sgcheck.core.pieces import Kind, Phase

from .helpers import ok, position, sq

P, N, BI, R, Q, K = Kind.PAWN, Kind.KNIGHT, Kind.BISHOP, Kind.ROOK, Kind.QUEEN, Kind.KING

# --- the guide's numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "defender", "threshold"),
    [
        (R, P, 60),  # Example A: Rook (5) against a Pawn (1)
        (Q, R, 60),  # Example B: Queen (9) against a Rook (5)
        (R, K, 50),  # Example C: Rook (5) against the King
    ],
)
def test_guide_worked_examples_thresholds(attacker: Kind, defender: Kind, threshold: int) -> None:
    """guide, "Worked Examples" A, B and C (R21): thresholds 60, 60 and 50."""
    assert accuracy_table().threshold(attacker, defender) == threshold


@pytest.mark.parametrize(("attacker", "threshold"), [(Q, 90), (R, 50), (N, 30)])
def test_guide_accuracy_intuition_against_the_king(attacker: Kind, threshold: int) -> None:
    """guide, "Accuracy Intuition": against the King a Queen hits at 90%, a Rook at 50%, a Knight
    at 30% (10 × value, core §4.4, R10)."""
    assert accuracy_table().threshold(attacker, K) == threshold


def test_guide_accuracy_intuition_equal_values_and_the_ceiling() -> None:
    """guide, "Accuracy Intuition": equal values hit at 20%, each point of value +10%, and a
    Queen against a Pawn sits at the 95% ceiling (core §4.2 clamp)."""
    table = accuracy_table()
    assert {table.threshold(k, k) for k in ATTACKERS} == {20}
    assert table.threshold(N, P) - table.threshold(P, P) == 20  # two points of value
    assert table.threshold(Q, P) == 95  # 20 + 80 = 100, clamped
    assert table.threshold(P, Q) == 5  # 20 − 80, clamped to the floor


@pytest.mark.parametrize(
    ("table", "kind", "distance", "cost"),
    [
        ("attack", R, 2, 12),  # Example A and C
        ("attack", Q, 3, 21),  # Example B
        ("move", R, 3, 8),  # "A Rook (5) moves 3 squares → 8"
        ("move", Q, 2, 11),  # "A Queen (9) shifts 2 squares → 11"
        ("move", N, 1, 3),  # Knights: 3–6 LP
        ("move", N, 2, 6),
        ("summon", Q, 0, 14),  # Queen to d1
        ("summon", Q, 6, 20),  # Queen to h3: |h−d| + |3−1| = 6 extra
    ],
)
def test_guide_costs(table: str, kind: Kind, distance: int, cost: int) -> None:
    """guide, "Movement", "Summoning & Teleport" and "Worked Examples" (R07, R12, R21)."""
    tables = {"attack": attack_cost_table(), "move": move_cost_table(), "summon": summon_cost_table()}
    assert tables[table].cost(kind, distance) == cost


def test_guide_example_a_as_a_capture_question() -> None:
    """guide, Example A: one Rook attack from 2 squares (cost 12) captures the Pawn on a roll of
    60 or less, and the capture pays 5 SP (core §4.3)."""
    odds = capture_odds(CaptureQuestion(R, P, 2, lp=12))
    assert odds.probability == Fraction(3, 5)
    assert odds.best.expected_spend == 12 and odds.best.attacks == 1 and odds.best.moved == 0
    assert odds.reward_sp == 5


# --- the tables -----------------------------------------------------------------------------------


def test_accuracy_table_covers_every_attacker_and_defender_and_caps_the_bonus() -> None:
    """core §4.5, R20: a bonus over +25 counts as +25; the clamp still holds 5..95."""
    plain, capped = accuracy_table(0), accuracy_table(40)
    assert [a for a, _ in plain.rows] == list(ATTACKERS)
    assert all([d for d, _ in row] == list(DEFENDERS) for _, row in plain.rows)
    assert capped.applied == 25 and capped.threshold(R, N) == 65 and capped.threshold(Q, P) == 95
    assert accuracy_table(-50).threshold(R, P) == 10
    assert accuracy_table(-90).threshold(R, P) == 5
    with pytest.raises(OddsError):
        accuracy_table(101)


def test_cost_tables_have_each_piece_s_reach() -> None:
    """Pawns move 1 or 2 and attack from 1; Knights 1-2 jumps; the core King moves 1 for 1 and
    never attacks or is summoned (core §3, §4.1, §5, R06-R09, R12)."""
    move, attack, summon = move_cost_table(), attack_cost_table(), summon_cost_table()
    assert dict(dict(move.rows)[P]).keys() == {1, 2}
    assert dict(dict(attack.rows)[P]).keys() == {1}
    assert dict(dict(attack.rows)[N]).keys() == {1, 2}
    assert move.cost(K, 1) == 1 and K not in dict(attack.rows) and K not in dict(summon.rows)
    assert attack.columns == tuple(range(1, 8))
    assert dict(dict(summon.rows)[P]).keys() == {0, 1, 2}  # second rank to the fourth


# --- capture chances, checked by a walk over every die --------------------------------------------

_VALUE = {P: 1, N: 3, BI: 3, R: 5, Q: 9}  # core §3


def _rule_threshold(attacker: Kind, target: Kind, bonus: int) -> int:
    """core §4.2, §4.4, §4.5 as the rulebook words them."""
    raw = 10 * _VALUE[attacker] if target is K else 20 + 10 * (_VALUE[attacker] - _VALUE[target])
    return max(5, min(95, raw + min(bonus, 25)))


def _walk(threshold: int, attacks: int, hits: int) -> tuple[Fraction, Fraction]:
    """Every face of two d10 on every attack, attack after attack, stopping at the capture or
    when the attacks left cannot make the hits still needed: (chance of capture, expected attacks).

    A run that stops after ``done`` attacks stands for ``100 ** (attacks - done)`` equally likely
    rolls of all the dice, so the counts stay integers until the end."""
    captured = made = 0

    def go(left: int, need: int, done: int) -> None:
        nonlocal captured, made
        if need == 0 or left < need:
            weight = 100 ** (attacks - done)
            made += weight * done
            captured += weight if need == 0 else 0
            return
        for tens, ones in itertools.product(range(10), range(10)):
            roll = tens * 10 + ones or 100
            go(left - 1, need - 1 if roll <= threshold else need, done + 1)

    go(attacks, hits, 0)
    return Fraction(captured, 100**attacks), Fraction(made, 100**attacks)


@pytest.mark.parametrize(
    ("question", "move", "attack", "attacks", "hits"),
    [
        (CaptureQuestion(R, P, 2, lp=28), 0, 12, 2, 1),
        (CaptureQuestion(R, P, 2, lp=20, sp=8), 0, 12, 2, 1),
        (CaptureQuestion(Q, R, 1, lp=57, damage_so_far=3), 0, 19, 3, 2),
        (CaptureQuestion(R, K, 2, lp=36, damage_so_far=18), 0, 12, 3, 2),
        (CaptureQuestion(R, N, 1, lp=33, bonus=10), 0, 11, 3, 3),
        (CaptureQuestion(N, P, 3, lp=20), 3, 8, 2, 1),  # must move one jump: 3 LP, then 8 a shot
        (CaptureQuestion(BI, N, 2, lp=30, damage_bonus=2), 0, 8, 3, 1),  # one hit of 3 captures
    ],
)
def test_capture_chance_matches_a_walk_over_every_die(
    question: CaptureQuestion, move: int, attack: int, attacks: int, hits: int
) -> None:
    odds = capture_odds(question)
    best = odds.best
    assert (best.move_cost, best.attack and best.attack.value, best.attacks, odds.hits_needed) == (
        move,
        attack,
        attacks,
        hits,
    )
    chance, made = _walk(_rule_threshold(question.attacker, question.target, question.bonus), attacks, hits)
    assert odds.probability == chance
    assert best.expected_spend == move + attack * made
    assert sum(share for _, share in best.spend) == 1


def test_minimal_spend_plan_prefers_not_moving_when_the_chance_is_equal() -> None:
    """Moving one square closer saves 1 a shot but costs 6: with two shots either way the
    guide's "minimal spend" plan stays put (Drill 1)."""
    odds = capture_odds(CaptureQuestion(R, P, 2, lp=28))
    assert [p.moved for p in odds.plans] == [0, 1]
    assert odds.plans[0].probability == odds.plans[1].probability == Fraction(21, 25)
    assert odds.best.moved == 0 and odds.best.expected_spend == Fraction(84, 5)


def test_moving_closer_wins_when_it_buys_an_attack() -> None:
    """A Queen 7 squares away with 72: two shots at 25, or move 6 squares (9 + 6 = 15) and take
    three shots at 19 (57); against a Pawn three shots beat two (core §3, §4.1)."""
    odds = capture_odds(CaptureQuestion(Q, P, 7, lp=72))
    assert odds.plans[0].attacks == 2
    assert (odds.best.moved, odds.best.move_cost, odds.best.attacks) == (6, 15, 3)
    assert odds.probability == 1 - Fraction(1, 20) ** 3 > odds.plans[0].probability


def test_hopeless_runs_stop_and_cost_nothing_more() -> None:
    """Three hits needed, one attack paid for: no plan captures, and the best spends nothing."""
    odds = capture_odds(CaptureQuestion(R, N, 2, lp=20))
    assert odds.probability == 0 and odds.best.expected_spend == 0 and odds.hits_needed == 3


def test_nothing_in_budget_or_reach_is_a_plan_of_doing_nothing() -> None:
    odds = capture_odds(CaptureQuestion(N, P, 6, lp=5))  # four jumps (12 LP) to come in reach
    assert odds.probability == 0 and odds.best.attack is None and odds.best.spend == ((0, Fraction(1)),)


def test_expected_spend_is_paid_from_sp_first_r05() -> None:
    best = capture_odds(CaptureQuestion(R, P, 2, lp=20, sp=8)).best
    # 3/5 of runs stop after one shot (12), 2/5 after two (24); SP pays first, 8 of either
    assert best.expected_from_sp(8) == 8
    assert best.expected_from_sp(20) == Fraction(3, 5) * 12 + Fraction(2, 5) * 20


@pytest.mark.parametrize("second", [SecondRoll.REROLL, SecondRoll.ADVANTAGE])
def test_second_roll_over_every_pair_of_rolls(second: SecondRoll) -> None:
    """core §4.5, R20: a reroll after a miss counts the new roll, advantage the lower one; both
    hit on 1 − (1 − p)² over all 10,000 pairs of rolls."""
    for threshold in (5, 40, 95):
        hits = 0
        for a, b, c, d in itertools.product(range(10), repeat=4):
            first, again = (a * 10 + b) or 100, (c * 10 + d) or 100
            counted = first if first <= threshold else (min(first, again) if second is SecondRoll.ADVANTAGE else again)
            hits += counted <= threshold
        assert hit_chance(threshold, second) == Fraction(hits, 10_000)
        assert hit_chance(threshold, second) == 1 - (1 - Fraction(threshold, 100)) ** 2


def test_odds_agree_with_the_engine_over_every_die() -> None:
    """Play the best plan through the engine for every pair of accuracy rolls: the captures and
    the LP spent are exactly what the odds say (replay and odds read the same rules)."""
    odds = capture_odds(CaptureQuestion(R, N, 1, lp=22, damage_so_far=1))  # 2 hits, 2 shots of 11
    assert (odds.best.attacks, odds.hits_needed, odds.best.moved) == (2, 2, 0)
    start = position("Ra3 nb3 Ke1 ke8", phase=Phase.BATTLE, lp=22)
    start = start.with_turn(start.turn.with_damage(((sq("b3"), 1),)))  # a first hit, earlier this turn
    captured = spent = Fraction(0)
    faces = list(itertools.product(range(10), range(10)))
    for rolls in itertools.product(faces, faces):
        state = start
        for roll in rolls:
            applied = ok(state, Attack(sq("a3"), sq("b3"), roll))
            state = applied.state
            if not applied.effects.hit:
                break  # one shot left, two hits needed: the plan stops here
        captured += Fraction(state.board[sq("b3")] is None, len(faces) ** 2)
        spent += Fraction(22 - state.players[0].lp, len(faces) ** 2)
    assert odds.probability == captured == Fraction(4, 25)
    assert odds.best.expected_spend == spent == 11 + Fraction(2, 5) * 11


# --- bad questions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "field"),
    [
        (CaptureQuestion(K, P, 1, lp=10), "attacker"),
        (CaptureQuestion(R, P, 8, lp=10), "distance"),
        (CaptureQuestion(R, P, 0, lp=10), "distance"),
        (CaptureQuestion(P, P, 2, lp=10), "distance"),
        (CaptureQuestion(N, P, 7, lp=10), "distance"),
        (CaptureQuestion(R, P, 2, lp=-1), "lp"),
        (CaptureQuestion(R, P, 2, lp=1, sp=MAX_BUDGET + 1), "sp"),
        (CaptureQuestion(R, N, 2, lp=10, damage_so_far=3), "damage_so_far"),
        (CaptureQuestion(R, K, 2, lp=10, damage_so_far=20), "damage_so_far"),
        (CaptureQuestion(R, P, 2, lp=10, bonus=-101), "bonus"),
        (CaptureQuestion(R, P, 2, lp=10, damage_bonus=-1), "damage_bonus"),
    ],
)
def test_questions_the_rules_cannot_ask(question: CaptureQuestion, field: str) -> None:
    with pytest.raises(OddsError) as raised:
        capture_odds(question)
    assert raised.value.field == field


def test_knights_are_at_most_six_jumps_apart() -> None:
    assert farthest(N) == 6 and farthest(P) == 1 and farthest(R) == 7


# --- properties -----------------------------------------------------------------------------------


@st.composite
def questions(draw: st.DrawFn) -> CaptureQuestion:
    attacker = draw(st.sampled_from(ATTACKERS))
    target = draw(st.sampled_from(DEFENDERS))
    whole = 20 if target is K else _VALUE[target]
    return CaptureQuestion(
        attacker,
        target,
        draw(st.integers(1, farthest(attacker))),
        lp=draw(st.integers(0, 80)),
        sp=draw(st.integers(0, 20)),
        damage_so_far=draw(st.integers(0, whole - 1)),
        bonus=draw(st.integers(-40, 40)),
        damage_bonus=draw(st.integers(0, 3)),
        second_roll=draw(st.sampled_from(SecondRoll)),
    )


@settings(max_examples=80, deadline=None)
@given(questions(), st.integers(0, 40), st.integers(0, 30))
def test_chance_is_a_probability_and_more_never_hurts(q: CaptureQuestion, more_lp: int, more_bonus: int) -> None:
    from dataclasses import replace

    odds = capture_odds(q)
    assert 0 <= odds.probability <= 1
    assert 0 <= odds.best.expected_spend <= odds.best.most_spend <= q.budget
    assert capture_odds(replace(q, lp=q.lp + more_lp)).probability >= odds.probability
    assert capture_odds(replace(q, sp=q.sp + more_lp)).probability >= odds.probability
    if q.bonus + more_bonus <= 100:
        assert capture_odds(replace(q, bonus=q.bonus + more_bonus)).probability >= odds.probability
    assert capture_odds(replace(q, damage_bonus=min(q.damage_bonus + 1, 9))).probability >= odds.probability


@settings(max_examples=40, deadline=None)
@given(questions())
def test_same_question_same_answer(q: CaptureQuestion) -> None:
    assert capture_odds(q) == capture_odds(q)
    assert all(p.probability <= capture_odds(q).probability for p in capture_odds(q).plans)
