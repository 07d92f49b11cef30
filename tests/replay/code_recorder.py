"""A pytest plugin that records, test by test, the codes of the findings built while each test
runs: ``python -m pytest -p tests.replay.code_recorder TESTS`` with ``SGCHECK_CODES_RECORD`` set
to a file writes that file, a JSON object of each test's node id to its outcome and codes.

It lets ``tests/replay/test_code_cases.py`` see that the test named for a code without an
example case really produces the code, not only names it."""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

_CODES: dict[str, set[str]] = {}
_OUTCOMES: dict[str, str] = {}
_RUNNING: list[str] = []


def pytest_collection_finish(session: pytest.Session) -> None:
    # after collection: the tests' own imports (and tests/conftest.py) chose which sgcheck runs
    from sgcheck import diagnostics

    built = diagnostics.Diagnostic.__init__

    def recording(self: diagnostics.Diagnostic, *args: Any, **kwargs: Any) -> None:
        built(self, *args, **kwargs)
        if _RUNNING:
            _CODES[_RUNNING[-1]].add(self.code)

    diagnostics.Diagnostic.__init__ = recording  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    _RUNNING.append(item.nodeid)
    _CODES.setdefault(item.nodeid, set())
    try:
        return (yield)
    finally:
        _RUNNING.pop()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        _OUTCOMES[report.nodeid] = report.outcome


def pytest_unconfigure(config: pytest.Config) -> None:
    target = os.environ.get("SGCHECK_CODES_RECORD")
    if target:
        found = {
            node: {"outcome": outcome, "codes": sorted(_CODES.get(node, ()))} for node, outcome in _OUTCOMES.items()
        }
        Path(target).write_text(json.dumps(found, indent=1), encoding="utf-8")
