"""Rules read shared facts from one place and never from one another.

Every rule module takes what it shares with other rules from ``contract/analysis/`` or
``contract/facts/``; no module under ``contract/rules/`` imports a rule module. The pack
analyses live on :class:`~sgcheck.contract.facts.pack_facts.PackFacts`, built once per pack, so each is
computed once however many rules read it (calls are counted, never timed).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from sgcheck.config import Config
from sgcheck.contract import check_paths, code_catalogue
from sgcheck.contract.context import CheckContext
from sgcheck.contract.facts import bonuses, pack_facts
from sgcheck.contract.rules import RULE_MODULES
from sgcheck.lang.cards.parser import parse_cards

RULES_DIR = Path(__file__).resolve().parents[2] / "sgcheck" / "contract" / "rules"
RULES_PACKAGE = "sgcheck.contract.rules"


def imported_rule_modules(source: str) -> Iterator[str]:
    """The rule modules (names in RULE_MODULES) that the module text ``source`` imports."""
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = RULES_PACKAGE if node.level == 1 else (node.module or "")
            if node.level == 1 and node.module:
                base = f"{RULES_PACKAGE}.{node.module}"
            elif node.level > 1:
                continue  # outside the rules package
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for name in names:
            if name.startswith(RULES_PACKAGE + "."):
                first = name.removeprefix(RULES_PACKAGE + ".").split(".")[0]
                if first in RULE_MODULES:
                    yield first


def test_the_import_check_sees_every_form() -> None:
    sources = (
        "from sgcheck.contract.rules.C101_trigger_cycle import cycle_context",
        "import sgcheck.contract.rules.C040_repair_denial",
        "from sgcheck.contract.rules import C090_king_immunity",
        "from .C101_trigger_cycle import check",
        "from . import C040_repair_denial",
    )
    for source in sources:
        assert list(imported_rule_modules(source)), source
    allowed = (
        "from sgcheck.contract.rules._helpers import card_context\n"
        "from sgcheck.contract.facts.pack_facts import PackFacts"
    )
    assert not list(imported_rule_modules(allowed))


def test_no_rule_module_imports_another() -> None:
    """Shared helpers live in contract/analysis/ or contract/facts/, never in a rule."""
    modules = sorted(RULES_DIR.glob("*.py"))
    assert len(modules) > len(RULE_MODULES)  # every rule, plus __init__ and _helpers
    offenders = {
        path.name: sorted(set(imported_rule_modules(path.read_text(encoding="utf-8"))) - {path.stem})
        for path in modules
    }
    assert {name: found for name, found in offenders.items() if found} == {}


# --- every analysis once per pack --------------------------------------------------------------

PACK = """\
relic "Spark" { cost 1 SP effect on gain SP: gain 1 LP }
relic "Echo" { cost 1 SP effect on gain LP: gain 1 SP }
relic "Ward" passive { cost 2 SP effect reduce damage by 2 on own King }
relic "Wall" passive { cost 2 SP effect reduce damage by 2 on own King }
relic "Aim" passive { cost 2 SP effect to_hit +15 }
relic "Sight" passive { cost 2 SP effect to_hit +15 }
spell "Lock" { cost 2 SP effect deny repair for 1 turn }
spell "Bolt" { cost 2 SP effect deny repair for 1 turn }
relic "Greed" passive { cost 1 SP effect at end: gain LP equal to own SP }
relic "Envy" passive { cost 1 SP effect at upkeep: gain SP equal to own LP }
"""

#: The analyses PackFacts runs, by the name contract/facts/pack_facts.py calls them under.
ANALYSES = ("trigger_cycles", "feedback_loops", "worst_stack", "king_shield", "denial_problem")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count each analysis call made through the pack facts module."""
    counted = dict.fromkeys(ANALYSES, 0)

    def counting(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return original(*args, **kwargs)

        return wrapper

    for name in ANALYSES:
        monkeypatch.setattr(pack_facts, name, counting(name, getattr(pack_facts, name)))
    return counted


def _pack(folder: Path) -> Path:
    (folder / "cards.sgcard").write_text(PACK, encoding="utf-8")
    (folder / "sgpack.yaml").write_text(
        "name: shared\nversion: 1.0.0\nruleset: core\ncards:\n  - cards.sgcard\n", encoding="utf-8"
    )
    return folder


def test_pack_analyses_run_once_per_pack(tmp_path: Path, calls: dict[str, int]) -> None:
    """C101 and C102 share the trigger cycles, C120 and C121 the stacking, C130 the denials."""
    found = {d.code for d in check_paths([str(_pack(tmp_path))], Config()).diagnostics}
    assert {"SG-C101", "SG-C110", "SG-C120", "SG-C121", "SG-C130"} <= found, found
    assert calls["trigger_cycles"] == 1  # one pack: one trigger graph for both cycle rules
    assert calls["feedback_loops"] == 1
    assert calls["worst_stack"] == len(bonuses.ATTACK_CAPS) + 1  # each capped category, then the King
    effects = sum(len(card.effects) for card in parse_cards(PACK, "pack.sgcard").cards)
    # Per-card facts: once for the card rules (C040, C090), once for the pack (C121, C130).
    assert calls["king_shield"] == 2 * effects
    assert calls["denial_problem"] == 2 * 2


def test_disabled_rules_cost_no_analysis(tmp_path: Path, calls: dict[str, int]) -> None:
    config = Config().with_codes(code_catalogue(), disable=["SG-C101", "SG-C102", "SG-C110", "SG-C120", "SG-C121"])
    check_paths([str(_pack(tmp_path))], config)
    assert (calls["trigger_cycles"], calls["feedback_loops"], calls["worst_stack"]) == (0, 0, 0)


def test_pack_facts_are_cached(calls: dict[str, int]) -> None:
    parsed = parse_cards(PACK, "pack.sgcard")
    facts = pack_facts.PackFacts(parsed.cards, CheckContext())
    for _ in range(3):
        assert facts.trigger_cycles and facts.growth_loops and facts.repair_deniers
        assert facts.king_immunity_stack is not None and facts.cap_stacks
    assert calls["trigger_cycles"] == calls["feedback_loops"] == 1
    assert calls["worst_stack"] == len(bonuses.ATTACK_CAPS) + 1
    assert facts.card_facts is facts.card_facts
