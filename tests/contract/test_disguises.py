"""What cards do, whatever they are called: conversions (SG-C022), the turn's order (SG-C050),
income (SG-C004) and bonuses that add up with themselves (SG-C010-SG-C012).

The facts behind those findings are computed once and read from the same semantics as replay:
the resources an effect moves (``core/cards/exchange.py``) are what replay moves when the card
is played, used or fires (core §2, R05, R16, R22, R23); the copies of a bonus the contract
counts are the copies replay keeps, and replay clamps their sum at the cap (R17, R20, R23).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sgcheck.config import Config
from sgcheck.contract import analysis, check_paths, code_catalogue
from sgcheck.contract.analysis.conversion import (
    Breach,
    alone,
    card_shares,
    combinations_of,
)
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts import pack_facts
from sgcheck.contract.facts.income import exchange_acts
from sgcheck.contract.facts.repeats import repeats
from sgcheck.contract.facts.timing import extra_grants
from sgcheck.contract.registry import rules_by_code
from sgcheck.core import caps
from sgcheck.core.actions import Activate, Attack, EnterPhase, Play
from sgcheck.core.cards import model as A
from sgcheck.core.cards.exchange import (
    MOST_COUNTED,
    PLAYED,
    USED,
    Window,
    WindowKind,
    amount_of,
    card_windows,
    cost_moves,
    effect_moves,
    effect_windows,
    per_turn,
)
from sgcheck.core.cards.table import new_cards
from sgcheck.core.pieces import Color, Phase
from sgcheck.diagnostics import Severity
from sgcheck.lang.cards.parser import parse_cards
from tests.contract.test_analyses import _lines_executed
from tests.core.helpers import cards_by_name, end_turn, ok, position, sq

W = Color.WHITE
CTX = CheckContext()


def card(source: str) -> A.Card:
    parsed = parse_cards(source, "probe.sgcard")
    assert not parsed.diagnostics, parsed.diagnostics
    (only,) = parsed.cards
    return only


def deck(source: str) -> tuple[A.Card, ...]:
    parsed = parse_cards(source, "probe.sgcard")
    assert not parsed.diagnostics, parsed.diagnostics
    return parsed.cards


def signed(moves: Any, side: A.Side = A.Side.OWN) -> dict[A.Resource, int]:
    """The net change of fixed moves, per resource, for ``side``."""
    net = {A.Resource.SP: 0, A.Resource.LP: 0}
    for move in moves:
        if move.side is side:
            assert move.amount.fixed
            net[move.resource] += move.amount.least if move.gain else -move.amount.least
    return net


# --- the resources an effect moves, and when (core/cards/exchange.py) -------------------------------


@pytest.mark.parametrize(
    ("text", "own", "enemy"),
    [
        ("gain 3 LP", {A.Resource.LP: 3, A.Resource.SP: 0}, {A.Resource.LP: 0, A.Resource.SP: 0}),
        ("lose 20 SP", {A.Resource.LP: 0, A.Resource.SP: -20}, {A.Resource.LP: 0, A.Resource.SP: 0}),
        ("opponent loses 4 LP", {A.Resource.LP: 0, A.Resource.SP: 0}, {A.Resource.LP: -4, A.Resource.SP: 0}),
        ("steal 5 SP", {A.Resource.LP: 0, A.Resource.SP: 5}, {A.Resource.LP: 0, A.Resource.SP: -5}),
        ("convert 4 SP to 2 LP", {A.Resource.LP: 2, A.Resource.SP: -4}, {A.Resource.LP: 0, A.Resource.SP: 0}),
        ("on capture pay 2 SP: gain 1 LP", {A.Resource.LP: 1, A.Resource.SP: -2}, {A.Resource.LP: 0, A.Resource.SP: 0}),
        ("on capture pay 3: gain 1 LP", {A.Resource.LP: 1, A.Resource.SP: -3}, {A.Resource.LP: 0, A.Resource.SP: 0}),
        ("damage +1", {A.Resource.LP: 0, A.Resource.SP: 0}, {A.Resource.LP: 0, A.Resource.SP: 0}),
    ],
)
def test_each_effect_moves_what_it_names(text: str, own: dict[A.Resource, int], enemy: dict[A.Resource, int]) -> None:
    """A trigger's price is paid by the holder, a bare price in SP first (R05); a steal moves
    what one side loses to the other."""
    effect = card(f'relic "Probe" {{ cost 1 SP effect {text} }}').effects[0]
    moves = effect_moves(effect)
    assert signed(moves) == own
    assert signed(moves, A.Side.ENEMY) == enemy


def test_a_conversion_at_the_core_rate_is_marked_as_the_cores() -> None:
    """R16: replay counts a card's conversion at 2 SP for 1 LP toward the turn's 20 SP."""
    core = effect_moves(card('spell "C" { cost 1 SP effect convert 4 SP to 2 LP }').effects[0])
    odd = effect_moves(card('spell "C" { cost 1 SP effect convert 2 SP to 2 LP }').effects[0])
    assert all(m.core_conversion for m in core)
    assert not any(m.core_conversion for m in odd)


def test_a_printed_cost_is_paid_sp_items_in_sp_and_a_bare_number_sp_first() -> None:
    """R05, R22: the printed cost, as replay pays it when the log does not say how."""
    moves = cost_moves(card('spell "P" { cost 2 SP + 3 LP + 4 effect gain 1 LP }'))
    assert signed(moves) == {A.Resource.SP: -6, A.Resource.LP: -3}
    assert [m.source for m in moves] == ["cost 2 SP", "cost 3 LP", "cost 4 (paid in SP first, R05)"]
    assert cost_moves(card('spell "F" { phase main1 effect gain 1 LP }')) == ()


def test_amounts_that_are_not_fixed_have_a_least_and_a_most() -> None:
    """A ``per`` amount counts 1 to 15 pieces; ``equal to`` and ``unlimited`` have no bound."""
    per = amount_of(card('spell "P" { cost 1 SP effect gain 2 SP per piece in own gem }').effects[0].action.quantity)  # type: ignore[union-attr]
    scaled = amount_of(card('spell "S" { cost 1 SP effect gain LP equal to own SP / 2 }').effects[0].action.quantity)  # type: ignore[union-attr]
    assert (per.least, per.most, per.fixed) == (2, 2 * MOST_COUNTED, False) and MOST_COUNTED == 15
    assert (scaled.least, scaled.most, scaled.words) == (1, None, "LP equal to own SP / 2")


def test_windows_follow_the_rules_of_play() -> None:
    """R22: a Spell's and a passive Relic's effects without a trigger resolve when played, an
    activated Relic's at each use; a trigger resolves when it fires (``at main:`` twice)."""
    spell = card('spell "S" { cost 1 SP effect gain 1 LP }')
    passive = card('relic "P" passive { cost 1 SP effect gain 1 LP }')
    activated = card('relic "A" activated { cost 1 SP effect gain 1 LP }')
    trigger = card('relic "T" passive { cost 1 SP effect at main: gain 1 LP effect on capture: lose 1 SP }')
    assert effect_windows(spell, spell.effects[0]) == (PLAYED,)
    assert effect_windows(passive, passive.effects[0]) == (PLAYED,)
    assert effect_windows(activated, activated.effects[0]) == (USED,)
    assert effect_windows(trigger, trigger.effects[0]) == (
        Window(WindowKind.PHASE, phase=Phase.MAIN1),
        Window(WindowKind.PHASE, phase=Phase.MAIN2),
    )
    assert effect_windows(trigger, trigger.effects[1]) == (Window(WindowKind.EVENT, event=A.Event.CAPTURE),)
    # the cost belongs to the window the card is played in; an activated Relic's uses pay nothing more
    assert set(card_windows(activated)) == {PLAYED, USED}
    assert [e for e, _ in card_windows(activated)[PLAYED]] == [None]


