"""The contract's facts read the core's one table of each rule fact and put it in words.

When an effect fires is the phase window of the action its event follows (``core/windows.py``,
core §2, R03, R23); how far a piece reaches is the core's geometry (``core/geometry.py``, core §3,
R06-R09). The words the contract rules print are worked out from them, never written again.
"""

from __future__ import annotations

import pytest

from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts.conditions import impossible_reason
from sgcheck.contract.facts.timing import effect_timing, phase_words
from sgcheck.core.cards import model as A
from sgcheck.core.geometry import attack_distances, longest_distance, move_distances
from sgcheck.core.pieces import Kind
from sgcheck.core.ruleset import parse_ruleset
from sgcheck.core.windows import EVENT_WINDOWS
from sgcheck.lang.cards.parser import parse_cards


def card(source: str) -> A.Card:
    parsed = parse_cards(source, "probe.sgcard")
    assert not parsed.diagnostics, parsed.diagnostics
    (only,) = parsed.cards
    return only


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ("hit", "fires on hit (attacks are made in Battle)"),
        ("miss", "fires on miss (attacks are made in Battle)"),
        ("capture", "fires on capture (captures happen in Battle)"),
        ("move", "fires on move (moves are made in the Main phases)"),
        ("summon", "fires on summon (Summons are made in Upkeep)"),
        ("teleport", "fires on teleport (Teleports are made at End)"),
    ],
)
def test_a_trigger_fires_in_the_window_of_its_event_r23(event: str, words: str) -> None:
    """core §2, R03, R23: a trigger on an action's event fires in that action's window."""
    probe = card(f'relic "R" passive {{ cost 1 SP effect on {event}: gain 1 SP }}')
    timing = effect_timing(probe, probe.effects[0])
    assert timing is not None
    assert timing.phases == EVENT_WINDOWS[A.Event(event)]
    assert timing.words == words


@pytest.mark.parametrize("event", ["gain SP", "lose LP", "attacked", "captured"])
def test_events_of_any_phase_or_of_the_opponents_turn_have_no_timing(event: str) -> None:
    probe = card(f'relic "R" passive {{ cost 1 SP effect on {event}: gain 1 LP }}')
    assert effect_timing(probe, probe.effects[0]) is None


def test_a_card_without_a_phase_is_used_in_a_main_phase_r22() -> None:
    probe = card('relic "R" activated { cost 1 SP effect gain 1 SP }')
    timing = effect_timing(probe, probe.effects[0])
    assert timing is not None and timing.words == "is used in Main 1 or Main 2"
    assert phase_words(timing.phases) == "Main 1 or Main 2"


@pytest.mark.parametrize("kind", [Kind.PAWN, Kind.KNIGHT, Kind.KING])
def test_a_distance_past_a_pieces_reach_is_the_geometrys_r08(kind: Kind) -> None:
    """R08 (attacks), core §3 (moves): the reach in the message is the core's geometry (the King
    attacking under the king_value table choice, R09)."""
    ctx = CheckContext(ruleset=parse_ruleset("king_value=3"))
    attack = card(f'spell "A" {{ cost 1 SP effect to_hit +5 when attacker is {kind.title} and distance >= 3 }}')
    reach = attack_distances(kind)[-1]
    said = f"a {kind.title} can attack at most {reach} square(s), never 3 or more"
    assert impossible_reason(attack.effects[0], ctx) == said
    move = card(f'spell "M" {{ cost 1 SP effect on move: gain 1 SP when attacker is {kind.title} and distance >= 3 }}')
    reach = move_distances(kind)[-1]
    said = f"a {kind.title} can move at most {reach} square(s), never 3 or more"
    assert impossible_reason(move.effects[0], ctx) == said


def test_distances_run_across_the_board() -> None:
    probe = card('spell "Far" { cost 2 SP effect to_hit +5 when distance > 9 }')
    said = f"no distance satisfies it (distances run from 1 to {longest_distance()} squares)"
    assert (
        impossible_reason(probe.effects[0], CheckContext())
        == said
        == ("no distance satisfies it (distances run from 1 to 7 squares)")
    )
