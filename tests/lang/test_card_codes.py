"""The card-reading codes are entries of the one code catalogue (``sgcheck.codes``).

The card loaders (through ``sgcheck.lang.cards.input_codes``) and the contract registry take
code and severity from those entries; the readers below the loaders (the YAML tree, the input
limits) still write their codes as text, and these tests tie them to the catalogue.
"""

from __future__ import annotations

from sgcheck.codes import CATALOGUE, Trait
from sgcheck.contract.registry import Scope, all_rules, meta
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.cards import input_codes as card_codes
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.cards.yaml_loader import load_card_yaml
from sgcheck.lang.source import YAML_CARD_LIMIT
from sgcheck.lang.yaml import tree as yaml_tree


def test_registry_reads_codes_and_severities_from_the_catalogue() -> None:
    registered = {rule.meta.code for rule in all_rules() if rule.meta.scope is Scope.INPUT}
    assert registered == {entry.code for entry in card_codes.CARD_CODES}
    for entry in card_codes.CARD_CODES:
        assert entry is CATALOGUE[entry.code] and Trait.CONTRACT in entry.traits
        assert (meta(entry.code).code, meta(entry.code).severity) == (entry.code, entry.severity)


def test_readers_below_the_loaders_use_the_same_codes() -> None:
    written = (
        yaml_tree.YAML_SYNTAX,
        yaml_tree.YAML_ALIASES,
        yaml_tree.YAML_NESTING,
        yaml_tree.YAML_TOO_LARGE,
        YAML_CARD_LIMIT.code,
    )
    catalogue = (card_codes.YAML_SYNTAX, card_codes.YAML_ALIASES, card_codes.YAML_NESTING, card_codes.YAML_TOO_LARGE)
    assert written == (*(entry.code for entry in catalogue), card_codes.YAML_TOO_LARGE.code)


BAD_CARDS = ("relic Soul { }", 'spell "X" {\n  cost 2 SP\n', 'spell "X" { cost 2 SP é }', 'spell "X" passive { }', "")
BAD_YAML = ("cards: [ {name: X", "cards:\n  - {name: X, kind: spel}\n", "cards: []\n", "a: 1\na: 2\n")


def test_loaders_report_each_code_with_its_registered_severity() -> None:
    found: list[Diagnostic] = []
    for text in BAD_CARDS:
        found.extend(parse_cards(text, "x.sgcard").diagnostics)
    for text in BAD_YAML:
        found.extend(load_card_yaml(text, "x.sgcard.yaml").diagnostics)
    assert {d.code for d in found} >= {"SG-P020", "SG-P021", "SG-P022", "SG-P023", "SG-P024", "SG-P027", "SG-P028"}
    for diagnostic in found:
        assert diagnostic.severity is meta(diagnostic.code).severity, diagnostic