def test_how_often_a_window_comes_round_in_a_turn() -> None:
    """R17: 2 uses a turn at most, fewer with a use limit; an event as often as it happens."""
    press = card('relic "A" activated { cost 1 SP effect gain 1 LP }')
    slow = card('relic "B" activated { cost 1 SP effect gain 1 LP limit once per turn }')
    toll = card('relic "T" passive { cost 1 SP effect on capture: gain 1 LP }')
    tithe = card('relic "U" passive { cost 1 SP effect on capture: gain 1 LP limit 2 per turn }')
    assert per_turn(press, press.effects, USED, 2) == 2
    assert per_turn(slow, slow.effects, USED, 2) == 1
    assert per_turn(press, (), PLAYED, 2) == 1
    capture = Window(WindowKind.EVENT, event=A.Event.CAPTURE)
    assert per_turn(toll, toll.effects, capture, 2) is None
    assert per_turn(tithe, tithe.effects, capture, 2) == 2


REPLAYED = """
spell "Alchemist's Trade" { cost 2 SP phase main2 effect lose 20 SP effect gain 20 LP }
spell "Blank Cheque" { cost 8 phase main2 effect gain 8 LP }
spell "Soul Drain" { cost 3 SP phase main2 effect steal 5 SP effect opponent loses 2 LP }
relic "Coin Press" activated { cost 5 SP phase main2 effect lose 6 SP effect gain 6 LP }
relic "Tollgate" passive { cost 5 SP phase main1 effect at main2 pay 4 SP: gain 4 LP }
"""


