"""The ``[tool.sgcheck]`` table of ``pyproject.toml`` (or the file given with ``--config``)
cannot be used: the TOML is invalid, a key is unknown, a code does not exist or cannot
be disabled (card syntax errors are always reported), or a severity is not one of
error, warning, note. A near miss gets a suggestion (did you mean 'exclude'?). The rest of
the configuration still applies to the run, which then exits 2 (as ruff does with an invalid
configuration), whatever --exit-zero says; fmt reports it and formats nothing.

Fails: ``disable = ["SG-C999"]``. Passes: ``disable = ["SG-C120"]``.
"""

from __future__ import annotations

from sgcheck.config import CONFIG_PROBLEM, CONFIG_PROBLEM_SEVERITY
from sgcheck.contract.registry import RuleMeta, Scope

META = RuleMeta(
    code=CONFIG_PROBLEM,
    name="bad-config",
    severity=CONFIG_PROBLEM_SEVERITY,
    enforces="a valid [tool.sgcheck] configuration",
    rules=(),
    scope=Scope.PACKAGING,
)
