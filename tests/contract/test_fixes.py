"""Applicable fixes: each rule's fix applied and checked again, the edit engine, ``check --fix``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sgcheck.cli import main
from sgcheck.config import Config
from sgcheck.contract.card_edits import Edit, apply_edits
from sgcheck.contract.checker import check_paths
from sgcheck.contract.fix_files import fix_paths


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def codes(path: Path) -> list[str]:
    return sorted(d.code for f in check_paths([str(path)]).files for d in f.diagnostics)


def fixes(path: Path) -> dict[str, bool]:
    return {
        d.code: d.fix.safe
        for f in check_paths([str(path)]).files
        for d in f.diagnostics
        if d.fix is not None and d.fix.replacement is not None and d.fix.span is not None
    }


#: One card per rule with an applicable fix: (code, card text, safe, what the card says after, codes left).
CASES = [
    ("SG-C010", 'relic "A" {\n    cost 3 SP\n    effect to_hit +30\n}\n', True, "effect to_hit +25", []),
    ("SG-C011", 'relic "A" {\n    cost 3 SP\n    effect damage +3\n}\n', True, "effect damage +2", []),
    (
        "SG-C221",
        '# sgcheck: ignore SG-C092 -- on purpose\nrelic "A" {\n    cost 3 SP\n    effect gain 1 SP\n}\n',
        True,
        'relic "A" {',
        [],
    ),
    (
        "SG-C030",
        'relic "A" {\n    cost 2 SP\n    effect on gain SP: gain 1 SP\n}\n',
        False,
        "effect on gain SP: gain 1 SP limit once per turn",
        ["SG-C102"],
    ),
    (
        "SG-C070",
        'relic "A" {\n    cost 2 SP\n    effect gain 1 SP\n    effect extra activation in main1\n}\n',
        False,
        "effect gain 1 SP\n}",
        [],
    ),
    (
        "SG-C020",
        'relic "A" {\n    cost 2 SP\n    effect gain 1 SP\n    effect convert 1 SP to 1 LP\n}\n',
        False,
        "effect gain 1 SP\n}",
        [],
    ),
]


@pytest.mark.parametrize(("code", "text", "safe", "after", "left"), CASES, ids=[c[0] for c in CASES])
def test_each_fix_applied_and_checked_again(
    tmp_path: Path, code: str, text: str, safe: bool, after: str, left: list[str]
) -> None:
    card = tmp_path / "a.sgcard"
    card.write_text(text, encoding="utf-8")
    assert code in codes(card)
    assert fixes(card)[code] is safe
    outcome = fix_paths([str(card)], Config(), unsafe=not safe)
    assert outcome.applied.get(code) == 1
    fixed = card.read_text(encoding="utf-8")
    assert after in fixed
    assert codes(card) == left
    if not safe:  # without --unsafe-fixes nothing is applied, and the fix is counted as available
        card.write_text(text, encoding="utf-8")
        held = fix_paths([str(card)], Config())
        assert held.count == 0 and held.unsafe_left >= 1
        assert card.read_text(encoding="utf-8") == text


def test_trigger_cycle_fix_is_unsafe(tmp_path: Path) -> None:
    card = tmp_path / "a.sgcard"
    card.write_text(
        'relic "A" {\n    cost 1 SP\n    effect on gain SP: gain 1 LP\n}\n\n'
        'relic "B" {\n    cost 1 SP\n    effect on gain LP: gain 1 SP\n}\n',
        encoding="utf-8",
    )
    if "SG-C101" not in codes(card):
        pytest.skip("this pair is not reported as a cycle")
    assert fixes(card)["SG-C101"] is False
    fix_paths([str(card)], Config(), unsafe=True)
    assert "SG-C101" not in codes(card)


def test_overlapping_edits_keep_the_earliest() -> None:
    text = "abcdef"
    edits = [Edit(2, 4, "X", "B", True), Edit(0, 3, "Y", "A", True), Edit(5, 6, "Z", "C", True)]
    out, applied = apply_edits(text, edits)
    assert out == "YdeZ"
    assert [e.code for e in applied] == ["A", "C"]
    assert apply_edits(text, [Edit(4, 99, "!", "D", True)]) == (text, [])


def test_deleting_a_whole_line_takes_its_line_break() -> None:
    text = "one\n  # gone\nthree\n"
    out, _ = apply_edits(text, [Edit(6, 12, "", "SG-C221", True)])
    assert out == "one\nthree\n"


def test_check_fix_diff_and_summary(tmp_path: Path) -> None:
    card = tmp_path / "a.sgcard"
    text = (
        'relic "A" {\r\n    cost 3 SP\r\n    effect to_hit +30\r\n}\r\n\r\n'
        'relic "B" {\r\n    cost 2 SP\r\n    effect on gain SP: gain 1 SP\r\n}\r\n'
    )
    card.write_bytes(text.encode())
    diffed = invoke("check", "--isolated", "--diff", str(card))
    assert diffed.exit_code == 1
    assert "-    effect to_hit +30" in diffed.stdout and "+    effect to_hit +25" in diffed.stdout
    assert "1 fix would be applied, 1 unsafe fix available" in diffed.stderr
    assert card.read_bytes() == text.encode()
    fixed = invoke("check", "--isolated", "--fix", str(card))
    # SG-C030 is left (its fix is unsafe), a warning: no game the checker plays shows the loop (core §8)
    assert fixed.exit_code == 0
    assert "1 fix applied, 1 unsafe fix available (--unsafe-fixes)" in fixed.stderr
    assert "SG-C030" in fixed.stdout and "SG-C010" not in fixed.stdout
    assert card.read_bytes() == text.replace("+30", "+25").encode()  # CRLF kept
    unsafe = invoke("check", "--isolated", "--fix", "--unsafe-fixes", str(card))
    assert "1 fix applied" in unsafe.stderr
    assert "SG-C030" not in unsafe.stdout


def test_yaml_cards_get_no_applicable_fix(tmp_path: Path) -> None:
    card = tmp_path / "a.sgcard.yaml"
    card.write_text(
        "cards:\n  - name: A\n    kind: relic\n    cost: {SP: 3}\n    effects:\n      - to_hit: 30\n", encoding="utf-8"
    )
    found = check_paths([str(card)]).files
    assert any(d.code == "SG-C010" for f in found for d in f.diagnostics)
    assert all(d.fix is None or d.fix.replacement is None for f in found for d in f.diagnostics if d.code == "SG-C010")


def test_fix_never_touches_what_check_would_not_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--fix finds its files as check finds them: an excluded or git-ignored file is left as it is."""
    over = 'relic "A" {\n    cost 3 SP\n    effect to_hit +30\n}\n'
    for folder in ("mine", "vendored", "build"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.sgcard").write_text(over, encoding="utf-8")
    (tmp_path / ".gitignore").write_text("build/\n", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)  # --exclude patterns are relative to the working directory
    fixed = invoke("check", "--isolated", "--fix", "--exclude", "vendored/", ".")
    assert "1 fix applied" in fixed.stderr
    assert "+25" in (tmp_path / "mine" / "a.sgcard").read_text(encoding="utf-8")
    assert (tmp_path / "vendored" / "a.sgcard").read_text(encoding="utf-8") == over
    assert (tmp_path / "build" / "a.sgcard").read_text(encoding="utf-8") == over
