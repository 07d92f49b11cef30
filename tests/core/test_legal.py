"""``legal_actions`` agrees with ``apply``: everything listed is accepted (soundness), and a brute
force over every square and kind finds nothing legal that is not listed (completeness)."""

from __future__ import annotations

from collections.abc import Hashable, Iterator

import pytest

from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    EndTurn,
    EnterPhase,
    Move,
    Play,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.cards.table import CardsByName, CardsState, new_cards
from sgcheck.core.engine import is_legal
from sgcheck.core.legal import legal_actions, with_roll
from sgcheck.core.pieces import Kind, Phase
from sgcheck.core.ruleset import CORE, Ruleset, parse_ruleset
from sgcheck.core.squares import ALL_SQUARES
from sgcheck.core.state import GameState
from sgcheck.play.pack import GamePack, load_game_pack
from sgcheck.replay.generate import Style

from .helpers import HIT, MISS, ROLL_3, ROLL_18, ok, position, style_policy, walk

RULESETS: list[Ruleset] = [CORE, parse_ruleset("king_value=3; income=all")]

#: Packs whose cards games are played with: the starter pack, the guide's cards without
#: Temporal Rift, and a pack using most of the vocabulary (targets, rerolls, uses, triggers).
PACKS = {
    "starter": "examples/packs/starter",
    "guide": "examples/logs/relic-pack",
    "playtest": "tests/data/packs/playtest",
}


def game_pack(name: str) -> GamePack:
    loaded = load_game_pack(PACKS[name], log_folder=None, from_tag=False)
    assert isinstance(loaded, GamePack), loaded
    assert not loaded.breaks_contract
    return loaded


def full_hands(pack: GamePack) -> CardsState:
    """Both sides hold every card of the pack (more than a draft allows: every card gets played)."""
    names = [card.name for card in pack.cards]
    return new_cards(CardsByName(pack.cards), names, names)


def with_dice(action: Action) -> Iterator[Action]:
    """A legal dice-bearing action is legal whatever the dice: try a hit and a miss,
    a success and a failure."""
    if isinstance(action, Attack):
        yield with_roll(action, HIT)
        yield with_roll(action, MISS)
    elif isinstance(action, Break | Repair):
        yield with_roll(action, ROLL_18)
        yield with_roll(action, ROLL_3)
    else:
        yield action


