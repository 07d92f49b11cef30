"""The code catalogue (``sgcheck.codes``) is data that consumers test, not strings they read.

Each entry has a family and the traits its consumers act on; no module of ``sgcheck`` reads a
code's meaning back from its letters (a prefix test) or steers by a code written as a literal.
The oracles below are written independently of the catalogue: the families that the codes'
numbering has always meant (docs/diagnostics.md), and the codes each trait was made for.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sgcheck.codes import CATALOGUE, REPLAY_CODES, Family, Trait, family_of, has, reads_input
from sgcheck.contract import code_catalogue
from sgcheck.report.catalogue_pages import all_codes

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sgcheck"

#: What each family was before it was data: the numbering of docs/diagnostics.md.
NUMBERING = (
    (r"SG-P00\d", Family.LOG_INPUT),
    (r"SG-P01[0-2]", Family.LIMIT),
    (r"SG-P01[3-5]|SG-P0[2-4]\d", Family.INPUT),
    (r"SG-S1\d\d", Family.SETUP),
    (r"SG-T1\d\d", Family.TURN),
    (r"SG-R1\d\d", Family.ACTION),
    (r"SG-R2\d\d", Family.CLAIM),
    (r"SG-N3\d\d", Family.NOTE),
    (r"SG-D1\d\d", Family.DICE),
    (r"SG-C0\d\d", Family.CARD_RULE),
    (r"SG-C1\d\d", Family.PACK_RULE),
    (r"SG-C2\d\d", Family.PACKAGING),
    (r"SG-X0\d\d", Family.INTERNAL),
)

#: The codes each trait was made for, written out (they were literals in the consumers).
TRAITS = {
    Trait.NOT_CHECKED: {"SG-P008", "SG-X001", "SG-C210"},
    Trait.UNSUPPRESSIBLE: {"SG-C210", "SG-C220", "SG-C221", "SG-C222"},
    Trait.FALSIFIED_ROLL: {"SG-D103"},
    Trait.WITHHELD: {"SG-D102", "SG-D106"},
    Trait.RESULT_CLAIM: {"SG-R210"},
    Trait.TOTAL_CLAIM: {"SG-R203", "SG-R208"},
    Trait.SHORT_OF_FUNDS: {"SG-R106", "SG-R113", "SG-R115"},
    Trait.CARD_DENIAL: {"SG-R127"},
    Trait.MODULE_NOT_PLAYED: {"SG-P038"},
    Trait.CONTRACT: {f"SG-P02{i}" for i in range(10)} | {f"SG-C2{n:02}" for n in (*range(1, 11), 20, 21, 22)},
}


def _numbered(code: str) -> Family:
    return next(family for pattern, family in NUMBERING if re.fullmatch(pattern, code))


@pytest.mark.parametrize("code", sorted(all_codes()))
def test_every_code_has_the_family_its_number_says(code: str) -> None:
    assert all_codes()[code].family is _numbered(code)


def test_every_trait_holds_for_the_codes_it_was_made_for() -> None:
    for trait in Trait:
        assert {code for code in all_codes() if has(code, trait)} == TRAITS[trait], trait


def test_reads_input_is_every_input_family_and_nothing_else() -> None:
    """The ``SG-P`` codes are about an input as a whole (fill stops before it, no suppression)."""
    for code in all_codes():
        assert reads_input(code) == code.startswith("SG-P"), code
    assert not reads_input("SG-Z999") and family_of("SG-Z999") is None


def test_the_contract_checkers_codes_are_one_catalogue_with_replays() -> None:
    """Replay's codes and the contract's share no code; the contract's that judge nothing of their
    own are entries of the catalogue, and every code is listed once by ``all_codes``."""
    assert not set(REPLAY_CODES) & set(code_catalogue())
    assert set(all_codes()) == set(REPLAY_CODES) | set(code_catalogue())
    assert set(CATALOGUE) - set(REPLAY_CODES) == TRAITS[Trait.CONTRACT]


def test_docs_sections_follow_the_families() -> None:
    text = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    titles = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert titles == [family.title for family in Family]
    for code, info in all_codes().items():
        section = text.rfind("\n## ", 0, text.index(f"### {code} "))
        assert text[section + 4 :].startswith(info.family.title), code


# --- no consumer reads a code's meaning from its letters -----------------------------------------

#: Where a code literal may still be compared, and why.
ALLOWED = {
    # The contract's own rule that a forbidden effect names (a conversion at another rate, SG-C020),
    # asked by the analysis of that rule's exchanges: the contract checker's rule identity.
    ("sgcheck/contract/facts/income.py", "SG-C020"),
    # A user's spelling of every code ("SG" or "SG-", as "ALL"): reading what the user typed.
    ("sgcheck/codes.py", "SG-"),
}


def _code_literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("SG-"):
        return node.value
    if isinstance(node, (ast.Tuple, ast.Set, ast.List)):
        return next((c for c in map(_code_literal, node.elts) if c is not None), None)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set"):
        return next((c for c in map(_code_literal, node.args) if c is not None), None)
    return None


_PREFIX_TESTS = ("startswith", "endswith")


def _steering(tree: ast.AST) -> list[tuple[int, str]]:
    """A comparison with a code literal (``==``, ``!=``, ``in``), or a prefix test of one."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for op, right in zip(node.ops, node.comparators, strict=True):
                if isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                    literal = _code_literal(right) or _code_literal(node.left)
                    if literal is not None:
                        found.append((node.lineno, literal))
        called = node.func if isinstance(node, ast.Call) else None
        if isinstance(node, ast.Call) and isinstance(called, ast.Attribute) and called.attr in _PREFIX_TESTS:
            literal = _code_literal(node.args[0]) if node.args else None
            if literal is not None:
                found.append((node.lineno, literal))
    return found


def test_no_module_steers_by_a_code_literal_or_a_prefix() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        shown = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        offenders += [f"{shown}:{line} {code}" for line, code in _steering(tree) if (shown, code) not in ALLOWED]
    assert not offenders, "test the catalogue's family or traits instead:\n" + "\n".join(offenders)


def test_the_scan_finds_what_it_looks_for() -> None:
    """The scan above is not vacuous: each shape it forbids is found in a sample."""
    sample = """
if d.code == "SG-R210": pass
if code in ("SG-D102", "SG-D106"): pass
if code.startswith("SG-D"): pass
if code.startswith(("SG-R1", "SG-T1")): pass
x = [d for d in found if d.code not in frozenset({"SG-R106"})]
"""
    assert [line for line, _code in _steering(ast.parse(sample))] == [2, 3, 4, 5, 6]
