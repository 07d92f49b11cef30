"""Every rule's pass/fail cases (sgcheck/contract/rules/cases/<CODE>.yaml).

A "fail" case lists every finding it must produce (code, line:col, optional message
substring), so a finding in the wrong place, a missing one or an extra one fails it; a
"pass" case must not report the rule's code. The format is described in case_runner.py.
The case names cite the rule each one exercises (core §4.5, core §8, R17, R19...).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from .case_runner import (
    AT_PATTERN,
    CASES_DIR,
    Case,
    CaseFormatError,
    Expected,
    _cases_of,
    load_cases,
    mismatch,
    run_case,
)

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_rule_case(case: Case, tmp_path: Path) -> None:
    run = run_case(case, tmp_path)
    problem = mismatch(case, run, tmp_path)
    assert problem is None, problem


def _raw_files() -> list[tuple[str, Any]]:
    yaml = YAML(typ="safe", pure=True)
    return [(p.name, yaml.load(p.read_text(encoding="utf-8"))) for p in sorted(CASES_DIR.glob("*.yaml"))]


def test_every_failing_case_states_where_and_how_many() -> None:
    """Read straight from the files, so a laxer loader cannot let presence-only cases back in."""
    problems = []
    raw = _raw_files()
    assert raw
    for filename, data in raw:
        assert "cases" not in data, f"{filename} uses the old single 'cases' list"
        assert data.get("fail"), f"{filename} has no fail case"
        for item in data["fail"]:
            entries = item.get("expect")
            if not isinstance(entries, list) or not entries:
                problems.append(f"{filename} {item['name']!r}: no expect list")
                continue
            for entry in entries:
                if not isinstance(entry, dict) or not AT_PATTERN.fullmatch(str(entry.get("at", ""))):
                    problems.append(f"{filename} {item['name']!r}: {entry!r} has no line:col 'at'")
            if not any(isinstance(e, dict) and e.get("code") == data["code"] and "at" in e for e in entries):
                problems.append(f"{filename} {item['name']!r}: no finding of {data['code']} with 'at'")
        for item in data.get("pass") or []:
            if "expect" in item:
                problems.append(f"{filename} {item['name']!r}: a pass case expects nothing")
    assert not problems, "\n".join(problems)


def test_every_case_file_loads_into_cases() -> None:
    by_file = {filename: len(data.get("fail") or []) + len(data.get("pass") or []) for filename, data in _raw_files()}
    assert len(CASES) == sum(by_file.values())
    assert all(c.findings for c in CASES if c.expect == "fail")


# The comparison itself: a real case, with its expect list altered, must fail.


def _first_fail(code: str) -> Case:
    return next(c for c in CASES if c.code == code and c.expect == "fail")


@pytest.mark.parametrize(
    "change",
    [
        {"line": 2},
        {"column": 43},
        {"column": 45},
        {"file": "other.sgcard"},
        {"message": "exceeds the +20 cap"},
        {"code": "SG-C011"},
    ],
    ids=["line", "column-before", "column-after", "file", "message", "code"],
)
def test_a_misplaced_or_misworded_finding_fails_the_case(change: dict[str, Any], tmp_path: Path) -> None:
    case = _first_fail("SG-C010")
    assert len(case.findings) == 1
    assert mismatch(case, run_case(case, tmp_path), tmp_path) is None
    broken = replace(case, findings=(replace(case.findings[0], **change),))
    problem = mismatch(broken, run_case(case, tmp_path), tmp_path)
    assert problem is not None and "expected but not reported" in problem


def test_a_missing_finding_fails_the_case(tmp_path: Path) -> None:
    case = _first_fail("SG-C010")
    twice = replace(case, findings=case.findings * 2)
    problem = mismatch(twice, run_case(case, tmp_path), tmp_path)
    assert problem is not None and "expected but not reported" in problem


def test_an_extra_finding_fails_the_case(tmp_path: Path) -> None:
    case = _first_fail("SG-C010")
    second_card = 'spell "Too Sharp II" { cost 2 SP phase battle effect to_hit +30 this attack }\n'
    doubled = replace(case, body={**case.body, "sgcard": case.body["sgcard"] + second_card})
    problem = mismatch(doubled, run_case(doubled, tmp_path), tmp_path)
    assert problem is not None and "reported but not expected" in problem
    assert "SG-C010 at cards.sgcard:2:" in problem
    both = replace(doubled, findings=(*case.findings, Expected("SG-C010", "cards.sgcard", 2, 47)))
    assert mismatch(both, run_case(both, tmp_path), tmp_path) is None


def test_a_pass_case_fails_when_the_code_is_reported(tmp_path: Path) -> None:
    case = _first_fail("SG-C010")
    as_pass = replace(case, expect="pass", findings=())
    problem = mismatch(as_pass, run_case(as_pass, tmp_path), tmp_path)
    assert problem is not None and "SG-C010 at cards.sgcard:1:44" in problem


@pytest.mark.parametrize(
    ("item", "error"),
    [
        ({"name": "n", "sgcard": "x"}, "non-empty expect"),
        ({"name": "n", "sgcard": "x", "expect": []}, "non-empty expect"),
        ({"name": "n", "sgcard": "x", "expect": [{"code": "SG-C010"}]}, "code, at"),
        ({"name": "n", "sgcard": "x", "expect": [{"code": "SG-C010", "at": "1"}]}, "LINE:COL"),
        ({"name": "n", "sgcard": "x", "expect": [{"code": "SG-C010", "at": "0:1"}]}, "LINE:COL"),
        ({"name": "n", "sgcard": "x", "expect": [{"code": "SG-C092", "at": "1:1"}]}, "findings of SG-C010"),
        ({"name": "n", "sgcard": "x", "config": "", "expect": [{"code": "SG-C010", "at": "1:1"}]}, "name one"),
        ({"name": "n", "sgcard": "x", "expect": [{"code": "SG-C010", "at": "b.sgcard:1:1"}]}, "not a file"),
        ({"name": "n", "sgcard": "x", "expect": [{"code": "SG-C010", "at": "1:1", "count": 2}]}, "code, at"),
        ({"name": "n", "sgcard": "x", "expect": "fail"}, "non-empty expect"),
        ({"name": "n", "expect": [{"code": "SG-C010", "at": "1:1"}]}, "no input"),
    ],
)
def test_a_malformed_fail_case_is_refused(item: dict[str, Any], error: str) -> None:
    with pytest.raises(CaseFormatError, match=error):
        _cases_of("C010.yaml", {"code": "SG-C010", "fail": [item]})


def test_a_pass_case_with_expect_or_the_old_shape_is_refused() -> None:
    with pytest.raises(CaseFormatError, match="unknown key"):
        _cases_of("C010.yaml", {"code": "SG-C010", "pass": [{"name": "n", "sgcard": "x", "expect": []}]})
    with pytest.raises(CaseFormatError, match="code, fail and pass"):
        _cases_of("C010.yaml", {"code": "SG-C010", "cases": [{"name": "n", "expect": "fail", "sgcard": "x"}]})
