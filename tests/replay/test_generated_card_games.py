"""Generated games played with cards replay clean (R19, R20, R22, R23).

The generator drafts from a pack and plays cards like any other action (cards from hand, uses
of activated Relics, second accuracy rolls). Its logs, written as text, must replay without a
finding to the generator's own final state, read by the line reader and by the grammar, and
from the nodes themselves; every step keeps the invariants of a
card-free game (pieces never created or lost, LP and SP never negative).
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.core import caps
from sgcheck.core.actions import Attack
from sgcheck.core.cards.semantics import Situation, attack_cards, parts_on_attack
from sgcheck.core.geometry import GeometryError, attack_route
from sgcheck.core.pieces import Color
from sgcheck.core.state import GameState, piece_census
from sgcheck.lang.logs.ast import AttackStmt, Turn
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText
from sgcheck.play.pack import GamePack, load_game_pack
from sgcheck.replay.generate import Claims, GeneratedGame, Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, ReplayResult, replay_items, replay_source, replay_text
from tests.core.helpers import full_census
from tests.readers import by_grammar

ROOT = Path(__file__).resolve().parents[2]

#: The starter pack, the guide's cards without Temporal Rift, and a pack using most of the
#: vocabulary in play (targets, rerolls and advantage, uses, triggers, deny repair, steal).
PACKS = {
    "starter": ROOT / "examples" / "packs" / "starter",
    "guide": ROOT / "examples" / "logs" / "relic-pack",
    "playtest": ROOT / "tests" / "data" / "packs" / "playtest",
}
FULL = full_census()


def loaded(name: str) -> GamePack:
    pack = load_game_pack(str(PACKS[name]), log_folder=None, from_tag=False)
    assert isinstance(pack, GamePack), pack
    assert not pack.breaks_contract, [f.message for f in pack.findings]
    return pack


def same_game(result: ReplayResult, game: GeneratedGame) -> None:
    errors = [f"{d.code} {d.span.line}:{d.span.column} {d.message}" for d in result.diagnostics if d.is_error]
    assert errors == []
    assert result.ok and not result.stopped
    assert result.state == game.final  # cards included: the pack's cards by name compare by their cards


def statements(game: GeneratedGame) -> Counter[str]:
    found: Counter[str] = Counter()
    for item in game.items:
        if isinstance(item, Turn):
            for block in item.phases:
                for stmt in block.statements:
                    found[type(stmt).__name__] += 1
                    if isinstance(stmt, AttackStmt) and stmt.second is not None:
                        found["second roll"] += 1
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    pack=st.sampled_from(sorted(PACKS)),
    style=st.sampled_from(list(Style)),
    claims=st.sampled_from(list(Claims)),
    max_turns=st.integers(1, 40),
)
def test_generated_card_games_replay_clean_both_ways(
    seed: int, pack: str, style: Style, claims: Claims, max_turns: int
) -> None:
    """R22, R23: a generated game with cards replays clean from its text, read by the line reader
    and by the grammar, and from its nodes; all three reach the same state."""
    game = generate_game(seed, style=style, claims=claims, max_turns=max_turns, pack=loaded(pack))
    text = format_log(game.items)
    options = ReplayOptions(pack=str(PACKS[pack]))
    quick = replay_text(text, "cards.sglog", options)
    same_game(quick, game)
    tree = by_grammar(text, "cards.sglog", options)
    assert tree == quick
    assert tree.state == quick.state
    same_game(replay_items(game.items, "cards.sglog", options), game)


@pytest.mark.parametrize("pack", sorted(PACKS))
def test_generated_card_games_play_their_cards(pack: str) -> None:
    """R22: the generator's games do play cards, so the properties here are about something:
    cards from hand in every pack, Relic uses and second rolls where the pack has them. Cards
    cost SP, which captures bring, so the aggressive style plays most of them."""
    found: Counter[str] = Counter()
    for seed in range(10):
        found += statements(generate_game(seed, style=Style.AGGRESSIVE, max_turns=60, pack=loaded(pack)))
    assert found["PlayStmt"] >= 5
    if pack in ("starter", "playtest"):
        assert found["ActivateStmt"] >= 3
    if pack == "playtest":
        assert found["second roll"] >= 2


def test_the_pack_tag_names_the_cards(tmp_path: Path) -> None:
    """R22: a generated log may carry its [Pack] tag; replayed from a file next to the pack it
    needs no --pack."""
    shutil.copytree(PACKS["guide"], tmp_path / "relic-pack")
    pack = load_game_pack(str(tmp_path / "relic-pack"), log_folder=None, from_tag=False)
    assert isinstance(pack, GamePack)
    game = generate_game(5, max_turns=20, pack=pack, pack_tag="relic-pack")
    text = format_log(game.items)
    assert '[Pack "relic-pack"]' in text
    result = replay_source(SourceText(str(tmp_path / "g.sglog"), text), folder=str(tmp_path))
    same_game(result, game)
    assert result.pack is not None and len(result.pack.cards) == len(pack.cards)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    pack=st.sampled_from(sorted(PACKS)),
    style=st.sampled_from(list(Style)),
    rich=st.booleans(),
)
def test_card_games_keep_the_invariants(seed: int, pack: str, style: Style, rich: bool) -> None:
    """R23, core §5: with cards, pieces are never created or lost, LP and SP never go below 0,
    a King's damage only grows, and at most 2 activations are made in a turn (R17); the index the
    rules consult on every action always describes the lasting effects it was built from. Rich
    players (200 LP, 60 SP) put their cards into play early, so most attacks meet them."""
    from sgcheck.core.cards.table import CardsByName, lasting_index, new_cards
    from tests.core.helpers import style_policy, walk

    game_pack = loaded(pack)
    rng = random.Random(seed)
    names = [card.name for card in game_pack.cards]
    hands = new_cards(CardsByName(game_pack.cards), rng.sample(names, 3), rng.sample(names, 3))
    for before, action, step in walk(rng, steps=250, rich=rich, policy=style_policy(style), cards=hands):
        after = step.state
        assert after.cards is not None
        assert after.cards.lasting_index == lasting_index(after.cards.lasting), "the index describes the effects"
        assert piece_census(after) == FULL
        assert after.turn.activations <= caps.ACTIVATIONS_PER_TURN
        for color in Color:
            assert after.player(color).lp >= 0 and after.player(color).sp >= 0
            assert after.player(color).king_damage >= before.player(color).king_damage
        if isinstance(action, Attack) and before.cards is not None:
            same_parts_both_ways(before, action)


def same_parts_both_ways(state: GameState, action: Attack) -> None:
    """R20, R23: the pairs the cards in play keep for the mover's attacks sum to what
    ``attack_cards`` finds from every lasting effect, the semantics' own reading."""
    cards = state.cards
    attacker, victim = state.board[action.frm], state.board[action.to]
    assert cards is not None and attacker is not None and victim is not None
    route = attack_route(state.board, action.frm, action.to, attacker)
    assert not isinstance(route, GeometryError)
    me = state.to_move
    at = Situation(me, attacker.kind, victim.kind, route.distance, action.frm, action.to)
    kept = parts_on_attack(cards.lasting_index.attacking[me], state, at, victim)
    assert kept == attack_cards(cards.ordered(me), state, at, victim)
