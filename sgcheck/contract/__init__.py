"""The contract checker: are Relic & Spell cards within the caps and the core §8 contract?

Library entry points (the CLI stays a thin wrapper around them):

* :func:`check_paths` - check packs and card files, returning a report ``Run``;
* :func:`code_catalogue` - every contract and card-file code with its explanation;
* :func:`load_config` / :func:`find_pyproject` - the ``[tool.sgcheck]`` settings (read by
  :mod:`sgcheck.config`, below this package; here with the contract's codes to check them against).

Imports are deferred so that ``sgcheck --help`` and ``sgcheck explain`` stay fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sgcheck.codes import CodeInfo
    from sgcheck.config import Config
    from sgcheck.results import Run

__all__ = ["check_paths", "code_catalogue", "find_pyproject", "load_config"]


def check_paths(paths: Sequence[str], config: Config | None = None) -> Run:
    """Check every pack and card file under ``paths`` (see :mod:`sgcheck.contract.checker`)."""
    from sgcheck.contract.checker import check_paths as run

    return run(paths, config)


def code_catalogue() -> dict[str, CodeInfo]:
    """Metadata and explanation of every ``SG-C``/``SG-P02x`` code (for explain and SARIF)."""
    from sgcheck.contract.registry import code_catalogue as catalogue

    return catalogue()


def load_config(path: Path | None, shown: str | None = None) -> Config:
    """:func:`sgcheck.config.load_config`, the settings' codes checked against the contract's."""
    from sgcheck.config import load_config as load

    return load(path, shown, codes=code_catalogue())


def find_pyproject(start: Path) -> Path | None:
    from sgcheck.config import find_pyproject as find

    return find(start)
