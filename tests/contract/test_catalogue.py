"""Every code has metadata, an explanation, a failing example and a place in the docs."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from sgcheck.codes import CATALOGUE, REPLAY_CODES, Trait
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
    if rule.module:  # type: ignore[attr-defined]
        assert rule.module.startswith(meta.code[3:] + "_")  # type: ignore[attr-defined]
    else:  # a code that judges nothing of its own: an entry of the code catalogue
        assert Trait.CONTRACT in CATALOGUE[meta.code].traits


def test_a_rule_module_judges_something() -> None:
    """A module under contract/rules/ has a check; a code that only needs documenting is an entry
    of the code catalogue, registered from there (SG-P02x, SG-C2xx)."""
    for name in RULE_MODULES:
        module = importlib.import_module(f"sgcheck.contract.rules.{name}")
        assert hasattr(module, "check"), name
    catalogued = {rule.meta.code for rule in RULES if not rule.module}
    assert catalogued == {code for code, info in CATALOGUE.items() if Trait.CONTRACT in info.traits}
    assert {code[:5] for code in catalogued} == {"SG-P0", "SG-C2"}


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
        has_check = rule.check_card is not None or rule.check_pack is not None
        assert has_check == (rule.meta.scope in (Scope.CARD, Scope.PACK, Scope.PLAY)), rule.meta.code
        assert has_check == bool(rule.module), rule.meta.code
        if rule.meta.scope is Scope.CARD:
            assert rule.meta.code.startswith("SG-C0")
        if rule.meta.scope is Scope.PACK:
            assert rule.meta.code.startswith("SG-C1")
        if rule.meta.scope is Scope.PLAY:  # found by playing the pack (contract/analysis/explore.py)
            assert rule.meta.code.startswith(("SG-C15", "SG-C16"))
        if rule.meta.scope is Scope.PACKAGING:
            assert rule.meta.code.startswith("SG-C2")


def test_contract_codes_do_not_collide_with_the_replay_catalogue() -> None:
    """The contract's codes that the catalogue holds are those it marks as the contract's; the
    others are replay's and parsing's (REPLAY_CODES), and no rule module takes one of them."""
    shared = set(code_catalogue()) & set(CATALOGUE)
    assert shared == {code for code, info in CATALOGUE.items() if Trait.CONTRACT in info.traits}
    assert not set(code_catalogue()) & set(REPLAY_CODES)
    for code in shared:  # same entry, the contract's explanation saying what it enforces
        contract, listed = code_catalogue()[code], CATALOGUE[code]
        assert (contract.name, contract.severity, contract.family) == (listed.name, listed.severity, listed.family)
        assert contract.explanation == f"{listed.explanation}\n\nEnforces: {listed.enforces}."
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
