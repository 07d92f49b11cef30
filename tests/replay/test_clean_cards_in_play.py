"""Cards the contract checker calls clean, played in generated games, never break a cap or a core
rule (core §4.5, §8, R19, R20, R23): one effect semantics for the checker and for replay.

Random packs of one to three generated cards are contract-checked as a game's pack is; those
without an error finding are drafted by both sides of generated games. Every step of those games
is checked against what the core allows whatever the cards: a to-hit bonus of at most +25 and
at most +2 damage per hit over the core's numbers, a King damaged only by attacks, phases only
going forward, at most two activations a turn (R17), no negative LP or SP, no piece created or
lost. The games' logs must also replay clean to the generator's state.
"""

from __future__ import annotations

import random
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sgcheck.core import caps
from sgcheck.core.actions import Activate, Attack, EndTurn, Play
from sgcheck.core.cards.semantics import forbidden_in
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.formulas import hit_threshold
from sgcheck.core.pieces import Color
from sgcheck.core.state import piece_census
from sgcheck.lang.logs.writer import format_log
from sgcheck.play.pack import GamePack, load_game_pack
from sgcheck.replay.generate import Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, replay_text
from tests.cardgen import card_sources
from tests.core.helpers import full_census, style_policy, walk

FULL = full_census()


def _pack(sources: list[str], folder: Path) -> GamePack | None:
    """The cards as one card file, checked as a game's pack; None if the checker finds an error."""
    renamed = [re.sub(r'"[^"]*"', f'"Card {i}"', source, count=1) for i, source in enumerate(sources)]
    path = folder / "cards.sgcard"
    path.write_text("\n".join(renamed), encoding="utf-8")
    pack = load_game_pack(str(path), log_folder=None, from_tag=False)
    assert isinstance(pack, GamePack), pack
    return None if pack.breaks_contract else pack


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(
    sources=st.lists(card_sources(), min_size=1, max_size=3),
    seed=st.integers(0, 2**32 - 1),
    style=st.sampled_from([Style.AGGRESSIVE, Style.RANDOM]),
)
def test_clean_cards_never_break_a_cap_or_a_core_rule_in_play(sources: list[str], seed: int, style: Style) -> None:
    """core §4.5, §8, R20, R23: whatever clean cards do, the core's bounds hold at every step."""
    with tempfile.TemporaryDirectory() as folder:
        pack = _pack(sources, Path(folder))
        assume(pack is not None)
        assert pack is not None
        rng = random.Random(seed)
        names = [card.name for card in pack.cards]
        hands = new_cards(CardsByName(pack.cards), names, names)
        rich = style is Style.RANDOM  # rich players can pay for every card
        for before, action, step in walk(rng, steps=200, rich=rich, policy=style_policy(style), cards=hands):
            after, fx = step.state, step.effects
            assert piece_census(after) == FULL, "pieces are never created or lost"
            assert after.turn.activations <= caps.ACTIVATIONS_PER_TURN, "R17"
            if not isinstance(action, EndTurn):
                assert after.turn.phase >= before.turn.phase, "phases only go forward (core §2)"
            for color in Color:
                mine, was = after.player(color), before.player(color)
                assert mine.lp >= 0 and mine.sp >= 0
                if not isinstance(action, Attack):
                    assert mine.king_damage == was.king_damage, "only attacks damage a King (R19)"
            if isinstance(action, Attack) and fx.cards is not None:
                attacker, target = before.board[action.frm], before.board[action.to]
                assert attacker is not None and target is not None
                most = hit_threshold(attacker.kind, target.kind, before.ruleset, caps.TO_HIT_BONUS_CAP).value
                assert fx.threshold is not None and fx.threshold <= most, "to-hit capped at +25 (R20)"
                assert fx.cards.hit_damage() <= caps.DAMAGE_PER_HIT + caps.DAMAGE_BONUS_CAP, "+2 per hit (R20)"
                if fx.hit and fx.damage is not None:
                    assert fx.damage <= caps.DAMAGE_PER_HIT + caps.DAMAGE_BONUS_CAP
            if isinstance(action, Play | Activate):
                assert forbidden_in(pack.cards[names.index(action.card)]) is None, "core §8"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(sources=st.lists(card_sources(), min_size=1, max_size=3), seed=st.integers(0, 2**32 - 1))
def test_games_with_clean_cards_replay_clean(sources: list[str], seed: int) -> None:
    """R22, R23: a generated game with clean cards replays without a finding to the generator's state."""
    with tempfile.TemporaryDirectory() as folder:
        pack = _pack(sources, Path(folder))
        assume(pack is not None)
        assert pack is not None
        game = generate_game(seed, style=Style.AGGRESSIVE, max_turns=30, pack=pack)
        result = replay_text(format_log(game.items), "clean.sglog", ReplayOptions(pack=pack.shown))
        errors = [f"{d.code} {d.message}" for d in result.diagnostics if d.is_error]
        assert errors == []
        assert result.state is not None
        assert result.state == game.final
