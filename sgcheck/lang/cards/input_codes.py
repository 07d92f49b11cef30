"""The codes reported while reading card files, ``SG-P020``-``SG-P029``, by the names the card
loaders (``cards/parser.py``, ``cards/yaml_loader.py``) use for them.

Each is the entry of the code catalogue (:data:`sgcheck.codes.CATALOGUE`), which holds its
severity, name, explanation and what it enforces; nothing about them is written here.
"""

from __future__ import annotations

from sgcheck.codes import CATALOGUE, CodeInfo

SYNTAX_ERROR = CATALOGUE["SG-P020"]
UNEXPECTED_END = CATALOGUE["SG-P021"]
UNEXPECTED_CHARACTER = CATALOGUE["SG-P022"]
CARD_STRUCTURE = CATALOGUE["SG-P023"]
YAML_SYNTAX = CATALOGUE["SG-P024"]
YAML_ALIASES = CATALOGUE["SG-P025"]
YAML_NESTING = CATALOGUE["SG-P026"]
SCHEMA_ERROR = CATALOGUE["SG-P027"]
NO_CARDS = CATALOGUE["SG-P028"]
YAML_TOO_LARGE = CATALOGUE["SG-P029"]

#: Every card-reading code, in code order.
CARD_CODES: tuple[CodeInfo, ...] = (
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
