"""The rule registry: every code the contract checker can report, declared as data.

Each contract rule lives in its own module under :mod:`sgcheck.contract.rules`: a ``META``
(:class:`RuleMeta`: code, name, severity, what it enforces, the rules it cites), a module
docstring that is the user-facing explanation (``sgcheck explain CODE``), and a ``check``
function that *yields* diagnostics. A per-card rule
whose breach can also be spread over several cards (SG-C022: SP given up on one card and
LP gained on another, in the same window) keeps one code for both and adds a
``check_pack`` function, run with the pack-level analyses. Codes reported while reading
files or packs (``SG-P02x``, ``SG-C2xx``) judge nothing of their own (the loaders emit them), so
they have no module: they are entries of the code catalogue (:data:`sgcheck.codes.CATALOGUE`,
:attr:`~sgcheck.codes.Trait.CONTRACT`), registered here as rules without a check, documented and
tested the same way.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any

from sgcheck.codes import CATALOGUE, CodeInfo, Family, Trait, clean_docstring
from sgcheck.diagnostics import Diagnostic, Fix, Severity, Span

if TYPE_CHECKING:
    from sgcheck.contract.context import CheckContext
    from sgcheck.contract.facts.pack_facts import PackView
    from sgcheck.core.cards.model import Card

CODE_PATTERN = re.compile(r"^SG-[A-Z][0-9]{3}$")


class Scope(StrEnum):
    """Where a code is decided."""

    INPUT = "input"  # reading a card file (syntax, YAML, schema)
    CARD = "card"  # one card on its own
    PACK = "pack"  # combinations of the cards a player can hold
    PLAY = "play"  # what the cards do in games the explorer plays (sgcheck.contract.analysis.explore)
    PACKAGING = "packaging"  # manifests, discovery, configuration, suppressions


@dataclass(frozen=True, slots=True)
class RuleMeta:
    code: str
    name: str
    severity: Severity
    enforces: str
    rules: tuple[str, ...]
    scope: Scope

    def diagnostic(
        self,
        message: str,
        span: Span | None,
        *,
        hint: str | None = None,
        fix: Fix | None = None,
        label: str | None = None,
        context: tuple[tuple[str, str], ...] = (),
        rules: tuple[str, ...] | None = None,
    ) -> Diagnostic:
        return Diagnostic(
            self.code,
            self.severity,
            message,
            span,
            rules if rules is not None else self.rules,
            hint,
            fix,
            label,
            context,
        )


CardCheck = Callable[["Card", "CheckContext"], Iterator[Diagnostic]]
PackCheck = Callable[["PackView", "CheckContext"], Iterator[Diagnostic]]


@dataclass(frozen=True, slots=True)
class Rule:
    meta: RuleMeta
    explanation: str
    module: str  # "" for a code of the catalogue that judges nothing of its own
    check_card: CardCheck | None = None
    check_pack: PackCheck | None = None


@cache
def all_rules() -> tuple[Rule, ...]:
    """Every registered rule module, in code order."""
    from sgcheck.contract.rules import RULE_MODULES

    rules: list[Rule] = []
    for name in RULE_MODULES:
        module: Any = importlib.import_module(f"sgcheck.contract.rules.{name}")
        meta: RuleMeta = module.META
        check = getattr(module, "check", None)
        pack_part = getattr(module, "check_pack", None) if meta.scope is Scope.CARD else None
        rules.append(
            Rule(
                meta=meta,
                explanation=clean_docstring(module.__doc__ or ""),
                module=name,
                check_card=check if meta.scope is Scope.CARD else None,
                check_pack=check if meta.scope in (Scope.PACK, Scope.PLAY) else pack_part,
            )
        )
    rules += [_catalogued(info) for info in CATALOGUE.values() if Trait.CONTRACT in info.traits]
    return tuple(sorted(rules, key=lambda r: r.meta.code))


def _catalogued(info: CodeInfo) -> Rule:
    """A code of the contract checker that judges nothing of its own, from its catalogue entry."""
    scope = Scope.PACKAGING if info.family is Family.PACKAGING else Scope.INPUT
    meta = RuleMeta(info.code, info.name, info.severity, info.enforces, info.rules, scope)
    return Rule(meta=meta, explanation=info.explanation, module="")


#: The family of the codes of each scope of rule modules.
_FAMILIES = {
    Scope.INPUT: Family.INPUT,
    Scope.CARD: Family.CARD_RULE,
    Scope.PACK: Family.PACK_RULE,
    Scope.PLAY: Family.PACK_RULE,
    Scope.PACKAGING: Family.PACKAGING,
}


@cache
def rules_by_code() -> dict[str, Rule]:
    return {rule.meta.code: rule for rule in all_rules()}


def meta(code: str) -> RuleMeta:
    """The metadata of a registered code (loaders use this to build their diagnostics)."""
    return rules_by_code()[code].meta


@cache
def code_catalogue() -> dict[str, CodeInfo]:
    """Every contract and card-file code as :class:`~sgcheck.codes.CodeInfo` (for explain and SARIF).
    Built once and shared (configuration checks it for every code it names): read it, never change it."""
    catalogue: dict[str, CodeInfo] = {}
    for rule in all_rules():
        m = rule.meta
        explanation = f"{rule.explanation}\n\nEnforces: {m.enforces}."
        listed = CATALOGUE.get(m.code)
        if listed is not None:
            catalogue[m.code] = replace(listed, explanation=explanation)
        else:
            info = CodeInfo(m.code, m.name, m.severity, m.rules, explanation, _FAMILIES[m.scope], enforces=m.enforces)
            catalogue[m.code] = info
    return catalogue
