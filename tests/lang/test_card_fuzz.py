"""Hypothesis fuzzing: no text makes the card parser or the YAML loader raise (never a traceback)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.core.cards.model import CardFile
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.cards.yaml_loader import load_card_yaml

WORDS = [
    "relic",
    "spell",
    "passive",
    "activated",
    "{",
    "}",
    "cost",
    "phase",
    "text",
    "effect",
    "on",
    "at",
    ":",
    "gain",
    "lose",
    "steal",
    "SP",
    "LP",
    "to_hit",
    "damage",
    "+10",
    "-2",
    "3",
    "999999999999",
    "when",
    "and",
    "attacker",
    "target",
    "is",
    "not",
    "Knight",
    "King",
    "pieces",
    "distance",
    "<=",
    "=",
    "own",
    "enemy",
    "gem",
    "broken",
    "this",
    "attack",
    "turn",
    "for",
    "turns",
    "limit",
    "once",
    "per",
    "game",
    "extra",
    "phase",
    "movement",
    "set",
    "value.rook",
    "to",
    "deny",
    "repair",
    "deal",
    "capture",
    "reroll",
    "accuracy",
    "times",
    "equal",
    "/",
    "x",
    "unlimited",
    '"Name"',
    '"',
    "#",
    "\n",
    "\t",
    "é",
    "\x00",
    "\r\n",
    "upkeep",
]

cards_text = st.lists(st.sampled_from(WORDS), max_size=60).map(" ".join)


def _consistent(parsed: CardFile) -> None:
    for diagnostic in parsed.diagnostics:
        assert diagnostic.span is not None and diagnostic.span.line >= 1 and diagnostic.span.column >= 1
    for card in parsed.cards:
        assert card.name.strip()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_parser_survives_any_text(text: str) -> None:
    _consistent(parse_cards(text, "fuzz.sgcard"))


@settings(max_examples=400, deadline=None)
@given(cards_text)
def test_parser_survives_keyword_soup(text: str) -> None:
    _consistent(parse_cards(text, "fuzz.sgcard"))


@settings(max_examples=200, deadline=None)
@given(st.lists(cards_text, min_size=1, max_size=4))
def test_good_cards_survive_bad_neighbours(bodies: list[str]) -> None:
    text = "".join(
        f'spell "Bad {i}" {{ {body} }}\nspell "Good {i}" {{ cost 1 SP effect gain 1 SP }}\n'
        for i, body in enumerate(bodies)
    )
    parsed = parse_cards(text, "fuzz.sgcard")
    names = {card.name for card in parsed.cards}
    assert {f"Good {i}" for i in range(len(bodies))} <= names


yaml_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=12),
    st.sampled_from(["relic", "spell", "SP", "own King", "main1", "unlimited"]),
)
yaml_values = st.recursive(
    yaml_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                ["name", "kind", "cost", "effects", "gain", "to_hit", "when", "on", "amount", "resource", "x"]
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_yaml_loader_survives_any_text(text: str) -> None:
    _consistent(load_card_yaml(text, "fuzz.yaml"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(yaml_values, max_size=3))
def test_yaml_loader_survives_any_card_shape(cards: list[object]) -> None:
    import io

    from ruamel.yaml import YAML

    stream = io.StringIO()
    YAML(typ="safe", pure=True).dump({"cards": cards}, stream)
    _consistent(load_card_yaml(stream.getvalue(), "fuzz.yaml"))
