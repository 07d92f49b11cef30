"""SARIF ``partialFingerprints``: one stable key per finding, whatever line it has moved to.

Code-scanning dashboards match the results of one upload with those of the last through these
keys, so a key must stay the same across runs and when lines are inserted above a finding, and
differ between different findings. The tests check real ``sgcheck check`` and ``sgcheck
replay`` runs through the command line (the streamed report), and that the library's
:func:`render` of the same run agrees byte for byte.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft7Validator

from sgcheck.cli import main
from sgcheck.config import Config
from sgcheck.contract.checker import check_paths
from sgcheck.diagnostics import Diagnostic, Severity, Span
from sgcheck.report import render
from sgcheck.report.sarif import FINGERPRINT_KEY, file_fingerprints
from sgcheck.results import FileResult

REPO = Path(__file__).resolve().parents[2]
BROKEN_LOGS = REPO / "examples" / "logs" / "broken"
SARIF_SCHEMA_PATH = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"

CARDS = """\
spell "Rook Promotion" { cost 3 SP  effect set value.rook to 6 }
spell "Twice" {
  cost 3 SP
  effect set value.rook to 6
  effect set value.rook to 6
}
spell "Cheap Volley" { cost 3 SP  effect set cost.attack to 4 }
"""


class Finding:
    """One SARIF result, reduced to what these tests compare."""

    def __init__(self, result: dict[str, Any]) -> None:
        location = result["locations"][0]["physicalLocation"]
        self.rule: str = result["ruleId"]
        self.uri: str = location["artifactLocation"]["uri"]
        self.line: int | None = location.get("region", {}).get("startLine")
        self.message: str = result["message"]["text"]
        self.key: str = result["partialFingerprints"][FINGERPRINT_KEY]
        self.suppressed = "suppressions" in result


def _sarif(output: str) -> list[Finding]:
    document = json.loads(output)
    with SARIF_SCHEMA_PATH.open(encoding="utf-8") as handle:
        assert list(Draft7Validator(json.load(handle)).iter_errors(document)) == []
    return [Finding(result) for result in document["runs"][0]["results"]]


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--format", "sarif"], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.output


def _check(*paths: str) -> list[Finding]:
    return _sarif(_cli("check", *paths, "--isolated"))


@pytest.fixture
def cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A card file with findings, checked from its folder so paths are reported relative."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cards").mkdir()
    path = tmp_path / "cards" / "a.sgcard"
    path.write_text(CARDS, encoding="utf-8")
    return path


def test_every_result_has_a_fingerprint_of_the_documented_shape(cards: Path) -> None:
    findings = _check("cards")
    assert len(findings) == 4
    for finding in findings:
        digest, _, ordinal = finding.key.partition(":")
        assert len(digest) == 32 and int(digest, 16) >= 0
        assert ordinal.isdigit()


def test_fingerprints_are_identical_across_runs(cards: Path) -> None:
    assert [f.key for f in _check("cards")] == [f.key for f in _check("cards")]


def test_different_findings_have_different_fingerprints(cards: Path) -> None:
    keys = [f.key for f in _check("cards")]
    assert len(set(keys)) == len(keys)


def test_identical_findings_are_told_apart_by_their_ordinal(cards: Path) -> None:
    twice = [f for f in _check("cards") if "'Twice'" in f.message]
    assert [f.line for f in twice] == [4, 5]
    first, second = (f.key.partition(":") for f in twice)
    assert first[0] == second[0]  # same rule, file, text and message ...
    assert (first[2], second[2]) == ("1", "2")  # ... counted in the order of their places


@pytest.mark.parametrize(
    "inserted",
    [
        "\n\n\n",
        "# a comment about the pack\n# and another one\n",
        'spell "Harmless" { cost 1 SP  effect gain 1 SP }\n\n',
    ],
    ids=["blank lines", "comments", "another card"],
)
def test_lines_inserted_above_move_the_region_not_the_fingerprint(cards: Path, inserted: str) -> None:
    before = _check("cards")
    cards.write_text(inserted + CARDS, encoding="utf-8")
    after = _check("cards")
    moved = inserted.count("\n")
    assert [f.line for f in after] == [f.line + moved for f in before if f.line is not None]
    assert [f.key for f in after] == [f.key for f in before]


def test_reindenting_the_offending_line_keeps_the_fingerprint(cards: Path) -> None:
    before = _check("cards")
    cards.write_text(CARDS.replace("  effect set value.rook to 6\n", "\teffect   set value.rook to 6\n"))
    assert [f.key for f in _check("cards")] == [f.key for f in before]


def test_changing_the_offending_text_changes_the_fingerprint(cards: Path) -> None:
    before = {f.line: f.key for f in _check("cards")}
    cards.write_text(CARDS.replace("cost 3 SP  effect set cost.attack", "cost 2 SP  effect set cost.attack"))
    after = {f.line: f.key for f in _check("cards")}
    assert after[7] != before[7]
    assert after[1] == before[1] and after[4] == before[4]


def test_the_same_finding_in_another_file_has_another_fingerprint(cards: Path) -> None:
    shutil.copy(cards, cards.with_name("b.sgcard"))
    findings = _check("cards")
    by_file = {uri: [f.key for f in findings if f.uri == uri] for uri in ("cards/a.sgcard", "cards/b.sgcard")}
    assert len(by_file["cards/a.sgcard"]) == len(by_file["cards/b.sgcard"]) == 4
    assert not set(by_file["cards/a.sgcard"]) & set(by_file["cards/b.sgcard"])


def test_a_suppressed_finding_keeps_its_fingerprint(cards: Path) -> None:
    before = {f.message: f.key for f in _check("cards")}
    suppression = "# sgcheck: ignore SG-C002 -- the volley is a prototype\n"
    cards.write_text(CARDS.replace('spell "Cheap Volley"', suppression + 'spell "Cheap Volley"'))
    after = _check("cards")
    suppressed = [f for f in after if f.suppressed]
    assert len(suppressed) == 1 and suppressed[0].rule == "SG-C002"
    assert {f.message: f.key for f in after} == before


def test_positions_quoted_in_a_message_do_not_enter_the_fingerprint(cards: Path) -> None:
    dup = 'spell "Dup" { cost 1 SP  effect gain 1 SP }\n'
    cards.write_text(dup + "\n" + dup, encoding="utf-8")
    before = [f for f in _check("cards") if f.rule == "SG-C140"]
    cards.write_text("\n\n" + dup + "\n\n\n" + dup, encoding="utf-8")
    after = [f for f in _check("cards") if f.rule == "SG-C140"]
    assert len(before) == len(after) == 1
    assert "a.sgcard:1:7" in before[0].message and "a.sgcard:3:7" in after[0].message
    assert after[0].key == before[0].key


def test_the_streamed_report_and_render_agree(cards: Path) -> None:
    streamed = _cli("check", "cards", "--isolated")
    assert render(check_paths(["cards"], Config()), "sarif") == streamed


# --- replay ---------------------------------------------------------------------------------


@pytest.fixture
def logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    names = ["wrong-hit.sglog", "wrong-cost.sglog", "wrong-totals.sglog"]
    return [Path(shutil.copy(BROKEN_LOGS / name, tmp_path / "games" / name)) for name in names]


def _replay(*extra: str) -> list[Finding]:
    return _sarif(_cli("replay", "games", "--keep-going", *extra))


def test_replay_fingerprints_survive_comments_inserted_above(logs: list[Path]) -> None:
    before = _replay()
    assert len(before) >= 3
    assert [f.key for f in _replay()] == [f.key for f in before]  # a second run
    for log in logs:
        log.write_text("; reviewed by the referee\n;\n\n" + log.read_text(encoding="utf-8"), encoding="utf-8")
    after = _replay()
    assert [f.line for f in after] == [f.line + 3 for f in before if f.line is not None]
    assert [f.key for f in after] == [f.key for f in before]
    assert len({f.key for f in after}) == len(after)


def test_replay_fingerprints_do_not_depend_on_the_number_of_processes(logs: list[Path]) -> None:
    one = [f.key for f in _replay("--jobs", "1")]
    assert [f.key for f in _replay("--jobs", "2")] == one


# --- the recipe, on hand-built findings -------------------------------------------------------


def _keys(*diagnostics: Diagnostic, source: str, path: str = "g.sglog") -> tuple[str, ...]:
    return file_fingerprints(FileResult(path, diagnostics), {path: source})


def test_the_key_is_the_hash_of_rule_paths_text_and_the_findings_data() -> None:
    """The recipe of sgcheck/v2 (docs/output-formats.md): code, paths, the text pointed at, and
    expected/claimed; the message's wording never enters it."""
    span = Span("g.sglog", 2, 3, 2, 8, 7, 12)
    finding = Diagnostic("SG-R201", Severity.ERROR, "wrong cost", span, expected=6, claimed=5)
    (base,) = _keys(finding, source="; x\n  move Ra1 a3\n")
    assert _keys(finding, source="; x\n  move Ra1 a3\n") == (base,)
    assert _keys(finding, source="; x\n  move Ra1 a4\n") != (base,)  # the text it points at
    assert _keys(replace(finding, code="SG-R202"), source="; x\n  move Ra1 a3\n") != (base,)
    assert _keys(finding.contrasted(6, 4), source="; x\n  move Ra1 a3\n") != (base,)  # what was claimed
    assert _keys(finding.contrasted(7, 5), source="; x\n  move Ra1 a3\n") != (base,)  # what the rules give
    # A message reworded (or quoting other positions) is the same finding.
    reworded = replace(finding, message="the cost written is not the move's cost, see line 9")
    assert _keys(reworded, source="; x\n  move Ra1 a3\n") == (base,)
    assert _keys(finding, source="; x\n  move Ra1 a3\n", path="h.sglog") != (base,)  # another input
    # The severity is not part of it: raising or lowering a code leaves its alerts in place.
    assert _keys(replace(finding, severity=Severity.WARNING), source="; x\n  move Ra1 a3\n") == (base,)


