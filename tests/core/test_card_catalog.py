"""The card language described once (``sgcheck.core.cards.catalog``), and everything that reads it
or is checked against it: the model, both parsers, both writers, the YAML loader, the Lark grammar,
the editors' TextMate grammar and docs/cards.md (the issue's item 5: one semantics).

A new effect in the model without a row in the catalogue fails here; a row whose wording the
parsers do not read, a YAML key the loader does not know, a word the editors do not highlight or a
row docs/cards.md does not have fails here too.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest

from sgcheck.core.cards import catalog, effects
from sgcheck.core.cards.model import Condition, DurationKind, Event, Predicate
from sgcheck.lang.cards import yaml_loader
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.cards.writer import SGCARD_WRITERS, YAML_WRITERS, effect_data, effect_text
from tests.editors.textmate import Grammar, tokenize

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
LARK = (ROOT / "grammar" / "sgcard.lark").read_text(encoding="utf-8")
TEXTMATE = ROOT / "editors" / "textmate" / "sgcard.tmLanguage.json"
#: the card language's TextMate grammar and the VS Code extension's copy of it
SGCARD_GRAMMARS = [TEXTMATE, ROOT / "editors" / "vscode" / "syntaxes" / "sgcard.tmLanguage.json"]
SGLOG_GRAMMARS = [
    ROOT / "editors" / "textmate" / "sglog.tmLanguage.json",
    ROOT / "editors" / "vscode" / "syntaxes" / "sglog.tmLanguage.json",
]
IDS = [kind.action.__name__ for kind in catalog.EFFECTS]


def parsed_effect(text: str) -> effects.Action:
    card = parse_cards(f'spell "Probe" {{ cost free effect {text} }}', "catalog.sgcard")
    assert card.diagnostics == (), card.diagnostics
    return card.cards[0].effects[0].action


def test_every_action_of_the_model_has_one_row() -> None:
    """The model's union of actions and the catalogue list the same classes, each once."""
    assert {kind.action for kind in catalog.EFFECTS} == set(typing.get_args(effects.Action))
    assert len(IDS) == len(set(IDS))


@pytest.mark.parametrize("kind", catalog.EFFECTS, ids=IDS)
def test_each_rows_wording_parses_to_its_class_and_both_writers_write_it_back(kind: catalog.EffectKind) -> None:
    """The example parses to the row's class, starts with one of its words, and both writers
    (``.sgcard`` and YAML) write it with the row's words and YAML key."""
    action = parsed_effect(kind.example)
    assert type(action) is kind.action
    assert catalog.effect_kind(action) is kind
    assert kind.example.split()[0] in kind.words
    assert kind.action in SGCARD_WRITERS and kind.action in YAML_WRITERS
    card = parse_cards(f'spell "Probe" {{ cost free effect {kind.example} }}', "catalog.sgcard").cards[0]
    written = effect_text(card.effects[0])
    again = parse_cards(f'spell "Probe" {{ cost free {written} }}', "catalog.sgcard").cards[0]
    assert type(again.effects[0].action) is kind.action and effect_text(again.effects[0]) == written
    data = effect_data(card.effects[0])
    assert set(data) & set(kind.yaml), (data, kind.yaml)


def test_the_yaml_loader_reads_exactly_the_catalogued_keys() -> None:
    catalogued = {key for kind in catalog.EFFECTS for key in kind.yaml}
    assert set(yaml_loader._ACTIONS) == catalogued


def test_the_card_schema_names_exactly_the_catalogued_keys() -> None:
    schema = (ROOT / "schemas" / "card.schema.json").read_text(encoding="utf-8")
    for kind in catalog.EFFECTS:
        for key in kind.yaml:
            assert f'"{key}"' in schema, key


def test_the_lark_grammar_has_every_word() -> None:
    """Each word that opens an effect is a literal of grammar/sgcard.lark."""
    for kind in catalog.EFFECTS:
        for word in kind.words:
            assert f'"{word}"' in LARK, (kind.row, word)
    for spec in catalog.TRIGGERS:
        assert f'"{spec.words.split()[1]}"' in LARK or spec.event in (Event.PHASE, *_RESOURCE_EVENTS), spec


_RESOURCE_EVENTS = (Event.GAIN_SP, Event.GAIN_LP, Event.LOSE_SP, Event.LOSE_LP)


def _action_words(path: Path) -> set[str]:
    grammar = json.loads(path.read_text(encoding="utf-8"))
    for rule in grammar["repository"]["keywords"]["patterns"]:
        if rule["name"] == "keyword.other.action.sgcard":
            found = re.search(r"\(\?:([^)]*)\)", rule["match"])
            assert found is not None
            return set(found.group(1).split("|"))
    raise AssertionError("no action keywords in the TextMate grammar")


