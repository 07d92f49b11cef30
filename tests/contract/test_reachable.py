"""Conditions decided by what a game can reach, and witness games steered to them (core §8).

A condition is judged by whether some game makes it true, not by whether a probe position happens
to: `own LP < 5` is reachable (LP fall as prices are paid, R05), `enemy LP < 0` is not, no attack
spans 9 squares, a King is never captured (core §4.4), the start of a phase tells no attacker.
Copies of an effect under a reachable condition count as able to fire, so the accumulation over
the whole game is decided with the condition true, and the witness search steers a game to it;
replay, not the checker, judges every proof here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sgcheck.contract.analysis import reachable
from sgcheck.contract.analysis.explore import BOUNDS, _aims, _at, _breaks, _growing, _Search, explore
from sgcheck.contract.analysis.probes import PROBES, start
from sgcheck.core.actions import Attack
from sgcheck.core.cards import catalog
from sgcheck.core.cards import model as A
from sgcheck.core.cards.semantics import holds
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE
from sgcheck.core.state import PlayerState
from sgcheck.diagnostics import Severity
from tests.contract.test_explore import assert_replays_to, cards_of, proofs, replayed

CORPUS = Path(__file__).resolve().parent / "corpus"


def _effect(words: str) -> A.Effect:
    (card,) = cards_of(f'relic "Probe" passive {{\n    cost 1 SP\n    effect {words}\n}}\n')
    assert isinstance(card, A.Card)
    (effect,) = card.effects
    return effect


def test_every_predicate_of_the_catalogue_has_a_reading_over_the_game() -> None:
    """docs/cards.md, Conditions: each predicate says whether it reads the position or the action,
    and how a witness game brings it about; none is left out."""
    assert {k.predicate for k in reachable.KINDS} == {p.predicate for p in catalog.PREDICATES}
    assert all(k.steered for k in reachable.KINDS)


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        # resources (core §2, §7, R05): LP 0 to 999, SP from 0
        ("on captured: to_hit +10 permanently when own LP < 5", True),
        ("on captured: to_hit +10 permanently when enemy LP < 0", False),
        ("to_hit +10 when own LP >= 1000", False),
        ("to_hit +10 when own SP >= 500", True),
        ("to_hit +10 when enemy SP < 0", False),
        ("to_hit +10 when own LP > 10 and own LP < 5", False),
        # distance (core §3): 1 to 7 squares, a Pawn attacks at 1
        ("on hit: to_hit +10 permanently when distance >= 5", True),
        ("on hit: to_hit +10 permanently when distance >= 9", False),
        ("to_hit +10 when attacker is Pawn and distance >= 2", False),
        # piece kinds (core §4.4): a King is attacked, never captured
        ("on hit: to_hit +10 permanently when target is King", True),
        ("on capture: to_hit +10 permanently when target is King", False),
        ("on captured: to_hit +10 permanently when target is King", False),
        ("on capture: cost attack -2 permanently when target is Knight", True),
        # camps
        ("on hit: to_hit +5 permanently when attacker in enemy camp", True),
        ("to_hit +5 when attacker in enemy camp and attacker in own camp", False),
        # Gems (core §6)
        ("on capture: damage +1 permanently when enemy gem is broken", True),
        ("to_hit +5 when own gem is broken and own gem intact", False),
        # what an event tells (R23): the start of a phase no attack, a move no target
        ("at upkeep: to_hit +10 permanently when attacker is Queen", False),
        ("at upkeep: to_hit +10 permanently when own SP >= 30", True),
        ("on move: to_hit +10 permanently when target is Pawn", False),
        ("on move: to_hit +10 permanently when distance >= 2", True),
    ],
)
def test_a_condition_is_reachable_when_some_game_makes_it_true(words: str, expected: bool) -> None:
    """core §8: the checker's reading of each condition kind over a whole game."""
    why = reachable.unreachable(_effect(words))
    assert (why is None) is expected, why


def test_the_position_a_condition_needs_is_brought_about_within_the_core_values() -> None:
    """core §2, R05: `own LP < 5` is met at 4 LP, the nearest level to the position; `enemy gem is
    broken` breaks the opponent's Gem (core §6); nothing else of the position changes."""
    state = start(PROBES[0], (), ((), ()))
    low = _effect("to_hit +10 when own LP < 5").condition
    assert reachable.gap(state, Color.WHITE, low) == state.players[Color.WHITE].lp - 4
    brought = reachable.brought_about(state, Color.WHITE, low)
    assert brought is not None and brought.players[Color.WHITE].lp == 4
    assert brought.players[Color.BLACK] == state.players[Color.BLACK]
    assert reachable.gap(brought, Color.WHITE, low) == 0
    broken = _effect("to_hit +10 when enemy gem is broken").condition
    shattered = reachable.brought_about(state, Color.WHITE, broken)
    assert shattered is not None and shattered.players[Color.BLACK].gem_broken
    assert reachable.gap(shattered, Color.WHITE, broken) == 0 < reachable.gap(state, Color.WHITE, broken)


_CMPS = list(A.Cmp)


