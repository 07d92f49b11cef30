"""Property tests over random games (hypothesis): conservation, non-negative funds, King damage only
grows, generated logs replay to the same final state, and no action ever makes ``apply`` raise."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.codes import CATALOGUE
from sgcheck.core import caps
from sgcheck.core.actions import (
    Action,
    Activate,
    Attack,
    Break,
    Convert,
    EndTurn,
    EnterPhase,
    Move,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied, Rejected
from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.ruleset import CORE, Ruleset, parse_ruleset
from sgcheck.core.squares import ALL_SQUARES
from sgcheck.core.state import GameState, Payment, piece_census
from sgcheck.replay.generate import Claims, Style, choose, generate_game
from sgcheck.replay.interpreter import replay_items

from .helpers import full_census, game_rngs, noting_actions, pick_legal, random_start, walk

#: ``generate_game`` makes its own ``random.Random`` from a seed, so that test draws a seed; its
#: turns, style, claims and ruleset shrink. The other random games draw :func:`game_rngs`.
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
RULESETS = st.sampled_from([CORE, parse_ruleset("king_value=2; income=all"), parse_ruleset("turn_limit=12")])
FULL = full_census()


def check_invariants(before: GameState, after: GameState) -> None:
    """What must hold after every legal step."""
    assert piece_census(after) == FULL, "pieces are never created or lost"
    for color in Color:
        player = after.player(color)
        assert player.lp >= 0 and player.sp >= 0, f"{color.title} LP/SP negative"
        assert player.king_damage >= before.player(color).king_damage, "King damage never clears (R11)"
        assert player.king_damage <= caps.KING_HP
        assert after.king_square(color) is not None, "a King never leaves the board"
    assert after.turn.activations <= caps.ACTIVATIONS_PER_TURN
    assert after.turn.converted_sp <= caps.CONVERSION_CAP_SP
    if before.result is not None:
        raise AssertionError("a step was applied after the game ended")


def drive(state: GameState, rng: random.Random, style: Style | None, steps: int) -> GameState:
    """Play ``steps`` legal actions (the generator's ``style`` policy, or uniform over kinds when None)."""
    played: list[tuple[GameState, Action]] = []
    with noting_actions(played):
        for _ in range(steps):
            if state.result is not None:
                break
            action = pick_legal(state, rng) if style is None else choose(state, style, rng)
            assert action is not None
            played.append((state, action))
            step = apply(state, action)
            assert isinstance(step, Applied), (action, step)
            check_invariants(state, step.state)
            state = step.state
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=game_rngs(), style=st.sampled_from([None, *Style]), ruleset=RULESETS)
def test_invariants_hold_at_every_step(rng: random.Random, style: Style | None, ruleset: Ruleset) -> None:
    drive(random_start(rng, ruleset), rng, style, steps=400)


@settings(max_examples=40, deadline=None)
@given(rng=game_rngs())
def test_invariants_hold_for_rich_players(rng: random.Random) -> None:
    """With 200 LP each every kind of action (Break, Teleport, big summons) gets played."""
    played: list[tuple[GameState, Action]] = []
    with noting_actions(played):
        for state, action, step in walk(rng, steps=300, rich=True):
            played.append((state, action))
            check_invariants(state, step.state)


@settings(max_examples=120, deadline=None)
@given(
    rng=game_rngs(),
    style=st.sampled_from(list(Style)),
    claims=st.sampled_from(list(Claims)),
    ruleset=RULESETS,
    max_turns=st.integers(min_value=1, max_value=40),
)
def test_generated_games_replay_clean_to_the_same_state(
    rng: random.Random, style: Style, claims: Claims, ruleset: Ruleset, max_turns: int
) -> None:
    game = generate_game(rng, style=style, claims=claims, max_turns=max_turns, ruleset=ruleset)
    result = replay_items(game.items, "gen")
    errors = [f"{d.code} {d.message}" for d in result.diagnostics if d.is_error]
    assert errors == []
    assert result.ok and not result.stopped
    assert result.state == game.final
    assert piece_census(game.final) == FULL


# --- random (mostly illegal) actions ------------------------------------------------------------


def _pool() -> list[GameState]:
    states: list[GameState] = []
    for seed in range(6):
        for i, (state, _, _) in enumerate(walk(seed, steps=150, rich=seed % 2 == 0)):
            if i % 10 == 0:
                states.append(state)
    return states


POOL = _pool()

squares = st.sampled_from(ALL_SQUARES)
kinds = st.sampled_from(list(Kind))
maybe_kind = st.none() | kinds
amount = st.integers(min_value=-5, max_value=60)
payments = st.none() | st.builds(Payment, sp=amount, lp=amount)
dice = st.lists(st.integers(min_value=-2, max_value=12), min_size=0, max_size=4).map(tuple)
phases = st.sampled_from(list(Phase))

actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Summon, kinds, squares, payments),
    st.builds(Move, squares, squares, st.none() | squares, maybe_kind, payments),
    st.builds(Attack, squares, squares, dice, maybe_kind, maybe_kind, payments),
    st.builds(Convert, amount),
    st.builds(Teleport, squares, squares, maybe_kind, payments),
    st.builds(Break, dice, payments),
    st.builds(Repair, dice, payments),
    st.builds(Activate, st.text(max_size=8), payments),
    st.builds(EnterPhase, phases),
    st.just(EndTurn()),
)


@settings(max_examples=4000, deadline=None)
@given(index=st.integers(min_value=0, max_value=len(POOL) - 1), phase=st.none() | phases, action=actions)
def test_apply_never_raises(index: int, phase: Phase | None, action: Action) -> None:
    state = POOL[index]
    if phase is not None:
        state = state.with_turn(state.turn.with_phase(phase))
    step = apply(state, action)
    assert isinstance(step, Applied | Rejected)
    if isinstance(step, Rejected):
        assert step.violations
        for v in step.violations:
            assert v.diagnostic.code in CATALOGUE
            assert v.diagnostic.message
        return
    assert piece_census(step.state) == FULL
    for color in Color:
        assert step.state.player(color).lp >= 0 and step.state.player(color).sp >= 0
