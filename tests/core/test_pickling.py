"""Everything the core models pickles, in the build that runs: `--jobs` and `--cluster` hand cards,
actions, rulesets and scenarios to other processes (sgcheck.distribute).

Compiled with mypyc, a frozen dataclass is a native class whose generated ``__setstate__`` goes
through the frozen ``__setattr__``; ``record.pickle_by_fields`` registers a reducer for each one
instead. CI runs these tests on the compiled build, where they fail without it.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
import pickle
import pkgutil
import random
from pathlib import Path

import pytest

import sgcheck.core
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.engine import apply
from sgcheck.core.legal import legal_actions
from sgcheck.core.outcome import Applied
from sgcheck.core.ruleset import CORE, parse_ruleset
from sgcheck.core.squares import parse_square
from sgcheck.core.state import initial_state
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.scenarios.scenario_loader import load_scenario

ROOT = Path(__file__).resolve().parents[2]

CORE_MODULES = sorted(
    info.name for info in pkgutil.walk_packages(sgcheck.core.__path__, "sgcheck.core.") if not info.ispkg
)


def round_trip(value: object) -> None:
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        again = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert again == value and type(again) is type(value)


@pytest.mark.parametrize("name", CORE_MODULES)
def test_every_dataclass_of_the_core_pickles_by_its_fields(name: str) -> None:
    module = importlib.import_module(name)
    for value in vars(module).values():
        if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == name:
            assert value in copyreg.dispatch_table, f"{name}.{value.__name__}: call pickle_by_fields(globals())"
            assert all(field.init for field in dataclasses.fields(value)), f"{value.__name__}: a field outside __init__"


def test_cards_pickle() -> None:
    """Every card of the shipped examples and of the design corpus, as parsed."""
    files = [*ROOT.glob("examples/**/*.sgcard"), *ROOT.glob("tests/contract/corpus/**/*.sgcard")]
    assert len(files) > 100
    for path in files:
        for card in parse_cards(path.read_text(encoding="utf-8"), path.name).cards:
            round_trip(card)


def test_a_game_state_with_cards_pickles() -> None:
    """A state with a pack's cards dealt and one in play crosses to another process (`--jobs`):
    the cards' table rebuilds itself from its cards, in the compiled build too."""
    path = ROOT / "examples/logs/relic-pack/guide-relics.sgcard"
    cards = parse_cards(path.read_text(encoding="utf-8"), path.name).cards
    assert len(cards) >= 2
    table = CardsByName(cards)
    round_trip(table)
    names = tuple(card.name for card in cards)
    state = initial_state(parse_square("e1"), parse_square("e8"))
    state = state.replace(cards=new_cards(table, names, names))
    round_trip(state)
    again = pickle.loads(pickle.dumps(state))
    assert list(again.cards.by_name) == list(names)
    assert hash(again.cards.by_name) == hash(table)


def test_actions_rulesets_and_scenarios_pickle() -> None:
    state = initial_state(parse_square("e1"), parse_square("e8"))
    rng = random.Random(3)
    for _ in range(40):
        actions = list(legal_actions(state))
        for action in actions:
            round_trip(action)
        step = apply(state, rng.choice(actions))
        assert isinstance(step, Applied)
        state = step.state
    round_trip(CORE)
    round_trip(parse_ruleset("king_value=3"))
    for path in ROOT.glob("examples/scenarios/*.scenario.yaml"):
        loaded = load_scenario(path.read_text(encoding="utf-8"), path.name)
        if loaded.scenario is not None:
            round_trip(loaded.scenario)
