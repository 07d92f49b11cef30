"""Shared test plumbing: the one switch for golden files.

Golden files (expected outputs, generated docs) are compared byte for byte. After an intended
change, run the tests once with ``SGCHECK_UPDATE_GOLDEN=1`` to rewrite them, then review the
diff. Every golden comparison goes through the ``golden`` fixture, so the switch means the same
thing everywhere.

With ``SGCHECK_TEST_INSTALLED=1`` the tests run the installed sgcheck rather than the checkout's
sources (:mod:`tests.installed`); the report's header names the sgcheck under test and its build.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests import installed

if installed.wanted():
    installed.use_installed()  # before any test imports sgcheck (tests/installed.py)

UPDATE_VARIABLE = "SGCHECK_UPDATE_GOLDEN"


class Golden:
    """Compares text with a golden file, or rewrites the file when updating."""

    def __init__(self, update: bool) -> None:
        self.update = update

    def check(self, path: Path, actual: str) -> None:
        """``path`` holds exactly ``actual`` (line ends included)."""
        if self.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8", newline="") as handle:
                handle.write(actual)
            return
        if not path.exists():
            pytest.fail(f"golden file {path} is missing; create it with {UPDATE_VARIABLE}=1")
        with path.open(encoding="utf-8", newline="") as handle:
            expected = handle.read()
        assert actual == expected, f"{path.name} differs from its golden file ({UPDATE_VARIABLE}=1 rewrites it)"

    def check_section(self, path: Path, marker: str, actual: str) -> None:
        """The generated part of ``path`` between ``<!-- marker:start … -->`` and ``<!-- marker:end -->``."""
        text = path.read_text(encoding="utf-8")
        name = re.escape(marker)
        pattern = re.compile(rf"(<!-- {name}:start[^\n]*-->\n)(.*?)(<!-- {name}:end -->)", re.S)
        match = pattern.search(text)
        assert match, f"{path.name} lost its generated '{marker}' markers"
        if self.update:
            path.write_text(text[: match.start(2)] + actual + text[match.end(2) :], encoding="utf-8")
            return
        assert match.group(2) == actual, f"the '{marker}' section of {path.name} is stale ({UPDATE_VARIABLE}=1)"


@pytest.fixture
def golden() -> Golden:
    return Golden(os.environ.get(UPDATE_VARIABLE) == "1")


def pytest_report_header() -> str:
    import sgcheck
    from sgcheck.build import describe

    return f"sgcheck under test: {Path(sgcheck.__file__ or '').parent} ({describe()})"
