"""The explorer finds what a card can do whatever other effects sit beside it (core §8, R17, R22, R23).

The explorer plays each card in the form the core takes (R22): with ``on`` a piece only when one of
its effects acts on a piece as it is played (a Spell, a passive Relic) or used (an activated Relic),
and then on a piece those effects name, the opponent's or the player's own. A trigger that damages
pieces, or a direct effect on a kind of piece, once made the explorer offer only plays the core
refused, so the card was never played and the break beside it never seen.

Each design below breaks core §8 by its use and carries another effect that is harmless on its
own; the legal version of each, with the same company, stays clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from sgcheck.config import Config
from sgcheck.contract import check_paths
from sgcheck.contract.analysis.explore import candidates, explore
from sgcheck.contract.analysis.probes import PROBES, start
from sgcheck.core.actions import Action, Activate, EndTurn, EnterPhase, Play
from sgcheck.core.cards import model as A
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import WHITE
from sgcheck.core.squares import Square
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Severity
from sgcheck.lang.cards.parser import parse_cards
from tests.cardgen import card_sources
from tests.contract.test_corpus import design_paths
from tests.contract.test_explore import assert_replays_to, proofs

ROOT = Path(__file__).resolve().parents[2]

#: (name, broken source, the explorer's kind and what, the checker's error code, legal source)
CASES = [
    (
        # two uses a turn (R17) of a lasting -2 make a Pawn's attack at distance 1 cost 3 - 4 = -1
        # (core §8, R23); the never-true to-hit malus and the Upkeep trigger on own Bishops are harmless
        "ember",
        'relic "P0 Ember" activated {\n'
        "    cost 0\n"
        "    effect to_hit -6 when attacker is King and distance < 2\n"
        "    effect cost attack distance -2 permanent\n"
        "    effect at upkeep pay 3 LP: deal 3 damage to own BISHOPS next turn\n"
        "}\n",
        ("negative-cost", "attack"),
        "SG-C151",
        'relic "P0 Ember" activated {\n'
        "    cost 0\n"
        "    effect to_hit -6 when attacker is King and distance < 2\n"
        "    effect cost attack distance -1 permanent limit once per game\n"
        "    effect at upkeep pay 3 LP: deal 3 damage to own BISHOPS next turn\n"
        "}\n",
    ),
    (
        # two uses a turn (R17) of a lasting +15 give one attack +30, past the +25 cap (core §4.5, §8);
        # the End trigger that damages the holder's own Pawns is harmless
        "to-hit",
        'relic "Sighting Lens" activated {\n'
        "    cost 0\n"
        "    effect to_hit +15 permanent\n"
        "    effect at end: deal 1 damage to own PAWNS\n"
        "}\n",
        ("cap", "to-hit"),
        "SG-C010",  # the wording alone says it (SG-C010); play finds it too
        'relic "Sighting Lens" activated {\n'
        "    cost 0\n"
        "    effect to_hit +12 this turn\n"
        "    effect at end: deal 1 damage to own PAWNS\n"
        "}\n",
    ),
    (
        # each use deals 1 damage to an enemy Rook, so it is used `on` a Rook (R22); two uses a turn
        # (R17) of a lasting -2 price a Pawn's attack at -1 (core §8, R23)
        "use-on-a-piece",
        'relic "Ashen Toll" activated {\n'
        "    cost 0\n"
        "    effect deal 1 damage to enemy ROOK\n"
        "    effect cost attack distance -2 permanent\n"
        "}\n",
        ("negative-cost", "attack"),
        "SG-C151",
        'relic "Ashen Toll" activated {\n'
        "    cost 0\n"
        "    effect deal 1 damage to enemy ROOK\n"
        "    effect cost attack distance -1 this turn\n"
        "}\n",
    ),
    (
        # 6 SP for 2 LP, then the core's own 20 SP: 24 SP turned into LP in a turn (core §2, §8, R16);
        # the card is cast `on` an enemy Rook, a kind the explorer's first targets did not include
        "exchange",
        'spell "Field Hospital" {\n    cost 6 SP\n    phase main1\n'
        "    effect deal 1 damage to enemy ROOK\n    effect gain 2 LP\n}\n",
        ("exchange", "amount"),
        "SG-C150",
        'spell "Field Hospital" {\n    cost 6 LP\n    phase main1\n'
        "    effect deal 1 damage to enemy ROOK\n    effect gain 2 LP\n}\n",
    ),
]


def cards_of(text: str) -> list[A.Card]:
    parsed = parse_cards(text, "cards.sgcard")
    assert parsed.diagnostics == ()
    return list(parsed.cards)


def errors_of(text: str, tmp_path: Path) -> set[str]:
    path = tmp_path / "pack.sgcard"
    path.write_text(text, encoding="utf-8")
    run = check_paths([str(path)], Config())
    return {d.code for d in run.diagnostics if d.severity is Severity.ERROR}


@pytest.mark.parametrize(("name", "broken", "kind", "code", "legal"), CASES, ids=[c[0] for c in CASES])
def test_the_break_is_found_beside_other_effects(
    name: str, broken: str, kind: tuple[str, str], code: str, legal: str, tmp_path: Path
) -> None:
    """core §8, R17, R23: played whole, the card breaks; the checker says so with its game."""
    found = [(f.kind, f.what) for f in explore(cards_of(broken)).findings]
    assert kind in found, found
    assert code in errors_of(broken, tmp_path)


@pytest.mark.parametrize(("name", "broken", "kind", "code", "legal"), CASES, ids=[c[0] for c in CASES])
def test_the_legal_version_stays_clean(
    name: str, broken: str, kind: tuple[str, str], code: str, legal: str, tmp_path: Path
) -> None:
    """The same company beside a use that stays within core §8 draws no error in play or in wording."""
    assert explore(cards_of(legal)).findings == []
    assert errors_of(legal, tmp_path) == set()


def test_the_ember_break_comes_with_a_game_that_replays_to_it(tmp_path: Path) -> None:
    """core §8, R17, R23: the proof of the Ember's negative cost is a legal game, and replay sees it (SG-R131)."""
    path = tmp_path / "ember.sgcard"
    path.write_text(CASES[0][1], encoding="utf-8")
    written = proofs(path, tmp_path / "proofs")
    assert [kind for kind, _ in written] == ["negative-cost"]
    for kind, log in written:
        assert_replays_to(kind, log)


