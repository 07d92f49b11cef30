"""Pack-level analyses: cap stacking (core §4.5, R17), trigger cycles and growth (core §8), and their cost."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from hypothesis import given, settings
from hypothesis import strategies as st

import sgcheck.contract as contract_package
from sgcheck.config import Config
from sgcheck.contract import check_paths
from sgcheck.contract.analysis import triggers
from sgcheck.contract.analysis.graph import shortest_cycle, strongly_connected
from sgcheck.contract.analysis.growth import feedback_loops
from sgcheck.contract.analysis.stacking import worst_stack
from sgcheck.contract.analysis.triggers import trigger_cycles
from sgcheck.contract.context import CheckContext
from sgcheck.core.cards import model as A
from sgcheck.diagnostics import Span
from sgcheck.lang.cards.parser import parse_cards

SPAN = Span.point("t")


def cards(text: str) -> tuple[A.Card, ...]:
    parsed = parse_cards(text, "t.sgcard")
    assert not parsed.diagnostics
    return parsed.cards


def bonus_card(name: str, value: int, activated: bool) -> A.Card:
    mode = A.Mode.ACTIVATED if activated else A.Mode.PASSIVE
    effect = A.Effect(A.ToHitModifier(value, A.Side.OWN, SPAN), SPAN)
    return A.Card(A.CardKind.RELIC, name, mode, SPAN, SPAN, effects=(effect,))


def single_scenario(card: A.Card) -> dict[int, tuple[int, A.Effect]]:
    effect = card.effects[0]
    assert isinstance(effect.action, A.ToHitModifier)
    return {0: (effect.action.delta, effect)}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 24), st.booleans()), max_size=7), st.integers(1, 40))
def test_stacking_matches_brute_force(spec: list[tuple[int, bool]], cap: int) -> None:
    """core §4.5 with R17: the greedy minimal set is as small as the best subset with <= 2 activated cards."""
    pack = [bonus_card(f"c{i}", value, activated) for i, (value, activated) in enumerate(spec)]
    eligible = [c for c in pack if single_scenario(c)[0][0] <= cap]
    best_size, best_reach = None, 0
    for size in range(len(eligible) + 1):
        for subset in itertools.combinations(eligible, size):
            if sum(c.mode is A.Mode.ACTIVATED for c in subset) > 2:
                continue
            total = sum(single_scenario(c)[0][0] for c in subset)
            best_reach = max(best_reach, total)
            if total > cap and (best_size is None or size < best_size):
                best_size = size
    found = worst_stack(pack, single_scenario, cap, CheckContext())
    if best_size is None:
        assert found is None
    else:
        assert found is not None
        assert len(found.minimal) == best_size and found.minimal_total > cap
        assert found.reachable == best_reach
        assert sum(c.card.mode is A.Mode.ACTIVATED for c in found.minimal) <= 2


def test_hand_limit_and_activations_bound_spells() -> None:
    """R17/R19: three +10 spells cannot all land on one attack."""
    pack = cards("".join(f'spell "S{i}" {{ cost 1 SP effect to_hit +10 }}\n' for i in range(3)))

    def profile(card: A.Card) -> dict[int, tuple[int, A.Effect]]:
        return {0: (10, card.effects[0])}

    assert worst_stack(pack, profile, 25, CheckContext()) is None
    assert worst_stack(pack, profile, 25, CheckContext(activations=3)) is not None


def test_trigger_cycle_chain_and_boundedness() -> None:
    """core §8: a free chain is infinite; a chain with a limited step is bounded."""
    free = cards(
        'relic "A" { cost 1 SP effect on capture: gain 2 LP }\n'
        'relic "B" { cost 1 SP effect on gain LP: deal 1 damage to enemy Pawn }\n'
    )
    (cycle,) = trigger_cycles(free)
    assert cycle.infinite and {c.name for c in cycle.cards} == {"A", "B"}
    assert cycle.chain().count("->") == 2
    bounded = cards(
        'relic "A" { cost 1 SP effect on capture: gain 2 LP limit once per turn }\n'
        'relic "B" { cost 1 SP effect on gain LP: deal 1 damage to enemy Pawn }\n'
    )
    (cycle,) = trigger_cycles(bounded)
    assert not cycle.infinite
    assert [s.bounded for s in cycle.steps].count(True) == 1


def test_a_chain_needing_one_card_in_both_hands_is_not_a_cycle() -> None:
    lonely = cards('relic "Spite" { cost 1 SP effect on captured: deal 1 damage to enemy Pawn }\n')
    assert trigger_cycles(lonely) == []


def test_growth_loops_need_distinct_cards_per_hand() -> None:
    pair = cards(
        'relic "L" passive { cost 1 SP effect at end: gain LP equal to own SP }\n'
        'relic "S" passive { cost 1 SP effect at upkeep: gain SP equal to own LP }\n'
    )
    assert any({link.card.name for link in loop} == {"L", "S"} for loop in feedback_loops(pair))
    envy = cards('relic "Envy" passive { cost 1 SP effect at upkeep: gain SP equal to enemy SP }\n')
    assert feedback_loops(envy) == []  # would need the card in both hands


def test_growth_loops_need_gains_that_come_again() -> None:
    """Ruling CR3 (core §8): a Spell, a passive Relic's own effect and an effect limited per game act a
    bounded number of times, a condition holding a pool below a level stops the gains there, and a card
    that takes from its own loop again and again may keep it down: none of them is a loop."""
    spells = cards(
        'spell "L" { cost 1 SP effect gain LP equal to own SP }\n'
        'spell "S" { cost 1 SP effect gain SP equal to own LP }\n'
    )
    assert feedback_loops(spells) == []
    once = cards('relic "Once" activated { cost 1 SP phase main1 effect gain SP equal to own SP limit 1 per game }\n')
    assert feedback_loops(once) == []
    played = cards('relic "Played" passive { cost 1 SP effect gain SP equal to own SP }\n')
    assert feedback_loops(played) == []
    capped = cards('relic "Capped" passive { cost 1 SP effect at upkeep: gain SP equal to own SP when own SP < 20 }\n')
    assert feedback_loops(capped) == []
    ebb = cards(
        'relic "Ebb" passive { cost 1 SP effect at upkeep: gain SP equal to own SP / 2 '
        "effect at end: lose SP equal to own SP }\n"
    )
    assert feedback_loops(ebb) == []
    # the same gains, coming again without a bound per game, are loops
    each_turn = cards(
        'relic "Each" activated { cost 1 SP phase main1 effect gain SP equal to own SP limit 1 per turn }\n'
    )
    assert len(feedback_loops(each_turn)) == 1
    rising = cards('relic "Rising" passive { cost 1 SP effect at upkeep: gain SP equal to own SP when own SP > 20 }\n')
    assert len(feedback_loops(rising)) == 1


def test_graph_helpers() -> None:
    adjacency = [[1], [2], [0, 3], [3], []]
    components = sorted(sorted(c) for c in strongly_connected(adjacency))
    assert components == [[0, 1, 2], [3], [4]]
    assert shortest_cycle(0, {0, 1, 2}, adjacency) == [0, 1, 2]
    assert shortest_cycle(3, {3}, adjacency) == [3]


ANALYSIS_SOURCES = os.path.join(Path(triggers.__file__).parent, "")  # with a trailing separator
CONTRACT_SOURCES = os.path.join(Path(contract_package.__file__).parent, "")


def _chain_pack(count: int) -> tuple[A.Card, ...]:
    """``count`` times two relics that all feed one another (one large trigger component) and
    two relics that feed each other's amounts at each turn (a growth loop)."""
    return cards(
        "".join(
            f'relic "P{i}" {{ cost 1 SP effect on gain SP: gain 1 LP limit once per turn }}\n'
            f'relic "Q{i}" {{ cost 1 SP effect on gain LP: gain 1 SP limit once per turn effect to_hit +1 }}\n'
            f'relic "L{i}" passive {{ cost 1 SP effect at end: gain LP equal to own SP }}\n'
            f'relic "S{i}" passive {{ cost 1 SP effect at upkeep: gain SP equal to own LP }}\n'
            for i in range(count)
        )
    )


