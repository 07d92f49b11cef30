"""What linters have taught CI users, in sgcheck: codes in any spelling everywhere, --select,
--extend-select, --ignore and per-file ignores (on the command line and in [tool.sgcheck]),
--statistics, --output-file, --exit-zero, --fail-on, -q/-v, and [tool.sgcheck.replay]."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.codes import CATALOGUE, select_codes, spell_code
from sgcheck.contract.registry import code_catalogue

ROOT = Path(__file__).resolve().parents[2]
WRONG_HIT = ROOT / "examples" / "logs" / "broken" / "wrong-hit.sglog"
FULL_GAME = ROOT / "examples" / "logs" / "full-game.sglog"
# SG-C120 (a warning: to-hit bonuses that stack past the cap) and SG-C092 (a warning: a card with no cost)
STACK = 'relic "Hawk" { cost 5 SP effect to_hit +15 }\nrelic "Owl" { cost 5 SP effect to_hit +15 }\n'
FREE = 'spell "Gift" { phase main1 effect gain 1 LP }\n'
EVERY = {**CATALOGUE, **code_catalogue()}


def run(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    if cwd is None:
        result = runner.invoke(main, list(args))
    else:
        with runner.isolated_filesystem(temp_dir=cwd):
            result = runner.invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def codes_in(output: str) -> list[str]:
    return [d["code"] for f in json.loads(output)["files"] for d in f["diagnostics"]]


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    (tmp_path / "cards.sgcard").write_text(STACK + FREE, encoding="utf-8")
    return tmp_path / "cards.sgcard"


# --- one spelling of a code, everywhere ---------------------------------------------------------


@pytest.mark.parametrize(
    "spelling", ["SG-C050", "C050", "c050", "sg-c050", "sgc050", " C050 ", "turn-structure", "TURN_STRUCTURE"]
)
def test_every_spelling_names_the_code(spelling: str) -> None:
    assert spell_code(spelling, EVERY) == "SG-C050"
    assert select_codes(spelling, EVERY) == {"SG-C050"}


def test_a_prefix_names_a_family_and_all_names_every_code() -> None:
    assert select_codes("R2", EVERY) == {code for code in EVERY if code.startswith("SG-R2")}
    assert select_codes("SG-C05", EVERY) == {code for code in EVERY if code.startswith("SG-C05")}
    assert select_codes("n", EVERY) == {code for code in EVERY if code.startswith("SG-N")}
    assert select_codes("ALL", EVERY) == set(EVERY)
    assert spell_code("R2", EVERY) is None  # a family is not one code
    assert select_codes("C9999", EVERY) == set() and spell_code("nonsense", EVERY) is None


def test_rule_names_are_unique_across_replay_and_contract_codes() -> None:
    """A name stands for one code: --ignore NAME must not switch off two."""
    names = Counter(info.name for info in EVERY.values())
    assert [name for name, count in names.items() if count > 1] == []


@pytest.mark.parametrize("spelling", ["SG-R204", "r204", "wrong-hit", "Wrong_Hit"])
def test_explain_takes_every_spelling(spelling: str) -> None:
    code, out, _ = run("explain", spelling)
    assert code == 0 and out.startswith("SG-R204 wrong-hit (error)")


@pytest.mark.parametrize("spelling", ["SG-C092", "c092", "its name"])
def test_a_suppression_comment_takes_every_spelling(tmp_path: Path, spelling: str) -> None:
    written = EVERY["SG-C092"].name if spelling == "its name" else spelling
    (tmp_path / "c.sgcard").write_text(f"# sgcheck: ignore {written} -- a gift on purpose\n{FREE}", encoding="utf-8")
    code, out, _ = run("check", "--format", "json", str(tmp_path / "c.sgcard"))
    document = json.loads(out)
    assert codes_in(out) == [] and code == 0
    assert [s["diagnostic"]["code"] for f in document["files"] for s in f["suppressed"]] == ["SG-C092"]


def test_a_configuration_takes_every_spelling(tmp_path: Path, cards: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.sgcheck]\nignore = ["c120"]\n[tool.sgcheck.severity]\nc092 = "error"\n'
    )
    code, out, _ = run("check", "--format", "json", str(cards))
    assert codes_in(out) == ["SG-C092"] and code == 1
    assert json.loads(out)["files"][0]["diagnostics"][0]["severity"] == "error"


# --- select, extend-select, ignore, per-file ignores ---------------------------------------------


def test_select_ignore_and_extend_select_on_the_command_line(cards: Path) -> None:
    assert sorted(codes_in(run("check", "--format", "json", str(cards))[1])) == ["SG-C092", "SG-C120"]
    assert codes_in(run("check", "--format", "json", "--select", "C12", str(cards))[1]) == ["SG-C120"]
    assert codes_in(run("check", "--format", "json", "--ignore", "C120,C092", str(cards))[1]) == []
    found = run("check", "--format", "json", "--select", "C120", "--extend-select", "c092", str(cards))[1]
    assert sorted(codes_in(found)) == ["SG-C092", "SG-C120"]


def test_the_command_lines_select_replaces_the_files_and_its_extend_select_wins_over_its_ignore(
    tmp_path: Path, cards: Path
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.sgcheck]\nselect = ["C120"]\nignore = ["C092"]\n')
    assert codes_in(run("check", "--format", "json", str(cards))[1]) == ["SG-C120"]
    assert codes_in(run("check", "--format", "json", "--select", "C092", str(cards))[1]) == []  # the file ignores it
    extended = run("check", "--format", "json", "--extend-select", "C092", str(cards))[1]
    assert sorted(codes_in(extended)) == ["SG-C092", "SG-C120"]


def test_per_file_ignores_on_the_command_line_and_in_the_configuration(tmp_path: Path, cards: Path) -> None:
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.sgcard").write_text(FREE.replace("Gift", "Old Gift"), encoding="utf-8")
    both = run("check", "--format", "json", str(tmp_path))[1]
    assert Counter(codes_in(both))["SG-C092"] == 2
    spared = run("check", "--format", "json", "--per-file-ignores", "legacy/*.sgcard:c092", str(tmp_path))[1]
    files = {
        f["path"].replace("\\", "/").rsplit("/", 2)[-1]: [d["code"] for d in f["diagnostics"]]
        for f in json.loads(spared)["files"]
    }
    assert "SG-C092" not in files.get("old.sgcard", []) and "SG-C092" in files["cards.sgcard"]
    name = EVERY["SG-C092"].name
    (tmp_path / "pyproject.toml").write_text(f'[tool.sgcheck.per-file-ignores]\n"legacy/*" = ["{name}"]\n')
    configured = run("check", "--format", "json", str(tmp_path))[1]
    assert Counter(codes_in(configured))["SG-C092"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--select", "nonsense"], "'nonsense' names no code"),
        (["--ignore", "SG-P020"], "cannot be switched off"),
        (["--per-file-ignores", "nocolon"], "is not GLOB:CODES"),
    ],
)
def test_bad_selections_are_usage_errors(cards: Path, args: list[str], message: str) -> None:
    code, _, err = run("check", *args, str(cards))
    assert code == 2 and message in err


# --- statistics, output file, exit status, verbosity ---------------------------------------------


def test_statistics_count_each_code_instead_of_listing_findings(cards: Path) -> None:
    code, out, _ = run("check", "--statistics", str(cards))
    lines = out.splitlines()
    assert lines[0].split() == ["1", "SG-C092", EVERY["SG-C092"].name, "warning"]
    assert lines[1].split() == ["1", "SG-C120", EVERY["SG-C120"].name, "warning"]
    assert "-->" not in out and "|" not in out and lines[-1].startswith("1 file checked: 2 warnings")
    assert code == 0
    assert run("check", "--statistics", "--format", "json", str(cards))[0] == 2


def test_output_file_takes_the_report_and_standard_output_stays_empty(tmp_path: Path, cards: Path) -> None:
    target = tmp_path / "report.json"
    code, out, _ = run("check", "--format", "json", "--output-file", str(target), str(cards))
    assert out == "" and code == 0
    assert sorted(codes_in(target.read_text(encoding="utf-8"))) == ["SG-C092", "SG-C120"]
    code, out, _ = run("replay", "-o", str(tmp_path / "replay.txt"), str(WRONG_HIT))
    assert out == "" and code == 1 and "SG-R204" in (tmp_path / "replay.txt").read_text(encoding="utf-8")
    code, _, err = run("check", "--output-file", str(tmp_path / "missing" / "r.txt"), str(cards))
    assert code == 2 and "--output-file" in err


def test_exit_zero_and_fail_on(cards: Path) -> None:
    assert run("check", str(cards))[0] == 0  # warnings only
    assert run("check", "--fail-on", "warning", str(cards))[0] == 1
    assert run("replay", str(WRONG_HIT))[0] == 1
    assert run("replay", "--exit-zero", str(WRONG_HIT))[0] == 0
    assert run("replay", "--exit-zero", str(WRONG_HIT) + ".missing")[0] == 2  # usage still fails


def test_quiet_check_drops_summaries_and_verbose_says_what_is_read(tmp_path: Path) -> None:
    pack = ROOT / "examples" / "packs" / "starter"
    loud = run("check", str(pack))[1]
    quiet = run("check", "-q", str(pack))[1]
    assert len(quiet) < len(loud) and quiet.splitlines()[-1] == loud.splitlines()[-1]
    _, _, err = run("check", "-v", "--isolated", str(pack))
    assert "sgcheck: configuration: none" in err and "to check" in err


# --- replay: stdin-filename, selection, [tool.sgcheck.replay] ------------------------------------


def test_replay_reports_standard_input_under_its_given_name() -> None:
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["replay", "-", "--stdin-filename", "league/game.sglog", "--format", "github"],
        input=WRONG_HIT.read_bytes(),
    )
    assert result.exit_code == 1 and "file=league/game.sglog,line=15,col=14" in result.stdout


def test_replay_switches_off_notes_but_never_an_error() -> None:
    """R09: a house rule is noted (SG-N303); the note may be ignored. The locked core's errors may not."""
    noted = run("replay", "--format", "json", "--ruleset", "king_value=3", str(FULL_GAME))[1]
    assert "SG-N303" in codes_in(noted)
    quiet = run(
        "replay", "--format", "json", "--ruleset", "king_value=3", "--ignore", "house-rule-played", str(FULL_GAME)
    )[1]
    assert "SG-N303" not in codes_in(quiet)
    code, _, err = run("replay", "--ignore", "r204", str(WRONG_HIT))
    assert code == 2 and "SG-R204, an error" in err
    assert codes_in(run("replay", "--format", "json", "--select", "N", str(WRONG_HIT))[1]) == ["SG-R204"]


