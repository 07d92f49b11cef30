"""The ``[tool.sgcheck]`` table of ``pyproject.toml`` (or the file given with ``--config``)
cannot be used: the TOML is invalid, a key is unknown, a code does not exist or cannot
be disabled (card syntax errors are always reported), or a severity is not one of
error, warning, note. The rest of the configuration still applies.

Fails: ``disable = ["SG-C999"]``. Passes: ``disable = ["SG-C120"]``.
"""

from __future__ import annotations

from sgcheck.contract.registry import RuleMeta, Scope
from sgcheck.diagnostics import Severity

META = RuleMeta(
    code="SG-C210",
    name="bad-config",
    severity=Severity.ERROR,
    enforces="a valid [tool.sgcheck] configuration",
    rules=(),
    scope=Scope.PACKAGING,
)