@pytest.mark.parametrize("name", ["Alchemist's Trade", "Blank Cheque", "Soul Drain", "Coin Press", "Tollgate"])
def test_the_moves_are_what_replay_moves(name: str) -> None:
    """core §2, R05, R22, R23: played, used or fired in replay, the card changes each side's LP
    and SP by exactly the moves of the window it resolves in."""
    by_name = cards_by_name(REPLAYED)
    probe = by_name[name]
    windows = card_windows(probe)
    state = position("Ke1 ke8", sp=(60, 10), lp=(30, 30), phase=probe.phase.phases[0] if probe.phase else Phase.MAIN1)
    state = state.replace(cards=new_cards(by_name, (name,), ()))
    before = state.players
    state = ok(state, Play(name)).state
    expected = [m for _, moves in windows[PLAYED] for m in moves]
    if USED in windows:
        state = ok(state, Activate(name)).state
        expected += [m for _, moves in windows[USED] for m in moves]
    phase = Window(WindowKind.PHASE, phase=Phase.MAIN2)
    if phase in windows:
        state = ok(state, EnterPhase(Phase.BATTLE)).state
        state = ok(state, EnterPhase(Phase.MAIN2)).state
        expected += [m for _, moves in windows[phase] for m in moves]
    after = state.players
    for color, side in ((W, A.Side.OWN), (W.other, A.Side.ENEMY)):
        net = signed(expected, side)
        assert after[color].sp - before[color].sp == net[A.Resource.SP], (color, expected)
        assert after[color].lp - before[color].lp == net[A.Resource.LP], (color, expected)


# --- conversions (contract/analysis/conversion.py) ------------------------------------------------


def conversions(source: str) -> list[Any]:
    acts = exchange_acts(CTX)
    return [c for one in deck(source) for c in alone(card_shares(one, acts, CTX.activations), CTX.activations)]


def test_a_rebate_turns_what_an_effect_takes_into_lp() -> None:
    """R23 (as replay fires it): 'on lose SP' fires on SP an effect takes, 1 SP and up, so a
    card that adds LP there converts at 1 SP for its LP (a refund of SP does not)."""
    (rebate,) = conversions('relic "R" passive { cost 4 SP effect on lose SP: gain 1 LP }')
    assert rebate.breach is Breach.RATE
    (exchange,) = rebate.exchanges
    assert (exchange.given, exchange.gained) == (1, 1)
    assert exchange.chain(named=False) == "an effect taking 1 SP, gain 1 LP"
    assert conversions('relic "C" passive { cost 4 SP effect on lose SP: gain 1 SP }') == []


def test_rate_and_cap_at_the_edges() -> None:
    """R16: exactly 2 SP per LP and exactly 20 SP a turn are the core's own limits."""
    assert conversions('spell "E" { cost 2 SP phase main2 effect lose 18 SP effect gain 10 LP }') == []
    (over,) = conversions('spell "F" { cost 2 SP phase main2 effect lose 20 SP effect gain 11 LP }')
    assert over.breach is Breach.CAP and over.per_turn_sp == 22
    (better,) = conversions('spell "G" { cost 2 SP phase main2 effect lose 17 SP effect gain 10 LP }')
    assert better.breach is Breach.RATE


def test_the_sp_counted_toward_the_cap_stand_for_the_lp_gained() -> None:
    """30 SP for 1 LP is a bad trade, not 30 SP converted: at most 2 SP per LP count."""
    assert conversions('spell "Bad" { cost 1 SP phase main2 effect lose 30 SP effect gain 1 LP }') == []


