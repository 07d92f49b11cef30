"""Only combinations that can happen, each with the route that brings it about (R19, R24, R26).

Which cards can be together follows from the draft (what a hand keeps), a market module's deck
(a card placed before a player beside the hand; copies of one card before both players) and the
pack's scenario (the position its games start from). These tests ask the combinations and the
probes the explorer plays, and check a pack with a market end to end.
"""

from __future__ import annotations

from pathlib import Path

from sgcheck.config import Config
from sgcheck.contract.analysis.meeting import combinations
from sgcheck.contract.analysis.probes import PROBES, probes_for
from sgcheck.contract.checker import plan_check
from sgcheck.contract.context import CheckContext
from sgcheck.contract.rules._helpers import market_route
from sgcheck.core.pieces import BLACK, WHITE
from sgcheck.core.scenario import Scenario
from sgcheck.lang.scenarios.scenario_loader import load_scenario
from tests.contract.test_explore import cards_of

# Two cards that meet: one loses SP in Battle, the other gains LP in Main 2 (an exchange together).
PAIR = """
relic "Tithe" passive {
    cost 3 SP
    effect at battle: lose 8 SP
}

relic "Salve" passive {
    cost 3 SP
    effect at main2: gain 8 LP
}
"""


def _one_hand_pairs(hands: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> set[frozenset[str]]:
    return {frozenset(white) for white, black in hands if len(white) >= 2 and not black}


def test_a_draft_that_keeps_one_card_never_puts_two_in_one_hand() -> None:
    """R19: a draft keeping one card gives a player one card of the pack for the whole game."""
    cards = cards_of(PAIR)
    assert _one_hand_pairs(combinations(cards, hand_limit=2)) == {frozenset({"Tithe", "Salve"})}
    assert _one_hand_pairs(combinations(cards, hand_limit=1)) == set()


def test_a_market_card_is_held_beside_the_one_the_draft_keeps() -> None:
    """R26: the capturer places a revealed card before a player, beside the hand the draft kept."""
    cards = cards_of(PAIR)
    hands = combinations(cards, hand_limit=1, market=("Salve",))
    assert _one_hand_pairs(hands) == {frozenset({"Tithe", "Salve"})}
    # a card not in the deck adds nothing
    assert _one_hand_pairs(combinations(cards, hand_limit=1, market=("Unknown",))) == set()


def test_copies_of_one_card_in_the_deck_are_before_both_players() -> None:
    """R26: two copies of one card in the deck can be before each player at once; one copy cannot."""
    cards = cards_of(PAIR)
    assert (("Tithe",), ("Tithe",)) in combinations(cards, market=("Tithe", "Tithe"))
    assert (("Tithe",), ("Tithe",)) not in combinations(cards, market=("Tithe",))
    assert (("Tithe",), ("Tithe",)) not in combinations(cards)


def test_the_route_names_the_market_only_where_the_draft_does_not_deal_the_hands() -> None:
    market = CheckContext(kept=1, market=("Salve", "Tithe", "Tithe"))
    assert "before White" in market_route((("Tithe", "Salve"), ()), market)
    assert "before each player" in market_route((("Tithe",), ("Tithe",)), market)
    assert market_route((("Tithe",), ("Salve",)), market) == ""
    assert market_route((("Tithe", "Salve"), ()), CheckContext()) == ""


SCENARIO = """\
name: Narrow pass
white: {lp: 12, sp: 3, pieces: [Kh1, Ra1, Pb2]}
black: {lp: 12, sp: 3, pieces: [Kh8, Ra8, Pb7]}
turn_limit: 20
"""


def test_the_packs_scenario_is_a_probe_without_its_win_conditions() -> None:
    """R24: a pack's games start from its scenario, so the explorer plays from there too."""
    loaded = load_scenario(SCENARIO, "narrow.scenario.yaml")
    assert loaded.scenario is not None, loaded.diagnostics
    probes = probes_for((), loaded.scenario)
    assert probes[: len(PROBES)] == PROBES
    (extra,) = probes[len(PROBES) :]
    assert extra.scenario.turn_limit is None and not extra.scenario.conditions
    assert extra.scenario.side(WHITE) == loaded.scenario.side(WHITE)
    assert extra.scenario.side(BLACK).lp == 12
    # a scenario that places no King is no probe
    assert probes_for((), Scenario(name="empty")) == PROBES


def _pack(folder: Path, module: str) -> list[object]:
    folder.mkdir()
    (folder / "cards.sgcard").write_text(PAIR, encoding="utf-8")
    manifest = "name: market-pack\nversion: 1.0.0\ndraft: {draw: 5, keep: 1}\ncards:\n  - cards.sgcard\n"
    (folder / "sgpack.yaml").write_text(manifest + module, encoding="utf-8")
    job = plan_check([str(folder)], Config())
    return [d for result, _ in job.results() for d in result.diagnostics]


def test_a_pair_only_the_market_brings_together_is_reported_with_its_route(tmp_path: Path) -> None:
    """core §2, R16, R19, R26: 'Tithe' and 'Salve' together trade 8 SP for 8 LP. With a draft that
    keeps one card no player holds both, so it is not reported; with a market whose deck holds one
    of them, the capturer places it beside the kept card, and the exchange is an error with the
    route and its game."""
    alone = _pack(tmp_path / "draft-only", "")
    assert not [d for d in alone if d.code == "SG-C150"]
    market = _pack(tmp_path / "market", "module:\n  name: spell-chess\n  market:\n    deck: [Tithe, Tithe, Salve]\n")
    (error,) = [d for d in market if d.code == "SG-C150"]
    context = dict(error.context)
    assert "from the draft and the capturer places" in context["route"]
    assert "SG-R130" in context["proof"]
