"""Packs that check clean never break core §8 in play (the checker and replay's watch agree).

Packs of one to three random cards (tests/cardgen.py, the whole card language) that
``sgcheck check`` reports no error on (nor several cards past a cap together, the R20 warning,
which a player may choose to bring about) are dealt to both players and played in generated games
(random and aggressive policies, both players playing their cards); every action goes through
the watch replay keeps (``sgcheck.core.watch.observe``, SG-R130-SG-R139). None may trip it: what
the checker passes, a game cannot break. A failure prints the pack and the game.
"""

from __future__ import annotations

import io
import random

from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st

from sgcheck.config import Config
from sgcheck.contract.checker import check_plan, plan_check
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied
from sgcheck.core.squares import parse_square
from sgcheck.core.state import initial_state
from sgcheck.core.watch import START, observe
from sgcheck.diagnostics import Severity
from sgcheck.replay.generate import Style, choose
from tests.cardgen import card_sources

GAMES = 4
TURNS = 24


@st.composite
def packs(draw: st.DrawFn) -> str:
    sources = draw(st.lists(card_sources(), min_size=1, max_size=3))
    # distinct names, so the cards form a pack (SG-C140 otherwise)
    return "\n".join(src.replace('"', f'"P{i} ', 1) for i, src in enumerate(sources))


#: The warnings that name what a player can bring about in a game: several cards past a per-attack
#: cap on one attack (R20). The checker warns of them (the player chooses to bring the cards
#: together); replay reports a second reroll source on one roll when it happens (SG-R132).
TOGETHER = frozenset({"SG-C120", "SG-C153"})


def clean_cards(source: str) -> tuple[object, ...] | None:
    """The pack's cards if ``sgcheck check`` reports no error on it, nor a cap passed together."""
    config = Config()
    job = plan_check(["-"], config, stdin_name="pack.sgcard")
    (plan,) = job.plans
    checked = check_plan(plan, config, io.BytesIO(source.encode("utf-8")))
    found = [d for r in checked.results for d in r.diagnostics]
    refused = [d for d in found if d.severity is Severity.ERROR or d.code in TOGETHER]
    return None if refused or not checked.cards else checked.cards


#: Found by this test: one player's advantage on enemy Knight attacks and the other player's own
#: reroll on one accuracy roll (SG-R132, "together"); the checker warns of it (SG-C120, core §4.5).
ENEMY_ADVANTAGE_AND_OWN_REROLL = """relic "P0 Ember" {
    phase upkeep
    cost 0
    effect advantage accuracy 2 times on enemy attacks when attacker is Knight
    effect capture own rooks when target is Knight or rooks
    effect to_hit 12
}

relic "P1 Hawk Sight" {
    cost 1 sp
    phase main1
    effect reroll accuracy
}
"""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(packs(), st.integers(0, 2**32 - 1))
@example(ENEMY_ADVANTAGE_AND_OWN_REROLL, 2221)
def test_a_clean_pack_never_trips_the_watch(source: str, seed: int) -> None:
    """core §8: no exchange past 2:1 or 20 SP a turn, no cost below 0, one reroll source, no repair
    lock, no cheap repeated attempts, no King damage outside attacks, no growth within a turn."""
    cards = clean_cards(source)
    if cards is None:
        return
    names = tuple(card.name for card in cards)  # type: ignore[attr-defined]
    note(source)
    rng = random.Random(seed)
    for game in range(GAMES):
        style = Style.AGGRESSIVE if game % 2 else Style.RANDOM
        state = initial_state(parse_square("e1"), parse_square("e8"))
        state = state.replace(cards=new_cards(CardsByName(cards), names, names))  # type: ignore[arg-type]
        watch = START
        played = []
        while state.result is None and state.turn_number <= TURNS:
            action = choose(state, style, rng)
            if action is None:
                break
            step = apply(state, action)
            assert isinstance(step, Applied), (action, step)
            played.append(action)
            watch, breaches = observe(watch, state, action, step)
            assert not breaches, f"game {game}, {style}: {breaches[0].diagnostic.message}\n{played[-12:]}"
            state = step.state


def test_the_found_pack_is_refused_for_its_cards_together() -> None:
    """The pack of the example above is not clean: one attack meets both players' sources (core §4.5, R20)."""
    assert clean_cards(ENEMY_ADVANTAGE_AND_OWN_REROLL) is None