@pytest.mark.parametrize("path", SGCARD_GRAMMARS, ids=lambda p: p.parent.name)
def test_the_textmate_action_keywords_are_the_catalogues_words(path: Path) -> None:
    """Both copies of the ``.sgcard`` TextMate grammar highlight as an action exactly the words
    that open an effect (``cost`` is the clause keyword it also is)."""
    words = {word for kind in catalog.EFFECTS for word in kind.words}
    assert _action_words(path) == words - {"cost"}


@pytest.mark.parametrize("path", SGLOG_GRAMMARS, ids=lambda p: p.parent.name)
def test_the_log_grammars_highlight_the_words_a_log_writes_for_an_effect(path: Path) -> None:
    """What a card grants that a log writes (``reroll``/``advantage`` after an attack's dice) is a
    keyword of the log's TextMate grammars and a terminal of grammar/sglog.lark."""
    log_lark = (ROOT / "grammar" / "sglog.lark").read_text(encoding="utf-8").lower()
    grammar = Grammar.load(path)
    for kind in catalog.EFFECTS:
        for word in kind.logged:
            assert f"/{word}(" in log_lark, word
            text = f"1.   battle: attack Ra3 Pa5 roll 9 9 {word} 0 1 hit"
            line = tokenize(grammar, text)[0]
            scopes = line[text.index(f" {word} ") + 1]
            assert any(scope.startswith("keyword.") for scope in scopes), (word, scopes)


def _wordings() -> list[str]:
    out = [kind.example for kind in catalog.EFFECTS]
    out += [f"{spec.words}: gain 1 SP" for spec in catalog.TRIGGERS]
    out += [f"to_hit +5 {spec.words}" for spec in catalog.DURATIONS]
    out += [f"to_hit +5 when {spec.example}" for spec in catalog.PREDICATES]
    out += [f"to_hit +5 {words}" for _, words in catalog.LIMITS]
    return out


@pytest.mark.parametrize("path", SGCARD_GRAMMARS, ids=lambda p: p.parent.name)
@pytest.mark.parametrize("wording", _wordings())
def test_the_editors_highlight_every_word_of_every_catalogued_wording(wording: str, path: Path) -> None:
    """Each wording of the catalogue parses, and the TextMate grammar gives each of its words a
    scope of the language (a keyword, a piece, a unit, a number, a parameter), none invalid."""
    parsed_effect(wording)
    grammar = Grammar.load(path)
    text = f'spell "Probe" {{ cost free effect {wording} }}'
    line = tokenize(grammar, text)[0]
    for match in re.finditer(r"[A-Za-z_][\w.-]*|[+-]?\d+", text):
        scopes = line[match.start()]
        assert len(scopes) > 1, (match.group(), scopes)
        assert not any(s.startswith("invalid") for s in scopes), (match.group(), scopes)


def test_docs_cards_md_has_a_row_for_every_entry() -> None:
    """docs/cards.md's tables of actions, triggers, conditions and durations hold every entry."""
    for kind in catalog.EFFECTS:
        assert f"\n| {kind.row} |" in DOCS, kind.row
    for spec in catalog.TRIGGERS:
        assert f"`{spec.words}:`" in DOCS, spec.words
    for predicate in catalog.PREDICATES:
        assert f"\n| {predicate.row} |" in DOCS, predicate.row
    for duration in catalog.DURATIONS:
        assert f"`{duration.words}`" in DOCS or duration.kind is DurationKind.TURNS, duration.words
    assert "`for 2 turns`" in DOCS and "`for N turns`" in DOCS
    for _, words in catalog.LIMITS:
        assert f"`{words}`" in DOCS or words.replace("limit ", "") in DOCS


def test_every_duration_kind_and_event_is_catalogued() -> None:
    assert {spec.kind for spec in catalog.DURATIONS} == set(DurationKind)
    assert {spec.event for spec in catalog.TRIGGERS} == set(Event)
    assert {spec.predicate for spec in catalog.PREDICATES} == set(typing.get_args(Predicate))


def test_a_condition_reads_each_predicate_example() -> None:
    for spec in catalog.PREDICATES:
        card = parse_cards(f'spell "P" {{ cost free effect to_hit +5 when {spec.example} }}', "p.sgcard").cards[0]
        condition = card.effects[0].condition
        assert isinstance(condition, Condition) and type(condition.predicates[0]) is spec.predicate