# --- every card is offered in a form the core takes -------------------------------------------------


def _phases(state: GameState) -> list[GameState]:
    """``state`` at each phase of the mover's turn, from its Upkeep."""
    found = [state]
    for _ in range(8):
        step = None
        for action in candidates(found[-1], frozenset()):
            if isinstance(action, EnterPhase):
                step = apply(found[-1], action)
                break
            if isinstance(action, EndTurn):
                break
        if not isinstance(step, Applied):
            break
        found.append(step.state)
    return found


def _accepted(state: GameState, actions: list[Action]) -> Applied | None:
    for action in actions:
        step = apply(state, action)
        if isinstance(step, Applied):
            return step
    return None


def _every_form(state: GameState, make: type[Play] | type[Activate], card: str) -> list[Action]:
    """The card without a target, and on every piece on the board (what a log could write)."""
    forms: list[Action] = [make(card)]
    for sq, cell in enumerate(state.board):
        if cell is not None:
            forms.append(make(card, target=Square(sq), target_kind=cell.kind))
    return forms


def _offered(state: GameState, make: type[Play] | type[Activate], card: str) -> list[Action]:
    return [a for a in candidates(state, frozenset()) if isinstance(a, make) and a.card == card]


def _design_cards() -> list[A.Card]:
    cards: list[A.Card] = []
    files = [p for p in design_paths() if p.name.endswith(".sgcard")]
    files += sorted((ROOT / "tests" / "contract" / "designs").glob("*.sgcard"))
    files += sorted((ROOT / "examples").rglob("*.sgcard"))
    for path in files:
        parsed = parse_cards(path.read_text(encoding="utf-8"), path.name)
        cards.extend(parsed.cards)
    return [c for c in dict((c.name, c) for c in cards).values()]


DESIGN_CARDS = _design_cards()


def test_the_sample_of_cards_is_large_and_varied() -> None:
    """The test below sees cards acting on pieces as they are played and as they are used, and triggers that do."""
    assert len(DESIGN_CARDS) > 200
    direct = (A.DealDamage, A.CapturePiece, A.ConvertPiece)
    on_trigger = [c for c in DESIGN_CARDS if any(e.trigger and isinstance(e.action, direct) for e in c.effects)]
    on_play = [c for c in DESIGN_CARDS if any(not e.trigger and isinstance(e.action, direct) for e in c.effects)]
    assert on_trigger and on_play


def assert_offered_as_the_core_takes(card: A.Card) -> None:
    """R22: in every phase in which the core takes the card played (or, for an activated Relic, used)
    in some form, the explorer offers one it takes."""
    state = start(PROBES[0], (card,), ((card.name,), ()))
    assert state.to_move is WHITE
    for at in _phases(state):
        taken = _accepted(at, _every_form(at, Play, card.name))
        offered = _accepted(at, _offered(at, Play, card.name))
        assert (taken is None) == (offered is None), (at.turn.phase, taken, _offered(at, Play, card.name))
        if taken is None or card.mode is not A.Mode.ACTIVATED:
            continue
        played = taken.state.with_turn(taken.state.turn.replace(activations=0))
        for use_at in _phases(played):
            used = _accepted(use_at, _every_form(use_at, Activate, card.name))
            offered_use = _accepted(use_at, _offered(use_at, Activate, card.name))
            assert (used is None) == (offered_use is None), (use_at.turn.phase, _offered(use_at, Activate, card.name))


@pytest.mark.parametrize("card", DESIGN_CARDS, ids=[c.name for c in DESIGN_CARDS])
def test_the_explorer_offers_every_card_in_a_form_the_core_takes(card: A.Card) -> None:
    """R22: every card of the design corpora and the examples, whatever its other effects."""
    assert_offered_as_the_core_takes(card)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(card_sources())
def test_the_explorer_offers_any_card_in_a_form_the_core_takes(source: str) -> None:
    """R22: cards drawn from the whole card language (tests/cardgen.py), direct effects and
    triggers on pieces beside anything else."""
    parsed = parse_cards(source, "card.sgcard")
    for card in parsed.cards:
        assert_offered_as_the_core_takes(card)