@given(
    side=st.sampled_from(list(A.Side)),
    resource=st.sampled_from(list(A.Resource)),
    cmp=st.sampled_from(_CMPS),
    value=st.integers(min_value=0, max_value=1100),
    have=st.integers(min_value=0, max_value=999),
)
def test_a_resource_condition_is_reachable_exactly_when_a_value_a_game_holds_meets_it(
    side: A.Side, resource: A.Resource, cmp: A.Cmp, value: int, have: int
) -> None:
    """core §2, §7: against a brute force over every LP a game in progress can hold (0-999) and SP up
    to past the level, the engine's own reading (`holds`) deciding: reachable exactly when one
    value meets it, and the position brought about meets it."""
    effect = _effect(f"to_hit +5 when {side} {resource} {cmp} {value}")
    condition = effect.condition
    assert condition is not None
    top = 999 if resource is A.Resource.LP else value + 2
    state = start(PROBES[0], (), ((), ()))
    owner = Color.WHITE
    color = owner if side is A.Side.OWN else owner.other
    player = state.players[color]
    state = state.with_player(color, player.with_funds(have, player.sp) if resource is A.Resource.LP else player)
    oracle = any(
        holds(condition, owner, state.with_player(color, _with(state.players[color], resource, v)), None)
        for v in range(top + 1)
    )
    assert (reachable.unreachable(effect) is None) is oracle
    brought = reachable.brought_about(state, owner, condition)
    assert (brought is not None) is oracle
    if brought is not None:
        assert holds(condition, owner, brought, None)


def _with(player: PlayerState, resource: A.Resource, value: int) -> PlayerState:
    return player.with_funds(value, player.sp) if resource is A.Resource.LP else player.with_funds(player.lp, value)


def _proof_replays(name: str, tmp_path: Path) -> None:
    ((kind, log),) = proofs(CORPUS / name, tmp_path / "proofs")
    assert kind == "cap"
    assert_replays_to(kind, log)
    assert "SG-R137" in {d.code for d in replayed(log)}  # copies of one card past the cap, seen by replay


def test_copies_under_a_low_lp_condition_are_an_error_with_a_game_at_that_lp(tmp_path: Path) -> None:
    """core §4.5, §8, R05, R20: `on captured: to_hit +10 permanently when own LP < 5`. The holder's LP
    fall as it pays its prices from LP; three captures at under 5 LP, then an attack with +30.
    The game, played again with the engine alone, has the holder under 5 LP at that attack."""
    text = (CORPUS / "222-last-stand.sgcard").read_text()
    cards = cards_of(text)
    (found,) = explore(cards).findings
    assert found.severity is Severity.ERROR and not found.projected and found.what == "to-hit"
    state = start(found.probe, tuple(cards), found.hands)  # type: ignore[arg-type]
    for action in found.path:
        before = state
        step = apply(state, action)
        assert isinstance(step, Applied), action
        state = step.state
    assert isinstance(action, Attack) and before.to_move is Color.WHITE
    assert before.players[Color.WHITE].lp < 5
    assert step.effects.cards is not None and step.effects.cards.raw_to_hit >= 30
    _proof_replays("222-last-stand.sgcard", tmp_path)


@pytest.mark.parametrize(
    "name",
    [
        "223-regicide-lust.sgcard",  # hits on the King: the witness attacks the King (core §4.4)
        "224-long-grudge.sgcard",  # captures at distance 5 or more, then a long attack
        "225-shattered-fury.sgcard",  # the enemy Gem broken by a Break (core §6), then captures
        "226-envy-of-the-rich.sgcard",  # attacked while the opponent holds 30 SP or more
        "229-raid-momentum.sgcard",  # hits from the enemy camp
        "029-raiders-lenses.sgcard",  # an attacker in its enemy camp on a target in its own
    ],
)
def test_the_witness_steers_to_the_condition_and_the_proof_replays(name: str, tmp_path: Path) -> None:
    """core §8, R20, R23: each condition kind is brought about in a directed game; the break is an
    error whose proof `sgcheck replay --allow-violations` plays to the clamp at the named line."""
    ((kind, log),) = proofs(CORPUS / name, tmp_path / "proofs")
    assert kind == "cap"
    assert_replays_to(kind, log)


def test_the_decision_sweeps_the_position_the_condition_needs() -> None:
    """core §8: with `Last Stand` in play from the open field (60 LP), the copies as many as a game
    allows break nothing in the position as played, since no copy acts above 5 LP; the decision
    also sweeps the position the condition needs (White at 4 LP, which prices paid from LP reach),
    and there they pass the +25 cap (core §4.5): the design is never clean, whatever the witness
    game finds (a warning at least, `test_corpus` 228 for one no game reaches)."""
    cards = tuple(c for c in cards_of((CORPUS / "222-last-stand.sgcard").read_text()) if isinstance(c, A.Card))
    search = _Search(PROBES[0], cards, (("Last Stand",), ()), CORE, BOUNDS, {}, set())
    node = search.opening("Last Stand")
    assert node is not None and node.state.cards is not None
    growing = _growing(node.state.cards)
    assert [g.card for g in growing] == ["Last Stand"]
    most = _Search._with_copies(node.state, growing, None)
    assert not [key for key in _breaks(most) if key[0] == "cap"]
    aims = [aim for aim in _aims(node.state, growing) if aim is not None]
    assert aims and aims[0][0] is Color.WHITE
    brought = _at(most, aims[0])
    assert brought.players[Color.WHITE].lp == 4
    assert [key for key in _breaks(brought) if key[0] == "cap"]


@pytest.mark.parametrize(
    "words",
    [
        "on captured: to_hit +10 permanently when enemy LP < 0",
        "on hit: to_hit +10 permanently when distance >= 9",
        "on capture: to_hit +10 permanently when target is King",
        "at upkeep: to_hit +10 permanently when attacker is Queen",
    ],
)
def test_copies_under_a_condition_no_game_meets_never_come(words: str) -> None:
    """core §8: no copy of an effect whose trigger never fires: nothing found in play."""
    text = f'relic "Never" passive {{\n    cost 4 SP\n    effect {words}\n}}\n'
    assert explore(cards_of(text)).findings == []


def test_a_limit_bounds_copies_under_a_reachable_condition() -> None:
    """core §4.5, R23: two copies at most, +20, inside the cap, decided for every game."""
    cards = cards_of((CORPUS / "234-last-stand-pledge.sgcard").read_text())
    assert explore(cards).findings == []
