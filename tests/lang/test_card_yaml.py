"""YAML cards: safe positioned loading, schema errors at line:col, and one model for both forms."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from sgcheck.core.cards import model as A
from sgcheck.core.parameters import PARAMETERS
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.cards.yaml_loader import load_card_yaml
from sgcheck.lang.yaml.tree import MAX_DEPTH, compose

ROOT = Path(__file__).resolve().parents[2]


def without_spans(value: Any) -> Any:
    """A card model as plain data, spans and flavour text left out (they differ between forms)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: without_spans(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in ("span", "name_span", "text", "word")
        }
    if isinstance(value, (tuple, list)):
        return [without_spans(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(value)
    return value


def test_guide_cards_load_the_same_from_both_forms() -> None:
    dsl = parse_cards((ROOT / "examples/cards/guide-relics.sgcard").read_text(encoding="utf-8"), "a")
    yml = load_card_yaml((ROOT / "examples/cards/guide-relics.sgcard.yaml").read_text(encoding="utf-8"), "b")
    assert not dsl.diagnostics and not yml.diagnostics
    assert [c.name for c in dsl.cards] == [
        "Soul Ward",
        "Temporal Rift",
        "Soul Drain",
        "Mirror Barrier",
        "Arcane Surge",
        "Spirit Exchange",
    ]
    assert without_spans(dsl.cards) == without_spans(yml.cards)


def test_yaml_spans_are_yaml_positions() -> None:
    text = "cards:\n  - name: X\n    kind: spell\n    cost: 2\n    effects:\n      - steal: {amount: 5, resource: SP}\n"
    (card,) = load_card_yaml(text, "c.yaml").cards
    assert (card.span.line, card.span.column) == (2, 5)
    assert (card.name_span.line, card.name_span.column) == (2, 11)
    assert (card.effects[0].span.line, card.effects[0].span.column) == (6, 9)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("cards:\n  - {name: X, kind: spel}\n", 2, 21, "not one of"),
        ("cards:\n  - name: X\n    kind: spell\n    cots: 1\n", 4, 5, "unknown key 'cots'; did you mean 'cost'"),
        ("cards:\n  - name: X\n    kind: spell\n    effects:\n      - {to_hit: ten}\n", 5, 18, "whole number"),
        ("cards:\n  - name: X\n    kind: spell\n", 0, 0, ""),
        ("card: []\n", 1, 1, "unknown key 'card'; did you mean 'cards'"),
    ],
)
def test_schema_errors_point_at_the_yaml(text: str, line: int, column: int, words: str) -> None:
    loaded = load_card_yaml(text, "c.yaml")
    if not words:
        assert not loaded.diagnostics and len(loaded.cards) == 1
        return
    first = next(d for d in loaded.diagnostics if words in d.message)
    assert first.code == "SG-P027"
    assert (first.span.line, first.span.column) == (line, column), first.message


def test_a_bad_card_does_not_hide_the_others() -> None:
    text = (
        "cards:\n  - {name: A, kind: spel}\n  - {name: B, kind: spell, cost: 1}\n"
        "  - {name: C, kind: relic, mode: instant}\n"
    )
    loaded = load_card_yaml(text, "c.yaml")
    assert [c.name for c in loaded.cards] == ["B"]
    assert [d.code for d in loaded.diagnostics] == ["SG-P027", "SG-P023"]
    assert loaded.diagnostics[0].context == (("card", "A"),)


def test_safe_loading_refuses_python_tags() -> None:
    loaded = load_card_yaml("cards: !!python/object/apply:os.system ['echo hi']\n", "c.yaml")
    assert [d.code for d in loaded.diagnostics] == ["SG-P024"]


def test_alias_bomb_is_refused_quickly() -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    result = compose("\n".join(lines) + "\n", "bomb.yaml")
    assert not hasattr(result, "value") and result.code == "SG-P025"  # type: ignore[union-attr]


def test_too_many_aliases_are_refused() -> None:
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * 150) + "]\n"
    result = compose(text, "x.yaml")
    assert getattr(result, "code", None) == "SG-P025"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 10_000])
def test_deep_nesting_is_refused(depth: int) -> None:
    flow = compose("cards: " + "[" * depth + "]" * depth, "deep.yaml")
    assert getattr(flow, "code", None) == "SG-P026"
    block = compose("".join("  " * i + "k:\n" for i in range(depth if depth < 500 else 500)), "deep.yaml")
    assert getattr(block, "code", None) == "SG-P026"


def test_merge_keys_duplicates_and_scalars() -> None:
    node = compose("d: &d {x: 1, y: 2}\nm:\n  <<: *d\n  x: 5\nn: [0x1F, 1.5, yes, on, ~, true]\n", "x.yaml")
    assert not isinstance(node, type(None)) and hasattr(node, "plain")
    assert node.plain()["m"] == {"x": 5, "y": 2}  # type: ignore[union-attr]
    assert node.plain()["n"] == [31, 1.5, "yes", "on", None, True]  # type: ignore[union-attr]
    duplicate = compose("a: 1\na: 2\n", "x.yaml")
    assert getattr(duplicate, "code", None) == "SG-P024"


def test_the_schemas_are_valid_draft_2020_12_and_list_every_parameter() -> None:
    for name in ("card.schema.json", "pack.schema.json"):
        schema = json.loads((ROOT / "schemas" / name).read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    card = json.loads((ROOT / "schemas/card.schema.json").read_text(encoding="utf-8"))
    listed = card["$defs"]["effect"]["properties"]["set"]["properties"]["parameter"]["enum"]
    assert sorted(listed) == sorted(PARAMETERS)


def test_every_dsl_effect_kind_has_a_yaml_spelling() -> None:
    card = json.loads((ROOT / "schemas/card.schema.json").read_text(encoding="utf-8"))
    actions = {branch["required"][0] for branch in card["$defs"]["effect"]["oneOf"]}
    model_actions = {cls.__name__ for cls in A.Action.__args__}  # type: ignore[attr-defined]
    assert len(actions) == len(model_actions) + 1  # gain and lose both make a ResourceChange


def test_examples_in_the_language_reference_are_valid() -> None:
    """docs/cards.md: every YAML card example validates and every .sgcard card example parses."""
    import re

    doc = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    yaml_blocks = [b for b in re.findall(r"```yaml\n(.*?)```", doc, re.S) if "cards:" in b and "version:" not in b]
    text_blocks = [b for b in re.findall(r"```text\n(.*?)```", doc, re.S) if re.search(r"^(relic|spell) ", b, re.M)]
    assert yaml_blocks and text_blocks
    for block in yaml_blocks:
        loaded = load_card_yaml(block, "doc.yaml")
        assert loaded.cards and not loaded.diagnostics, [d.message for d in loaded.diagnostics]
    for block in text_blocks:
        parsed = parse_cards(block, "doc.sgcard")
        assert parsed.cards and not parsed.diagnostics, [d.message for d in parsed.diagnostics]
