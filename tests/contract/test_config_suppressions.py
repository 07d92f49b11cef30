"""[tool.sgcheck] configuration and inline suppressions (each with a reason, none unused)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sgcheck.config import Config, find_pyproject
from sgcheck.contract import check_paths, code_catalogue, load_config
from sgcheck.diagnostics import Severity

STACK = 'relic "Hawk" { cost 5 SP effect to_hit +15 }\nrelic "Owl" { cost 5 SP effect to_hit +15 }\n'
FREE = 'spell "Gift" { phase main1 effect gain 1 LP }\n'


def run_codes(folder: Path, config: Config | None = None) -> list[str]:
    return [d.code for d in check_paths([str(folder)], config).diagnostics]


def test_nearest_pyproject_with_a_sgcheck_table_is_found(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.sgcheck]\ndisable = ["SG-C120"]\n')
    nested = tmp_path / "repo" / "pack"
    nested.mkdir(parents=True)
    (tmp_path / "repo" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no table: keep searching
    assert find_pyproject(nested) == tmp_path / "pyproject.toml"
    assert find_pyproject(Path("/")) is None or find_pyproject(Path("/")) != tmp_path


def test_disable_and_severity(tmp_path: Path) -> None:
    (tmp_path / "cards.sgcard").write_text(STACK + FREE)
    assert sorted(run_codes(tmp_path)) == ["SG-C092", "SG-C120"]
    (tmp_path / "pyproject.toml").write_text(
        '[tool.sgcheck]\ndisable = ["SG-C120"]\n[tool.sgcheck.severity]\nSG-C092 = "error"\n'
    )
    config = load_config(tmp_path / "pyproject.toml")
    run = check_paths([str(tmp_path)], config)
    assert [(d.code, d.severity) for d in run.diagnostics] == [("SG-C092", Severity.ERROR)]
    assert run.has_errors
    assert run_codes(tmp_path, config.with_codes(code_catalogue(), enable=["SG-C120"])).count("SG-C120") == 1


def test_command_line_codes_are_validated() -> None:
    with pytest.raises(ValueError):
        Config().with_codes(code_catalogue(), disable=["SG-C999"])
    with pytest.raises(ValueError):
        Config().with_codes(code_catalogue(), disable=["SG-P020"])  # unreadable cards are always reported


def test_config_problems_are_findings_and_the_rest_applies(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.sgcheck]\ndisable = ["SG-C120", "SG-X001"]\nfoo = 1\n')
    config = load_config(tmp_path / "pyproject.toml", "pyproject.toml")
    assert config.disabled == {"SG-C120"}
    assert [(d.code, d.span.line) for d in config.problems] == [("SG-C210", 3), ("SG-C210", 2)]  # type: ignore[union-attr]
    broken = tmp_path / "bad.toml"
    broken.write_text("[tool.sgcheck\n")
    assert [d.code for d in load_config(broken).problems] == ["SG-C210"]


def test_config_ruleset_applies_to_loose_files(tmp_path: Path) -> None:
    """R09 as a table choice: the King may attack, so the condition can hold."""
    (tmp_path / "c.sgcard").write_text('spell "Royal Blow" { cost 2 SP effect damage +1 when attacker is King }\n')
    (tmp_path / "pyproject.toml").write_text("[tool.sgcheck]\nruleset = 'core; king_value=3'\n")
    assert "SG-C091" in run_codes(tmp_path)
    assert "SG-C091" not in run_codes(tmp_path, load_config(tmp_path / "pyproject.toml"))


def test_suppression_covers_its_card_only(tmp_path: Path) -> None:
    (tmp_path / "c.sgcard").write_text(
        "# sgcheck: ignore SG-C092 -- the starter gift is free on purpose\n"
        + FREE
        + FREE.replace("Gift", "Second Gift")
        + 'spell "Third" {\n  effect gain 1 LP  # sgcheck: ignore SG-C092 -- inside the card\n}\n'
    )
    run = check_paths([str(tmp_path)])
    assert [(d.code, d.span.line) for d in run.diagnostics] == [("SG-C092", 3)]  # type: ignore[union-attr]


def test_file_and_pack_wide_suppressions(tmp_path: Path) -> None:
    (tmp_path / "c.sgcard").write_text(
        "# sgcheck: ignore-file SG-C092 -- all free\n" + FREE + FREE.replace("Gift", "G2")
    )
    assert run_codes(tmp_path) == []
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "c.sgcard").write_text(STACK)
    (pack / "sgpack.yaml").write_text(
        "# sgcheck: ignore SG-C120 -- runtime clamps; accepted for this pack\n"
        "name: p\nversion: '1'\ncards: [c.sgcard]\n"
    )
    assert run_codes(pack) == []


def test_reasonless_unused_and_malformed_suppressions(tmp_path: Path) -> None:
    (tmp_path / "c.sgcard").write_text(
        "# sgcheck: ignore SG-C092\n"
        + FREE
        + "# sgcheck: ignore SG-C010 -- stale\n"
        + 'spell "Aim" { cost 1 SP effect to_hit +5 }\n'
        + "# sgcheck: ignore everything -- please\n"
    )
    assert sorted(run_codes(tmp_path)) == ["SG-C092", "SG-C220", "SG-C221", "SG-C222"]


def test_unused_check_ignores_codes_the_config_disables(tmp_path: Path) -> None:
    (tmp_path / "c.sgcard").write_text("# sgcheck: ignore SG-C120 -- accepted\n" + STACK)
    assert run_codes(tmp_path, Config().with_codes(code_catalogue(), disable=["SG-C120"])) == []


def test_hash_inside_quotes_is_not_a_comment(tmp_path: Path) -> None:
    (tmp_path / "c.sgcard").write_text('spell "Gift" { text "# sgcheck: ignore SG-C092 -- no" effect gain 1 LP }\n')
    assert run_codes(tmp_path) == ["SG-C092"]


# --- suppressed findings stay visible ---------------------------------------------------------------

# a discount past the cheapest attack, an error with its game (a cost below 0, core §8)
LOOP = (
    'relic "Pawn Bounty" passive {\n'
    "    cost 3 SP\n"
    "    # sgcheck: ignore SG-C005 -- playtest prototype, bounded by a house rule\n"
    "    effect cost attack -4\n"
    "}\n"
)


def test_a_suppressed_contract_break_is_listed_with_its_reason(tmp_path: Path) -> None:
    """core §8: a suppression silences a finding (no error, exit 0) but never hides it: the run
    keeps it, with the comment's reason and place."""
    (tmp_path / "c.sgcard").write_text(LOOP)
    run = check_paths([str(tmp_path)])
    assert run.diagnostics == () and not run.has_errors
    (quiet,) = run.suppressed
    assert quiet.diagnostic.code == "SG-C005" and quiet.diagnostic.is_error
    assert quiet.reason == "playtest prototype, bounded by a house rule"
    assert (quiet.at.line, quiet.at.column) == (3, 5)


