"""A card path in the manifest points outside the pack folder: an absolute path, a path
climbing out with ``..`` (``../../etc/passwd``), or a symbolic link whose target lies
outside the pack; or an entry that does not name a card file (``.sgcard``, ``.sgcard.yaml``,
``.yaml``), such as ``.npmrc`` or ``.git/credentials``, which is never read. A pack must be
self-contained so that checking it never reads unrelated files; the entry is skipped.

Fails: ``cards: [../../etc/passwd]``, ``cards: [.npmrc]``. Passes: ``cards: [cards/relics.sgcard]``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C202",
    name="path-escapes-pack",
    severity=Severity.ERROR,
    enforces="a pack only reads files inside its own folder",
    rules=(),
    scope=Scope.PACKAGING,
)
