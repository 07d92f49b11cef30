"""``legal_actions`` agrees with ``apply``: everything listed is accepted (soundness), and a brute
force over every square and kind finds nothing legal that is not listed (completeness)."""

from __future__ import annotations

from collections.abc import Hashable, Iterator

import pytest

from sgcheck.core.actions import (
    Action,
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
from sgcheck.core.engine import is_legal
from sgcheck.core.legal import legal_actions, with_roll
from sgcheck.core.pieces import Kind, Phase
from sgcheck.core.ruleset import CORE, Ruleset, parse_ruleset
from sgcheck.core.squares import ALL_SQUARES
from sgcheck.core.state import GameState
from sgcheck.replay.generate import Style

from .helpers import HIT, MISS, ROLL_3, ROLL_18, ok, position, style_policy, walk

RULESETS: list[Ruleset] = [CORE, parse_ruleset("king_value=3; income=all")]


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


SAMPLES = list(sample_states())


def test_samples_cover_every_phase() -> None:
    assert {st.turn.phase for _, st in SAMPLES} == set(Phase)


@pytest.mark.parametrize("state", [st for _, st in SAMPLES], ids=[name for name, _ in SAMPLES])
def test_legal_actions_is_complete(state: GameState) -> None:
    listed = {_key(a) for a in legal_actions(state)}
    found = brute_force(state)
    assert found - listed == set(), "legal but not listed"
    assert listed - found == set(), "listed but not legal"


def test_nothing_is_listed_after_the_game_ends() -> None:
    st = position("Qd1 kd8 Ke1", phase=Phase.BATTLE, lp=100, king_damage=(0, 19))
    over = ok(st, Attack(ALL_SQUARES[3], ALL_SQUARES[59], HIT)).state
    assert over.result is not None
    assert list(legal_actions(over)) == []