def test_two_findings_of_one_rule_on_one_line_are_told_apart_by_the_words_they_point_at() -> None:
    """Without a message in it, the span's own text tells apart two findings of one rule on one
    line (two effects of one card): each keeps its key when the other goes away."""
    source = 'spell "X" { cost 1 SP  effect skip end  effect extra turn }\n'
    skip, extra = source.index("skip end"), source.index("extra turn")
    first = Diagnostic("SG-C050", Severity.ERROR, "a", Span("g.sgcard", 1, skip + 1, 1, skip + 9, skip, skip + 8))
    second = Diagnostic(
        "SG-C050", Severity.ERROR, "a", Span("g.sgcard", 1, extra + 1, 1, extra + 11, extra, extra + 10)
    )
    both = file_fingerprints(FileResult("g.sgcard", (first, second)), {"g.sgcard": source})
    assert both[0].split(":")[0] != both[1].split(":")[0]
    (alone,) = file_fingerprints(FileResult("g.sgcard", (second,)), {"g.sgcard": source})
    assert alone == both[1]
    indented = "    " + source
    moved = replace(second, span=Span("g.sgcard", 1, extra + 5, 1, extra + 15, extra + 4, extra + 14))
    assert file_fingerprints(FileResult("g.sgcard", (moved,)), {"g.sgcard": indented}) == (alone,)