def test_combinations_name_the_smallest_set_and_leave_out_cards_that_convert_alone() -> None:
    """R19: up to 3 cards at one trigger are one exchange; a card converting alone is reported alone."""
    cards = deck(
        'relic "Rebate" passive { cost 4 SP effect on lose SP: gain 4 LP effect at main2: gain 10 LP }\n'
        'relic "Ash" passive { cost 3 SP effect at main2: lose 10 SP }\n'
        'relic "Ember" passive { cost 3 SP effect at main2: gain 3 LP }\n'
        'relic "Dawn" passive { cost 3 SP effect at main2: gain 6 LP }\n'
        'relic "Noon" passive { cost 3 SP effect at main2: gain 1 LP }\n'
    )
    acts = exchange_acts(CTX)
    shares = [card_shares(c, acts, CTX.activations) for c in cards]
    by_card = {id(s.card): alone(s, CTX.activations) for s in shares}
    assert [c.name for c in cards if by_card[id(c)]] == ["Rebate"]
    (found,) = combinations_of(shares, by_card, CTX.activations, CTX.hand_limit)
    assert found.breach is Breach.RATE
    assert [c.name for c in found.cards] == ["Ash", "Dawn"]  # Rebate's 10 LP would do too, but it is reported alone
    assert found.exchanges[0].chain(named=True) == "Ash (lose 10 SP), Dawn (gain 6 LP)"


def test_three_cards_when_two_are_not_enough() -> None:
    """10 SP for 3 LP is worse than the core's rate; with a second +3 LP, 10 SP for 6 LP is better."""
    cards = deck(
        'relic "Ash" passive { cost 3 SP effect at main2: lose 10 SP }\n'
        'relic "Ember" passive { cost 3 SP effect at main2: gain 3 LP }\n'
        'relic "Dawn" passive { cost 3 SP effect at main2: gain 3 LP }\n'
    )
    acts = exchange_acts(CTX)
    shares = [card_shares(c, acts, CTX.activations) for c in cards]
    by_card = {id(s.card): alone(s, CTX.activations) for s in shares}
    (found,) = combinations_of(shares, by_card, CTX.activations, CTX.hand_limit)
    assert [c.name for c in found.cards] == ["Ash", "Ember", "Dawn"]
    assert found.exchanges[0].rate_words() == "10 SP for 6 LP (1.67 SP per LP)"
    assert combinations_of(shares, by_card, CTX.activations, hand_limit=2) == []  # two cards cannot hold three


def test_an_event_without_a_bound_passes_the_cap_even_at_a_worse_rate() -> None:
    """An event comes as often as it happens: 3 LP per attack on the holder is 6 SP's worth of conversion each
    time, with no bound on the attacks of a turn (an event no action of the holder's brings, so no price of
    its own joins it), unless a limit bounds them."""
    cards = deck(
        'relic "Ash" passive { cost 3 SP effect on attacked: lose 10 SP }\n'
        'relic "Ember" passive { cost 3 SP effect on attacked: gain 3 LP }\n'
    )
    acts = exchange_acts(CTX)
    shares = [card_shares(c, acts, CTX.activations) for c in cards]
    by_card = {id(s.card): alone(s, CTX.activations) for s in shares}
    (found,) = combinations_of(shares, by_card, CTX.activations, CTX.hand_limit)
    assert found.breach is Breach.CAP and found.per_turn_sp is None
    limited = deck(
        'relic "Ash" passive { cost 3 SP effect on attacked: lose 10 SP limit 3 per turn }\n'
        'relic "Ember" passive { cost 3 SP effect on attacked: gain 3 LP }\n'
    )
    shares = [card_shares(c, acts, CTX.activations) for c in limited]
    assert combinations_of(shares, {}, CTX.activations, CTX.hand_limit) == []  # 3 x 6 = 18 SP a turn


def test_lp_on_the_holders_own_action_is_bought_with_its_price() -> None:
    """core §8, R05: any price may be paid in SP, so LP a trigger gives on the holder's own action is
    SP turned into LP at the action's cheapest price under the effect's conditions, as the run-time
    watch counts it; a ``limit`` bounds how often, not the rate of each."""
    acts = exchange_acts(CTX)

    def alone_of(text: str) -> list[str]:
        (card,) = deck(text)
        return [
            f"{c.breach.value}: {c.exchanges[0].rate_words()}"
            for c in alone(card_shares(card, acts, CTX.activations), CTX.activations)
        ]

    assert alone_of('relic "Salve" passive { cost 3 SP effect on miss: gain 10 LP limit once per turn }\n') == [
        "rate: 3 SP for 10 LP (0.3 SP per LP)"
    ]
    assert alone_of('relic "Stride" passive { cost 3 SP effect on move: gain 1 LP }\n') == [
        "rate: 1 SP for 1 LP (1 SP per LP)"
    ]
    # a Rook's step costs 6: 6 SP for 2 LP is the core's rate or worse, and a limit keeps it under 20 a turn
    assert (
        alone_of(
            'relic "Rook Toll" passive { cost 3 SP effect on move: gain 2 LP when attacker is Rook limit 1 per turn }\n'
        )
        == []
    )
    assert alone_of('relic "Rook Gift" passive { cost 3 SP effect on move: gain 4 LP when attacker is Rook }\n') == [
        "rate: 6 SP for 4 LP (1.5 SP per LP)"
    ]
    # the opponent's attack is not the holder's action: LP for nothing is no exchange (CR1)
    assert alone_of('relic "Ward Gift" passive { cost 3 SP effect on attacked: gain 10 LP }\n') == []