def _lines_executed(work: Callable[[], object], under: str) -> int:
    """How many lines of code under the folder ``under`` run while ``work`` runs.

    A deterministic measure of work (a line inside a loop counts once per iteration), unlike
    a stopwatch, so the result does not depend on how busy the machine is.
    """
    executed = 0

    def count_lines(frame: FrameType, event: str, arg: object) -> Callable[..., object]:
        nonlocal executed
        if event == "line":
            executed += 1
        return count_lines

    def enter(frame: FrameType, event: str, arg: object) -> Callable[..., object] | None:
        return count_lines if frame.f_code.co_filename.startswith(under) else None

    previous = sys.gettrace()
    sys.settrace(enter)
    try:
        work()
    finally:
        sys.settrace(previous)
    return executed


def _analyses_work(count: int) -> int:
    pack = _chain_pack(count)

    def profile(card: A.Card) -> dict[int, tuple[int, A.Effect]]:
        return {i: (1, card.effects[-1]) for i in range(36)}

    def analyse() -> None:
        assert trigger_cycles(pack), "the pack is built to contain a trigger cycle"
        assert worst_stack(pack, profile, 25, CheckContext()) is not None
        assert feedback_loops(pack), "the pack is built to contain a growth loop"

    return _lines_executed(analyse, ANALYSIS_SOURCES)


def test_pack_analyses_are_not_quadratic() -> None:
    """The pack analyses stay near-linear in the cards (docs/architecture.md): ten times the cards
    may cost at most twelve times the work. Work is counted (lines of the analyses executed), never
    timed, so the test gives the same answer on a busy machine. Every card produces and awaits the
    same events, the case where connecting effects to effects directly would be quadratic."""
    small, large = _analyses_work(100), _analyses_work(1000)
    assert small > 0
    assert large <= 12 * small, (small, large, large / small)


def test_checking_a_pack_is_not_quadratic(tmp_path: Path) -> None:
    """Checking a pack (every contract rule and pack analysis, through the library entry point)
    costs work linear in its cards: ten times the cards, at most twelve times the lines of the
    contract checker executed. Counted, never timed."""

    def work(count: int) -> int:
        folder = tmp_path / f"pack{count}"
        folder.mkdir()
        (folder / "cards.sgcard").write_text(
            "".join(
                f'relic "P{i}" {{ cost 1 SP effect on gain SP: gain 1 LP limit once per turn }}\n'
                f'relic "Q{i}" {{ cost 1 SP effect on gain LP: gain 1 SP limit once per turn effect to_hit +1 }}\n'
                for i in range(count)
            ),
            encoding="utf-8",
        )
        (folder / "sgpack.yaml").write_text(
            "name: chain\nversion: 1.0.0\nruleset: core\ncards:\n  - cards.sgcard\n", encoding="utf-8"
        )
        findings: list[str] = []

        def check() -> None:
            findings.extend(d.code for d in check_paths([str(folder)], Config()).diagnostics)

        executed = _lines_executed(check, CONTRACT_SOURCES)
        assert "SG-C102" in findings, findings  # the chain is found: the work was really done
        return executed

    small, large = work(100), work(1000)
    assert large <= 12 * small, (small, large, large / small)