def test_a_multi_line_span_hashes_every_line_it_covers() -> None:
    span = Span("g.sglog", 1, 3, 2, 4)
    finding = Diagnostic("SG-R201", Severity.ERROR, "wrong cost", span)
    base = _keys(finding, source="  move Nb1 c3 {\n  } cost 4\n; after\n")
    assert _keys(finding, source="  move Nb1 c3 {\n  } cost 5\n; after\n") != base
    assert _keys(finding, source="  move Nb1 c3 {\n  } cost 4\n; changed\n") == base


def test_a_finding_without_span_or_source_still_gets_a_key() -> None:
    spanless = Diagnostic("SG-N301", Severity.WARNING, "card 'Blood Moon' is counted")
    unknown = Diagnostic("SG-N301", Severity.WARNING, "x", Span("elsewhere.sgcard", 3, 1, 3, 2))
    keys = file_fingerprints(FileResult("g.sglog", (spanless, unknown)), {})
    assert len(keys) == 2 and keys[0] != keys[1]


def test_findings_on_one_long_line_normalise_the_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """6,000 configuration problems on one long line once peaked at 525 MB in SARIF: each
    fingerprint held its own normalised copy of the line. The text of a stretch of lines is
    worked out once per file and each finding keeps only its hash; the keys stay as they were."""
    from sgcheck.report import sarif

    raw = ", ".join(f'"SG-Z{n:04d}"' for n in range(2_000)) + "\nsecond line\n"
    spans = [Span("g.sglog", 1, column, 1, column + 9) for column in range(1, 20_000, 400)]
    spans.append(Span("g.sglog", 2, 1, 2, 7))
    findings = tuple(Diagnostic("SG-C210", Severity.ERROR, f"unknown code {n}", span) for n, span in enumerate(spans))
    result = FileResult("g.sglog", findings)
    expected = file_fingerprints(result, {"g.sglog": raw})
    slices: list[tuple[int, int]] = []
    real = sarif._covered_range

    def recording(source: str, span: Span) -> tuple[int, int]:
        slices.append(real(source, span))
        return slices[-1]

    monkeypatch.setattr(sarif, "_covered_range", recording)
    normalised: list[str] = []
    monkeypatch.setattr(sarif, "_normalised", lambda text: normalised.append(text) or " ".join(text.split()))
    assert file_fingerprints(result, {"g.sglog": raw}) == expected
    assert len(slices) == len(spans) and len(set(slices)) == 2
    assert len(normalised) == 2
    assert len(set(expected)) == len(expected)
