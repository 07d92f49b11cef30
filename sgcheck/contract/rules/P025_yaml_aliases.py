"""The YAML file uses too many aliases, an alias that contains itself, or aliases that
would expand to too many nodes. An "alias bomb" (anchors of lists of aliases of
anchors...) turns a few hundred bytes into billions of values; sgcheck counts aliases
(at most 100) and the expanded size (at most 200,000 nodes, each alias counting every
node it stands for) while reading and stops before expanding anything. The node count
also bounds a plain file without aliases: split one that large into several card files.

Fails: nine levels of ``&a [*b, *b, ...]``. Passes: a few ``<<: *defaults`` merges.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import YAML_ALIASES

META = RuleMeta(
    code=YAML_ALIASES.code,
    name="yaml-alias-limit",
    severity=YAML_ALIASES.severity,
    enforces="bounded YAML aliases (no alias bomb)",
    rules=(),
    scope=Scope.INPUT,
)
