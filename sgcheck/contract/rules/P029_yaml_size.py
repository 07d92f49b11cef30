"""The YAML card file is larger than 4,000,000 bytes. YAML cards are meant for
hand-written data files; the YAML reader is pure Python and would take minutes on a file
of tens of megabytes, so sgcheck refuses it before reading. Large packs belong in the
``.sgcard`` language, which reads 10,000 cards in about a second.

Fails: a 5 MB YAML file. Passes: any hand-written card file.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.lang.cards.input_codes import YAML_TOO_LARGE

META = RuleMeta(
    code=YAML_TOO_LARGE.code,
    name="yaml-too-large",
    severity=YAML_TOO_LARGE.severity,
    enforces="bounded YAML input size",
    rules=(),
    scope=Scope.INPUT,
)
