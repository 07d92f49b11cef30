"""Conventions people rely on: a playtest run that can pass, exit 2 for a bad configuration, a
closed pipe that ends quietly, the command that fits a file, "did you mean", one scheme of
schema ``$id``s, and ``fmt`` finding files as ``check`` and ``replay`` do."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.cli.check_cmd import SCHEMAS
from sgcheck.codes import CATALOGUE
from sgcheck.diagnostics import closest, did_you_mean

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RIFT = EXAMPLES / "logs" / "broken" / "cards" / "rift.sgcard"  # breaks the contract: SG-C050
FORBIDDEN = EXAMPLES / "logs" / "broken" / "cards" / "forbidden-card.sglog"  # plays it
BROKEN_PACK = EXAMPLES / "packs" / "broken"
FULL_GAME = EXAMPLES / "logs" / "full-game.sglog"
WRONG_HIT = EXAMPLES / "logs" / "broken" / "wrong-hit.sglog"
LEGAL = "king white e1\nking black e8\n\n1.   main1: pass\n"
UNFORMATTED = '[Event "x"]\nking white e1\nking black e8\n\n1.   main1:   pass\n'


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def findings(output: str) -> list[tuple[str, str, str]]:
    """(code, severity, message) of every finding of a JSON report."""
    return [(d["code"], d["severity"], d["message"]) for f in json.loads(output)["files"] for d in f["diagnostics"]]


# --- 1. --allow-violations: a playtest run can pass ----------------------------------------------


@pytest.fixture
def playtest(tmp_path: Path) -> Path:
    """A legal game that names a card file breaking the contract and never plays its card."""
    shutil.copy(RIFT, tmp_path / "rift.sgcard")
    log = tmp_path / "legal.sglog"
    log.write_text('[Pack "rift.sgcard"]\n' + LEGAL, encoding="utf-8")
    return log


def test_without_allow_violations_the_pack_stops_the_game(playtest: Path) -> None:
    code, out, _ = run("replay", "--format", "json", str(playtest))
    assert code == 1
    assert [(c, s) for c, s, _ in findings(out)] == [("SG-C050", "error"), ("SG-P015", "error")]


def test_with_allow_violations_a_legal_game_passes_its_pack_errors_downgraded(playtest: Path) -> None:
    code, out, _ = run("replay", "--format", "json", "--allow-violations", str(playtest))
    assert code == 0, out
    found = findings(out)
    assert [(c, s) for c, s, _ in found] == [("SG-C050", "warning"), ("SG-N305", "warning")]
    assert found[0][2].endswith("(downgraded to a warning by --allow-violations)")
    assert "1 error, reported above as a warning" in found[1][2]
    assert json.loads(out)["counts"]["error"] == 0


def test_with_allow_violations_the_pack_of_examples_broken_plays_a_legal_game(tmp_path: Path) -> None:
    """Every kind of finding the broken pack has, syntax errors included, is a warning; the game passes."""
    log = tmp_path / "legal.sglog"
    log.write_text(LEGAL, encoding="utf-8")
    code, out, _ = run("replay", "--format", "json", "--allow-violations", "--pack", str(BROKEN_PACK), str(log))
    assert code == 0
    found = findings(out)
    downgraded = [f for f in found if f[2].endswith("(downgraded to a warning by --allow-violations)")]
    assert len(downgraded) > 30 and all(severity == "warning" for _, severity, _ in found)
    assert found[-1][0] == "SG-N305"
    assert run("replay", "--pack", str(BROKEN_PACK), str(log))[0] == 1  # refused without the flag


def test_with_allow_violations_the_offending_card_played_is_still_an_error() -> None:
    code, out, _ = run("replay", "--format", "json", "--allow-violations", str(FORBIDDEN))
    assert code == 1
    assert [(c, s) for c, s, _ in findings(out)] == [
        ("SG-C050", "warning"),
        ("SG-N305", "warning"),
        ("SG-R123", "error"),  # refused when played, as replay refuses it
    ]


# --- 2. an invalid configuration exits 2 ----------------------------------------------------------


@pytest.fixture
def bad_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.sgcheck]\nignor = ["C120"]\n', encoding="utf-8")
    (tmp_path / "cards.sgcard").write_text('relic "Hawk" { cost 5 SP effect to_hit +15 }\n', encoding="utf-8")
    (tmp_path / "legal.sglog").write_text(LEGAL, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "junit"])
def test_check_reports_an_invalid_configuration_then_exits_2(bad_config: Path, fmt: str) -> None:
    code, out, _ = run("check", "--format", fmt, "cards.sgcard")
    assert code == 2
    assert "SG-C210" in out and "ignor" in out


def test_replay_reports_an_invalid_configuration_then_exits_2(bad_config: Path) -> None:
    code, out, _ = run("replay", "legal.sglog")
    assert code == 2
    assert "pyproject.toml:2:1: SG-C210 unknown key 'ignor' in [tool.sgcheck]; did you mean 'ignore'?" in out


def test_replay_table_mistakes_exit_2_too(bad_config: Path) -> None:
    (bad_config / "pyproject.toml").write_text("[tool.sgcheck.replay]\njobs = 0\n", encoding="utf-8")
    assert run("replay", "legal.sglog")[0] == 2


def test_exit_zero_does_not_hide_an_invalid_configuration(bad_config: Path) -> None:
    assert run("check", "--exit-zero", "cards.sgcard")[0] == 2
    assert run("replay", "--exit-zero", "legal.sglog")[0] == 2


def test_isolated_and_a_valid_configuration_keep_their_status(bad_config: Path) -> None:
    assert run("check", "--isolated", "cards.sgcard")[0] == 0
    assert run("replay", "--isolated", "legal.sglog")[0] == 0
    (bad_config / "pyproject.toml").write_text('[tool.sgcheck]\nignore = ["C120"]\n', encoding="utf-8")
    assert run("check", "cards.sgcard")[0] == 0


def test_fmt_reports_an_invalid_configuration_changes_nothing_and_exits_2(bad_config: Path) -> None:
    (bad_config / "messy.sglog").write_text(UNFORMATTED, encoding="utf-8")
    code, out, err = run("fmt", ".")
    assert code == 2 and out == ""
    assert "pyproject.toml:2:1: SG-C210 unknown key 'ignor' in [tool.sgcheck]; did you mean 'ignore'?" in err
    assert "nothing formatted" in err
    assert (bad_config / "messy.sglog").read_text(encoding="utf-8") == UNFORMATTED


# --- 3. a closed pipe ends quietly, with the run's own status --------------------------------------

PIPED = [
    (["check", "--isolated", str(EXAMPLES / "cards" / "guide-relics.sgcard")], 1),
    (["check", "--isolated", "--format", "json", str(EXAMPLES / "cards" / "guide-relics.sgcard")], 1),
    (["replay", str(FULL_GAME)], 0),
    (["replay", "--format", "json", str(FULL_GAME)], 0),
    (["replay", str(WRONG_HIT)], 1),
    (["replay", "--format", "json", str(WRONG_HIT)], 1),
    (["odds"], 0),
    (["odds", "--format", "json"], 0),
    (["odds", "capture", "--attacker", "R", "--target", "P", "--distance", "2", "--format", "json"], 0),
    (["explain", "SG-R204"], 0),
    (["explain", "--list"], 0),
    (["schema", "report"], 0),
]


def _closed_early(args: list[str], cwd: Path = ROOT) -> tuple[int, bytes]:
    """Run sgcheck with a reader that went away before anything was written."""
    child = subprocess.Popen(
        [sys.executable, "-m", "sgcheck", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    errors = child.stderr.read()
    return child.wait(timeout=120), errors


@pytest.mark.skipif(os.name != "posix", reason="a pipe closed early needs POSIX")
@pytest.mark.parametrize(("args", "status"), PIPED, ids=[" ".join(args[:3]) for args, _ in PIPED])
def test_a_closed_pipe_ends_quietly_with_the_status_of_the_run(args: list[str], status: int) -> None:
    code, errors = _closed_early(args)
    assert (code, errors) == (status, b"")


@pytest.mark.skipif(os.name != "posix", reason="a pipe closed early needs POSIX")
def test_head_1_on_a_long_report_ends_quietly_after_every_log_is_replayed(tmp_path: Path) -> None:
    """`sgcheck replay folder/ | head -1`: the report is far longer than a pipe holds, the reader
    takes one line and goes; the status still counts the last log, which has the only error."""
    for number in range(120):
        (tmp_path / f"a{number:03}.sglog").write_text(FULL_GAME.read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copy(WRONG_HIT, tmp_path / "z-wrong-hit.sglog")
    command = f"{sys.executable} -m sgcheck replay --jobs 1 {tmp_path} | head -1; exit ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", command], capture_output=True, cwd=ROOT, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    assert done.stderr == b""
    assert len(done.stdout.splitlines()) == 1


# --- 4. the command that fits a file named directly -----------------------------------------------


@pytest.mark.parametrize(
    ("command", "path", "kind", "fits"),
    [
        ("check", FULL_GAME, "game log", "replay"),
        ("replay", EXAMPLES / "cards" / "guide-relics.sgcard", "card file", "check"),
        ("replay", EXAMPLES / "cards" / "guide-relics.sgcard.yaml", "card file", "check"),
        ("replay", EXAMPLES / "packs" / "starter" / "sgpack.yaml", "pack manifest", "check"),
        ("replay", EXAMPLES / "scenarios" / "gem-siege.scenario.yaml", "scenario", "check"),
    ],
)
def test_a_file_of_the_other_command_is_a_usage_error_naming_it(command: str, path: Path, kind: str, fits: str) -> None:
    code, _, err = run(command, str(path))
    assert code == 2
    assert f"{path} is a {kind}: use `sgcheck {fits} {path}`" in err


def test_folders_keep_searching_their_own_kind(tmp_path: Path) -> None:
    shutil.copy(FULL_GAME, tmp_path / "game.sglog")
    (tmp_path / "cards.sgcard").write_text('relic "Hawk" { cost 5 SP effect to_hit +5 }\n', encoding="utf-8")
    code, out, _ = run("check", "--isolated", "--format", "json", str(tmp_path))
    assert code == 0 and [f["path"].endswith("cards.sgcard") for f in json.loads(out)["files"]] == [True]
    code, out, _ = run("replay", "--isolated", "--format", "json", str(tmp_path))
    assert code == 0 and [f["path"].endswith("game.sglog") for f in json.loads(out)["files"]] == [True]


# --- 5. did you mean -----------------------------------------------------------------------------


def test_a_letter_written_for_a_digit_it_looks_like_suggests_that_code() -> None:
    """Every code with a 0, 1 or 5 in it, written with O, I or S there, is suggested back, not
    a neighbour that differs by one digit as much (C15O is C150, not C159)."""
    from sgcheck.codes import code_spellings
    from sgcheck.contract import code_catalogue

    catalogue = {**CATALOGUE, **code_catalogue()}
    spellings = code_spellings(catalogue)
    tried = 0
    for code in catalogue:
        short = code.removeprefix("SG-")
        for digit, letter in (("0", "O"), ("1", "I"), ("5", "S")):
            at = short.rfind(digit)
            if at > 0:
                tried += 1
                written = short[:at] + letter + short[at + 1 :]
                assert closest(written, spellings) == code, written
    assert tried > 100


def test_one_function_suggests_the_closest_name() -> None:
    assert closest("R240", {"SG-R204": "SG-R204", "R204": "SG-R204", "R210": "SG-R210"}) == "SG-R204"
    assert closest("kep-going", ["keep-going", "jobs"]) == "keep-going"
    assert did_you_mean("zzzz", ["keep-going"]) == ""
    assert did_you_mean("ignor", ["ignore", "select"]) == "; did you mean 'ignore'?"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["explain", "SG-R2O4"], "did you mean 'SG-R204'?"),
        (["explain", "R240"], "did you mean 'SG-R204'?"),
        (["explain", "wrong-hti"], "did you mean 'wrong-hit'?"),
        (["check", "--select", "C05O", str(EXAMPLES / "cards" / "guide-relics.sgcard")], "did you mean 'SG-C050'?"),
        (["check", "--select", "C15O", str(EXAMPLES / "cards" / "guide-relics.sgcard")], "did you mean 'SG-C150'?"),
        (["explain", "C15O"], "did you mean 'SG-C150'?"),
        (["check", "--ignore", "turn-structur", str(EXAMPLES / "cards" / "guide-relics.sgcard")],
         "did you mean 'turn-structure'?"),
        (["replay", "--ignore", "wrong-hti", str(FULL_GAME)], "did you mean 'wrong-hit'?"),
        (["replay", "--select", "R2O4", str(FULL_GAME)], "did you mean 'SG-R204'?"),
        (["rulings", "R62"], "did you mean 'R26'?"),
        (["replay", "--kep-going", str(FULL_GAME)], "--keep-going"),  # click's own, for a subcommand's option
        (["odds", "capture", "--atacker", "R"], "--attacker"),
        (["chek"], "'check'"),
    ],
)  # fmt: skip
def test_an_unknown_name_on_the_command_line_gets_a_suggestion(args: list[str], said: str) -> None:
    code, _, err = run(*args)
    assert code == 2
    assert said in err


def test_an_unknown_setting_or_code_in_the_configuration_gets_a_suggestion(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.sgcheck]\nexclud = []\nselect = ["C05O"]\n[tool.sgcheck.replay]\nkeep_going = true\nignore = ["N33"]\n',
        encoding="utf-8",
    )
    shutil.copy(FULL_GAME, tmp_path / "game.sglog")
    _, out, _ = run("replay", str(tmp_path / "game.sglog"))
    assert "unknown key 'exclud' in [tool.sgcheck]; did you mean 'exclude'?" in out
    assert "unknown code 'C05O'; did you mean 'SG-C050'?" in out
    assert "unknown key 'keep_going' in [tool.sgcheck.replay]; did you mean 'keep-going'?" in out


def test_suggestions_in_a_configuration_stop_after_a_budget(tmp_path: Path) -> None:
    """Thousands of unknown codes are reported without each being compared with every code."""
    from sgcheck.config import _SUGGESTION_BUDGET
    from sgcheck.contract import load_config

    codes = ", ".join(f'"C{number:04}"' for number in range(200))
    (tmp_path / "pyproject.toml").write_text(f"[tool.sgcheck]\nignore = [{codes}]\n", encoding="utf-8")
    problems = load_config(tmp_path / "pyproject.toml").problems
    assert len(problems) == 200
    assert sum("did you mean" in p.message for p in problems) <= _SUGGESTION_BUDGET


# --- 6. schemas: sgcheck schema report, one scheme of $id ---------------------------------------

SCHEMA_FILES = sorted((ROOT / "schemas").glob("*.schema.json"))


def test_every_schema_file_is_printed_by_sgcheck_schema() -> None:
    assert sorted(SCHEMAS.values()) == [path.name for path in SCHEMA_FILES]
    assert SCHEMAS["report"] == "report.schema.json"


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda path: path.name)
def test_every_schema_id_has_the_one_scheme_and_the_cli_prints_the_file(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert re.fullmatch(r"https://sgcheck\.dev/schemas/[a-z]+\.schema\.json", schema["$id"])
    assert schema["$id"].endswith("/" + path.name)
    kind = path.name.removesuffix(".schema.json")
    code, out, _ = run("schema", kind)
    assert code == 0 and out == path.read_text(encoding="utf-8")


def test_the_report_schema_id_is_the_one_the_json_report_module_names() -> None:
    from sgcheck.report.json_format import SCHEMA_ID

    schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
    assert schema["$id"] == SCHEMA_ID


# --- 8. fmt finds files as check and replay do ----------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """keep/, skip/ (excluded by the configuration), ign/ (ignored by git), each with a messy log."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("ign/\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.sgcheck]\nexclude = ["skip/"]\n', encoding="utf-8")
    for folder in ("keep", "skip", "ign", "other"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.sglog").write_text(UNFORMATTED, encoding="utf-8")
    return tmp_path


def _would(args: list[str]) -> set[str]:
    code, out, _ = run("fmt", "--check", *args)
    assert code in (0, 1)
    return {line.removeprefix("would reformat ").replace(os.sep, "/") for line in out.splitlines()}


def test_fmt_honours_the_configuration_and_gitignore(tree: Path) -> None:
    assert _would(["."]) == {"keep/a.sglog", "other/a.sglog"}
    assert run("fmt", ".")[0] == 0
    assert (tree / "skip" / "a.sglog").read_text(encoding="utf-8") == UNFORMATTED  # never rewritten
    assert (tree / "ign" / "a.sglog").read_text(encoding="utf-8") == UNFORMATTED
    assert (tree / "keep" / "a.sglog").read_text(encoding="utf-8") != UNFORMATTED


def test_fmt_exclude_options_are_those_of_check_and_replay(tree: Path) -> None:
    assert _would(["--exclude", "keep/", "."]) == {"skip/a.sglog", "other/a.sglog"}  # replaces the configuration's
    assert _would(["--extend-exclude", "keep/", "."]) == {"other/a.sglog"}
    assert _would(["--no-respect-gitignore", "."]) == {"keep/a.sglog", "other/a.sglog", "ign/a.sglog"}
    assert _would(["skip/a.sglog", "keep/a.sglog"]) == {"skip/a.sglog", "keep/a.sglog"}  # named files are formatted
    assert _would(["--force-exclude", "skip/a.sglog", "keep/a.sglog"]) == {"keep/a.sglog"}
    for option in ("--exclude", "--extend-exclude", "--force-exclude", "--no-respect-gitignore"):
        assert all(option in run(command, "--help")[1] for command in ("fmt", "check", "replay"))


# --- 9. SG-N301 says what it is emitted for --------------------------------------------------------


def test_sg_n301_is_a_card_in_a_game_that_names_no_pack(tmp_path: Path) -> None:
    log = tmp_path / "no-pack.sglog"
    log.write_text(LEGAL.replace("pass", 'play "Temporal Rift"'), encoding="utf-8")
    code, out, _ = run("replay", "--format", "json", str(log))
    assert code == 0
    [(found, severity, message)] = findings(out)
    assert (found, severity) == ("SG-N301", "warning")
    assert "the game names no pack" in message and "not played" in message
    assert "names no pack" in CATALOGUE["SG-N301"].explanation
    with_pack = tmp_path / "with-pack.sglog"
    shutil.copy(RIFT, tmp_path / "rift.sgcard")
    with_pack.write_text('[Pack "rift.sgcard"]\n' + log.read_text(encoding="utf-8"), encoding="utf-8")
    played = findings(run("replay", "--format", "json", "--allow-violations", str(with_pack))[1])
    assert "SG-N301" not in [c for c, _, _ in played]  # with a pack, the card is played (and refused here)


# --- one option name per concept --------------------------------------------------------------------


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


def test_each_short_option_and_each_shown_name_means_one_thing_in_every_command() -> None:
    """-o is --output-file wherever it exists (replay, check, simulate, dice secret), and no two
    commands give one short option two long names."""
    long_of: dict[str, set[str]] = {}
    for _, command in _commands(main):
        for param in command.params:
            if not isinstance(param, click.Option):
                continue
            hidden = set(getattr(param, "aliases", ()))
            shown = [opt for opt in param.opts if opt.startswith("--") and opt not in hidden]
            for short in (opt for opt in param.opts if not opt.startswith("--")):
                long_of.setdefault(short, set()).update(shown)
    assert long_of["-o"] == {"--output-file"}
    assert all(len(names) == 1 for names in long_of.values()), long_of


@pytest.mark.parametrize("spelling", ["-o", "--output-file", "--output"])
def test_simulate_and_dice_secret_write_to_the_file_any_spelling_names(tmp_path: Path, spelling: str) -> None:
    """The old --output still works (a hidden alias), and --help shows only -o/--output-file."""
    secret = tmp_path / "mine.secret"
    code, out, _ = run("dice", "secret", spelling, str(secret))
    assert code == 0 and out.startswith("commitment") and len(secret.read_text().strip()) == 64
    report = tmp_path / "sim.json"
    code, _, _ = run("simulate", str(EXAMPLES / "packs" / "starter"), "--games", "1", "--turn-limit", "2",
                     "--format", "json", spelling, str(report))  # fmt: skip
    assert code == 0 and json.loads(report.read_text())
    for args in (["simulate", "--help"], ["dice", "secret", "--help"]):
        _, shown, _ = run(*args)
        assert "-o, --output-file" in shown and "--output " not in shown and "--output," not in shown