def test_no_suppressions_reports_what_they_would_silence(tmp_path: Path) -> None:
    """``suppressions = false`` (``--no-suppressions``): for CI that must not honour in-source
    silencing of §8 errors; an unused suppression is not reported then."""
    (tmp_path / "c.sgcard").write_text(LOOP)
    strict = Config(honour_suppressions=False)
    run = check_paths([str(tmp_path)], strict)
    assert [d.code for d in run.diagnostics] == ["SG-C005"] and run.suppressed == ()
    (tmp_path / "pyproject.toml").write_text("[tool.sgcheck]\nsuppressions = false\n")
    assert load_config(tmp_path / "pyproject.toml").honour_suppressions is False
    (tmp_path / "pyproject.toml").write_text('[tool.sgcheck]\nsuppressions = "no"\n')
    loaded = load_config(tmp_path / "pyproject.toml")
    assert loaded.honour_suppressions is True and [p.code for p in loaded.problems] == ["SG-C210"]


def test_suppressed_findings_in_every_format(tmp_path: Path) -> None:
    """Text counts them, JSON lists them with their reason (and validates), SARIF marks them
    ``inSource`` with the reason as justification (and validates)."""
    import json

    from click.testing import CliRunner
    from jsonschema import Draft7Validator, Draft202012Validator

    from sgcheck.cli import main

    (tmp_path / "c.sgcard").write_text(LOOP)
    runner = CliRunner()
    text = runner.invoke(main, ["check", str(tmp_path / "c.sgcard")])
    assert text.exit_code == 0
    assert text.output.rstrip().endswith("no problems found; 1 suppressed (listed with --format json or sarif)")
    strict = runner.invoke(main, ["check", "--no-suppressions", str(tmp_path / "c.sgcard")])
    assert strict.exit_code == 1 and "SG-C005" in strict.output
    root = Path(__file__).resolve().parents[2]
    document = json.loads(runner.invoke(main, ["check", "--format", "json", str(tmp_path / "c.sgcard")]).output)
    Draft202012Validator(json.loads((root / "schemas" / "report.schema.json").read_text())).validate(document)
    assert document["counts"] == {"error": 0, "warning": 0, "note": 0, "suppressed": 1}
    (entry,) = document["files"][0]["suppressed"]
    assert entry["diagnostic"]["code"] == "SG-C005" and entry["reason"].startswith("playtest prototype")
    sarif = json.loads(runner.invoke(main, ["check", "--format", "sarif", str(tmp_path / "c.sgcard")]).output)
    Draft7Validator(json.loads((root / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())).validate(sarif)
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "SG-C005"
    assert result["suppressions"][0]["kind"] == "inSource"
    assert result["suppressions"][0]["justification"] == "playtest prototype, bounded by a house rule"