@pytest.mark.parametrize("ruleset", RULESETS, ids=["core", "house"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("policy", ["uniform", "aggressive"])
def test_every_listed_action_is_accepted(policy: str, seed: int, ruleset: Ruleset) -> None:
    kinds: set[str] = set()
    walker = (
        walk(seed, steps=300, ruleset=ruleset, rich=seed % 2 == 0)
        if policy == "uniform"
        else walk(seed, steps=300, ruleset=ruleset, policy=style_policy(Style.AGGRESSIVE))
    )
    for state, _, _ in walker:
        for action in legal_actions(state):
            kinds.add(type(action).__name__)
            for filled in with_dice(action):
                ok(state, filled)
    assert {"Summon", "Move", "EnterPhase", "EndTurn"} <= kinds
    if policy == "aggressive":
        assert "Attack" in kinds


def test_listing_covers_every_kind_of_action() -> None:
    """A position where every kind of core action is available is listed in full (Activate excepted:
    cards are not known to the core)."""
    st = position("Ke1 Ra3 ke8 pa5", lp=100, sp=10, gem_broken=(True, False))
    seen: set[str] = set()
    for phase in Phase:
        here = st.with_turn(st.turn.with_phase(phase))
        seen |= {type(a).__name__ for a in legal_actions(here)}
    assert seen == {"Break", "Repair", "Move", "Attack", "Convert", "Teleport", "EnterPhase", "EndTurn"}
    unbroken = position("Ke1 ke8", phase=Phase.UPKEEP, lp=100)
    assert any(isinstance(a, Summon) for a in legal_actions(unbroken))


def _key(action: Action) -> Hashable:
    match action:
        case Move() | Attack() | Teleport():
            return (type(action).__name__, action.frm, action.to)
        case Summon():
            return ("Summon", action.kind, action.to)
        case Convert():
            return ("Convert", action.sp)
        case Break() | Repair() | EndTurn():
            return type(action).__name__
        case EnterPhase():
            return ("EnterPhase", action.phase)
        case Play() | Activate():
            return (type(action).__name__, action.card, action.target)
    raise AssertionError(action)


def brute_force(state: GameState) -> set[Hashable]:
    """Every legal action found by trying every square pair, kind, amount and phase."""
    found: set[Hashable] = set()
    candidates: list[Action] = []
    for frm in ALL_SQUARES:
        for to in ALL_SQUARES:
            candidates += [Move(frm, to), Attack(frm, to, HIT), Teleport(frm, to)]
    candidates += [Summon(kind, to) for kind in Kind for to in ALL_SQUARES]
    candidates += [Convert(n) for n in range(-2, 44)]
    candidates += [Break(ROLL_18), Repair(ROLL_18), EndTurn()]
    candidates += [EnterPhase(p) for p in Phase]
    if state.cards is not None:
        for name in state.cards.by_name:
            for target in (None, *ALL_SQUARES):
                candidates += [Play(name, target), Activate(name, target=target)]
    for action in candidates:
        if is_legal(state, action):
            found.add(_key(action))
    return found


def sample_states() -> Iterator[tuple[str, GameState]]:
    """States from generated games (the generator's own policies) and from uniform random play,
    a few per game, covering every phase."""
    for seed in range(3):
        for style in Style:
            for i, (state, _, _) in enumerate(walk(seed, steps=120, policy=style_policy(style))):
                if i % 40 == 17:
                    yield f"{style.value}-{seed}-{i}", state
    for seed in range(3):
        ruleset = RULESETS[seed % 2]
        for i, (state, _, _) in enumerate(walk(100 + seed, steps=150, ruleset=ruleset, rich=True)):
            if i % 25 == 7:
                yield f"uniform-{seed}-{i}", state


def card_states() -> Iterator[tuple[str, GameState]]:
    """States of games played with cards (R22, R23): both sides rich, holding every card of a pack."""
    for name in PACKS:
        hands = full_hands(game_pack(name))
        for seed in range(2):
            for i, (state, _, _) in enumerate(walk(200 + seed, steps=160, rich=True, cards=hands)):
                if i % 20 == 9:
                    yield f"{name}-{seed}-{i}", state


SAMPLES = list(sample_states())
CARD_SAMPLES = list(card_states())


def test_samples_cover_every_phase() -> None:
    assert {st.turn.phase for _, st in SAMPLES} == set(Phase)


@pytest.mark.parametrize("state", [st for _, st in SAMPLES], ids=[name for name, _ in SAMPLES])
def test_legal_actions_is_complete(state: GameState) -> None:
    listed = {_key(a) for a in legal_actions(state)}
    found = brute_force(state)
    assert found - listed == set(), "legal but not listed"
    assert listed - found == set(), "listed but not legal"


def test_card_samples_play_cards() -> None:
    """R22: the card samples hold cards in play and lasting effects, so listing is tested with them."""
    assert any(st.cards is not None and st.cards.in_play for _, st in CARD_SAMPLES)
    assert any(st.cards is not None and st.cards.lasting for _, st in CARD_SAMPLES)
    assert {st.turn.phase for _, st in CARD_SAMPLES} == set(Phase)


@pytest.mark.parametrize("state", [st for _, st in CARD_SAMPLES], ids=[name for name, _ in CARD_SAMPLES])
def test_legal_actions_with_cards_is_complete_and_sound(state: GameState) -> None:
    """R22, R23: with cards in play every listed action (card plays and uses included) is accepted,
    and every accepted one is listed; costs and once-per-turn limits are the cards' to change."""
    listed = {_key(a) for a in legal_actions(state)}
    found = brute_force(state)
    assert found - listed == set(), "legal but not listed"
    assert listed - found == set(), "listed but not legal"


@pytest.mark.parametrize("pack", list(PACKS))
def test_every_listed_card_play_is_accepted(pack: str) -> None:
    """R22: a walk that plays the listed actions of a card game, card plays and uses included."""
    hands = full_hands(game_pack(pack))
    kinds: set[str] = set()
    for state, _, _ in walk(7, steps=400, rich=True, cards=hands):
        for action in legal_actions(state):
            kinds.add(type(action).__name__)
            for filled in with_dice(action):
                ok(state, filled)
    assert "Play" in kinds


def test_nothing_is_listed_after_the_game_ends() -> None:
    st = position("Qd1 kd8 Ke1", phase=Phase.BATTLE, lp=100, king_damage=(0, 19))
    over = ok(st, Attack(ALL_SQUARES[3], ALL_SQUARES[59], HIT)).state
    assert over.result is not None
    assert list(legal_actions(over)) == []