def test_replay_reads_its_table_of_the_configuration(tmp_path: Path) -> None:
    log = tmp_path / "wrong-hit.sglog"
    log.write_text(WRONG_HIT.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.sgcheck.replay]\nkeep-going = true\nruleset = "king_value=3"\nignore = ["N303"]\n'
    )
    document = json.loads(run("replay", "--format", "json", str(log))[1])
    facts = document["files"][0]["facts"]
    assert "king_value=3" in json.dumps(facts) and "SG-N303" not in codes_in(json.dumps(document))
    isolated = json.loads(run("replay", "--format", "json", "--isolated", str(log))[1])
    assert "king_value=3" not in json.dumps(isolated["files"][0]["facts"])
    (tmp_path / "pyproject.toml").write_text('[tool.sgcheck.replay]\nkeep_going = "yes"\n')
    code, out, _ = run("replay", str(log))
    assert "SG-C210 unknown key 'keep_going' in [tool.sgcheck.replay]; did you mean 'keep-going'?" in out
    assert code == 2  # an invalid configuration is reported, then exits 2 (as ruff does)


def test_statistics_can_be_the_configurations_default(tmp_path: Path, cards: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.sgcheck]\nstatistics = true\n[tool.sgcheck.replay]\nstatistics = true\n"
    )
    code, out, _ = run("check", str(cards))
    assert out.splitlines()[0].split()[:2] == ["1", "SG-C092"] and code == 0
    assert "-->" not in out
    assert "cards.sgcard:1:26: SG-C120 warning" in run("check", "--no-statistics", str(cards))[1]  # the findings
    log = tmp_path / "wrong-hit.sglog"
    log.write_text(WRONG_HIT.read_text(encoding="utf-8"), encoding="utf-8")
    assert run("replay", str(log))[1].splitlines()[0].split() == ["1", "SG-R204", "wrong-hit", "error"]