def _conversion_pack(count: int) -> str:
    return "".join(
        f'relic "A{i}" passive {{ cost 3 SP effect at main2: lose 10 SP effect on capture: gain 1 LP }}\n'
        f'relic "B{i}" passive {{ cost 3 SP effect at main2: gain {1 + i % 4} LP effect on capture: lose 3 SP }}\n'
        f'spell "S{i}" {{ cost 6 SP phase main2 effect gain 3 LP }}\n'
        for i in range(count)
    )


def test_the_conversion_search_is_not_quadratic() -> None:
    """Ten times the cards, at most twelve times the work (lines executed, never timed)."""
    analysed = str(Path(analysis.__file__).parent)

    def work(count: int) -> int:
        cards = deck(_conversion_pack(count))
        found: list[Any] = []

        def run() -> None:
            found.extend(pack_facts.PackFacts(cards, CTX).conversions)

        executed = _lines_executed(run, analysed)
        assert found, "the pack is built to hold a conversion over several cards"
        return executed

    small, large = work(100), work(1000)
    assert large <= 12 * small, (small, large, large / small)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"combinations_of": 0}

    def counting(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return original(*args, **kwargs)

        return wrapper

    for name in calls:
        monkeypatch.setattr(pack_facts, name, counting(name, getattr(pack_facts, name)))
    return calls


def test_one_code_for_one_card_and_for_combinations(tmp_path: Path, counted: dict[str, int]) -> None:
    """SG-C022 has a per-card part and a pack part; the pack's combinations are computed once,
    and not at all when SG-C022 is disabled."""
    rule = rules_by_code()["SG-C022"]
    assert rule.check_card is not None and rule.check_pack is not None
    (tmp_path / "cards.sgcard").write_text(
        'relic "Ash" passive { cost 3 SP effect at main2: lose 10 SP }\n'
        'relic "Dawn" passive { cost 3 SP effect at main2: gain 10 LP }\n'
        'spell "Trade" { cost 2 SP phase main2 effect lose 20 SP effect gain 20 LP }\n',
        encoding="utf-8",
    )
    found = [d for d in check_paths([str(tmp_path)], Config()).diagnostics if d.code == "SG-C022"]
    placed = sorted((d.span.line if d.span else 0, d.severity) for d in found)
    assert placed == [(1, Severity.ERROR), (3, Severity.ERROR)]  # the pair (at its first card), the trade
    assert counted["combinations_of"] == 1
    disabled = check_paths([str(tmp_path)], Config().with_codes(code_catalogue(), disable=["SG-C022"])).diagnostics
    assert not any(d.code == "SG-C022" for d in disabled)
    assert counted["combinations_of"] == 1  # disabled: neither part runs, no further search


# --- the turn's order (timing.effect_timing, timing.extra_grants) ----------------------------------


@pytest.mark.parametrize(
    ("source", "phases", "goes_back"),
    [
        ('spell "S" { cost 1 SP phase main2 effect extra attack in battle }', (Phase.MAIN2,), True),
        ('spell "S" { cost 1 SP effect extra attack in battle }', tuple(Phase), False),
        ('relic "R" activated { cost 1 SP effect extra move in main1 }', (Phase.MAIN1, Phase.MAIN2), False),
        ('relic "R" passive { cost 1 SP effect at battle: extra move in main1 }', (Phase.BATTLE,), True),
        ('relic "R" passive { cost 1 SP effect on hit: extra move in main1 }', (Phase.BATTLE,), True),
        ('relic "R" passive { cost 1 SP effect on move: extra attack }', (Phase.MAIN1, Phase.MAIN2), False),
        ('relic "R" passive { cost 1 SP effect on summon: extra move in main2 }', (Phase.UPKEEP,), False),
        ('relic "R" passive { cost 1 SP effect on teleport: extra summon }', (Phase.END,), True),
    ],
)
def test_when_an_extra_action_is_granted_and_into_which_phases(
    source: str, phases: tuple[Phase, ...], goes_back: bool
) -> None:
    """R03, R22: where each effect fires in the turn, and whether its grant is already over then."""
    (grant,) = extra_grants(card(source))
    assert grant.timing.phases == phases
    assert grant.goes_back is goes_back


def test_grants_that_outlast_the_turn_or_change_it_anyway_are_left_out() -> None:
    """A passive Relic's own extra action lasts while it is in play; one lasting into the next
    turn is taken there; one outside its window is reported as such, not as going back."""
    assert extra_grants(card('relic "R" passive { cost 1 SP effect extra summon in upkeep }')) == ()
    assert extra_grants(card('relic "R" passive { cost 1 SP effect at end: extra summon for 2 turns }')) == ()
    assert extra_grants(card('spell "S" { cost 1 SP phase end effect extra attack in main1 }')) == ()


# --- bonuses that add up with themselves (repeats.repeats) ------------------------------------------


@pytest.mark.parametrize(
    ("source", "copies"),
    [
        ('relic "R" activated { cost 1 SP phase battle effect damage +1 permanently }', None),
        ('relic "R" activated { cost 1 SP phase battle effect damage +1 this turn }', 2),
        ('relic "R" activated { cost 1 SP phase battle effect damage +1 }', 2),
        ('relic "R" activated { cost 1 SP phase battle effect damage +1 for 2 turns }', 4),
        ('relic "R" activated { cost 1 SP phase battle effect damage +1 permanently limit 2 per game }', 2),
        ('relic "R" activated { cost 1 SP phase battle effect damage +1 this turn limit once per turn }', 1),
        ('relic "R" activated { cost 1 SP phase main2 effect damage +1 this turn }', 1),
        ('relic "R" activated { cost 1 SP phase main2 effect damage +1 for 2 turns }', 2),
        ('relic "R" passive { cost 1 SP effect on capture: damage +1 }', None),
        ('relic "R" passive { cost 1 SP effect on hit: damage +1 this attack }', 1),
        ('relic "R" passive { cost 1 SP effect on move: to_hit +5 this attack }', None),
        ('relic "R" passive { cost 1 SP effect at upkeep: to_hit +5 }', 1),
        ('relic "R" passive { cost 1 SP effect at main: to_hit +5 for 2 turns }', 3),
        ('relic "R" passive { cost 1 SP effect to_hit +5 }', 1),
        ('spell "S" { cost 1 SP phase battle effect to_hit +5 permanently }', 1),
    ],
)
def test_how_many_copies_of_a_bonus_act_on_one_attack(source: str, copies: int | None) -> None:
    """R17, R23: each use or firing starts a copy; those started before the attack this turn and
    those of earlier turns still acting add up."""
    probe = card(source)
    found = repeats(probe, probe.effects[0], CTX)
    assert (1 if found is None else found.copies) == copies


WHETSTONE = 'relic "Unbound Whetstone" activated { cost 1 SP phase battle effect damage +1 permanently }\n'


def test_replay_keeps_a_copy_per_use_and_clamps_their_sum_at_the_cap() -> None:
    """R17, R20, R23: three uses over two turns put +3 on an attack in replay, which clamps it at
    +2 and says so; the contract counts the same copies and reports the card (SG-C011)."""
    by_name = cards_by_name(WHETSTONE)
    state = position("Ke1 Ra3 ke8 ra5 rb8", sp=(40, 40), phase=Phase.BATTLE)
    state = state.replace(cards=new_cards(by_name, ("Unbound Whetstone",), ()))
    state = ok(state, Play("Unbound Whetstone")).state
    state = ok(state, Activate("Unbound Whetstone")).state
    state = end_turn(end_turn(state))
    state = ok(ok(state, EnterPhase(Phase.BATTLE)).state, Activate("Unbound Whetstone")).state
    state = ok(state, Activate("Unbound Whetstone")).state
    hit = ok(state, Attack(sq("a3"), sq("a5"), (0, 1))).effects
    assert hit.cards is not None
    assert hit.cards.raw_damage == 3 and hit.cards.damage_bonus == caps.DAMAGE_BONUS_CAP and hit.cards.capped
    (finding,) = [d for d in check_paths_of(WHETSTONE) if d.code == "SG-C011"]
    assert finding.message == "each activation adds +1 permanently: 3 activations give +3 per hit > +2"


def check_paths_of(source: str) -> list[Any]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "cards.sgcard").write_text(source, encoding="utf-8")
        return list(check_paths([folder], Config()).diagnostics)
