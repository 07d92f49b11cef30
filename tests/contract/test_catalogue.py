"""Every code has metadata, an explanation, a failing example and a place in the docs."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sgcheck.codes import CATALOGUE
from sgcheck.contract import code_catalogue
from sgcheck.contract.registry import CODE_PATTERN, Scope, all_rules
from sgcheck.contract.rules import RULE_MODULES

from .case_runner import CASES_DIR, load_cases

if TYPE_CHECKING:
    from conftest import Golden

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "sgcheck" / "contract" / "rules"
RULES = all_rules()
CODES = [rule.meta.code for rule in RULES]


def test_every_rule_module_is_registered() -> None:
    on_disk = sorted(p.stem for p in RULES_DIR.glob("*.py") if not p.stem.startswith("_"))
    assert sorted(RULE_MODULES) == on_disk


@pytest.mark.parametrize("rule", RULES, ids=CODES)
def test_module_name_matches_code(rule: object) -> None:
    meta = rule.meta  # type: ignore[attr-defined]
    assert CODE_PATTERN.match(meta.code)
    assert rule.module.startswith(meta.code[3:] + "_")  # type: ignore[attr-defined]


@pytest.mark.parametrize("rule", RULES, ids=CODES)
def test_explanation_is_written(rule: object) -> None:
    info = code_catalogue()[rule.meta.code]  # type: ignore[attr-defined]
    first = info.explanation.split("\n\n")[0]
    assert len(info.explanation) > 120 and first.endswith(".")
    assert "Enforces:" in info.explanation


@pytest.mark.parametrize("code", CODES)
def test_every_code_has_a_failing_and_a_passing_case(code: str) -> None:
    cases = [c for c in load_cases() if c.code == code]
    assert (CASES_DIR / f"{code[3:]}.yaml").is_file()
    assert any(c.expect == "fail" for c in cases), f"{code} has no failing example"
    assert any(c.expect == "pass" for c in cases), f"{code} has no passing example"


def test_contract_rules_have_checks_and_loader_codes_do_not() -> None:
    for rule in RULES:
        module = importlib.import_module(f"sgcheck.contract.rules.{rule.module}")
        has_check = hasattr(module, "check")
        assert has_check == (rule.meta.scope in (Scope.CARD, Scope.PACK, Scope.PLAY)), rule.meta.code
        if rule.meta.scope is Scope.CARD:
            assert rule.meta.code.startswith("SG-C0")
        if rule.meta.scope is Scope.PACK:
            assert rule.meta.code.startswith("SG-C1")
        if rule.meta.scope is Scope.PLAY:  # found by playing the pack (contract/analysis/explore.py)
            assert rule.meta.code.startswith(("SG-C15", "SG-C16"))
        if rule.meta.scope is Scope.PACKAGING:
            assert rule.meta.code.startswith("SG-C2")


def test_contract_codes_do_not_collide_with_the_replay_catalogue() -> None:
    assert not set(code_catalogue()) & set(CATALOGUE)
    assert not any(code in CODES for code in (f"SG-P00{i}" for i in range(1, 9)))


@pytest.mark.parametrize("code", CODES)
def test_every_code_is_documented(code: str) -> None:
    assert f"`{code}`" in (ROOT / "docs" / "contract-rules.md").read_text(encoding="utf-8")


def test_rules_cite_the_rulebook() -> None:
    """Contract rules name the core section or ruling they enforce (core §8, core §4.5, R17, R19...)."""
    for rule in RULES:
        if rule.meta.scope in (Scope.CARD, Scope.PACK, Scope.PLAY):
            assert any(r.startswith(("core §", "R")) for r in rule.meta.rules), rule.meta.code


def test_contract_rules_reference_is_current(golden: Golden) -> None:
    """docs/contract-rules.md embeds the generated per-code reference (SGCHECK_UPDATE_GOLDEN=1 refreshes)."""
    from sgcheck.contract.rules_page import codes_markdown

    golden.check_section(ROOT / "docs" / "contract-rules.md", "codes", codes_markdown())
