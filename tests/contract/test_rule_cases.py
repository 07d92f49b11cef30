"""Every rule's pass/fail cases (sgcheck/contract/rules/cases/<CODE>.yaml).

A "fail" case must report the code, a "pass" case must not. The case names cite the rule
each one exercises (core §4.5, core §8, R17, R19...).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .case_runner import Case, load_cases, run_case

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_rule_case(case: Case, tmp_path: Path) -> None:
    run = run_case(case, tmp_path)
    codes = [d.code for d in run.diagnostics]
    if case.expect == "fail":
        assert case.code in codes, f"{case.code} not reported; got {codes}"
    else:
        assert case.code not in codes, [d.message for d in run.diagnostics if d.code == case.code]
