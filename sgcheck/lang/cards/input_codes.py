"""The codes (and severities) reported while reading card files: ``SG-P020``-``SG-P029``.

The one place they are written. The card loaders (``cards/parser.py``, ``cards/yaml_loader.py``) build
their diagnostics from these, and the contract registry's ``META`` of each code
(``contract/rules/P02x_*.py``) takes its code and severity from here, so the two cannot drift
apart. It sits in ``lang`` because the loaders report these codes and ``lang`` never imports
the contract checker above it; names, explanations and what each code enforces stay in the
registry.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.diagnostics import Severity


@dataclass(frozen=True, slots=True)
class CardCode:
    code: str
    severity: Severity


SYNTAX_ERROR = CardCode("SG-P020", Severity.ERROR)
UNEXPECTED_END = CardCode("SG-P021", Severity.ERROR)
UNEXPECTED_CHARACTER = CardCode("SG-P022", Severity.ERROR)
CARD_STRUCTURE = CardCode("SG-P023", Severity.ERROR)
YAML_SYNTAX = CardCode("SG-P024", Severity.ERROR)
YAML_ALIASES = CardCode("SG-P025", Severity.ERROR)
YAML_NESTING = CardCode("SG-P026", Severity.ERROR)
SCHEMA_ERROR = CardCode("SG-P027", Severity.ERROR)
NO_CARDS = CardCode("SG-P028", Severity.WARNING)
YAML_TOO_LARGE = CardCode("SG-P029", Severity.ERROR)

#: Every card-reading code, in code order.
CARD_CODES: tuple[CardCode, ...] = (
    SYNTAX_ERROR,
    UNEXPECTED_END,
    UNEXPECTED_CHARACTER,
    CARD_STRUCTURE,
    YAML_SYNTAX,
    YAML_ALIASES,
    YAML_NESTING,
    SCHEMA_ERROR,
    NO_CARDS,
    YAML_TOO_LARGE,
)
