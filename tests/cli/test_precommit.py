"""The command line as pre-commit runs it: the changed files passed, ``--exclude``,
``--force-exclude`` and ``--no-respect-gitignore``, and the published hook definitions."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from ruamel.yaml import YAML

from sgcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
LEGAL_LOG = ROOT / "examples" / "logs" / "guide-example-a.sglog"
GOOD = 'spell "Good" { cost 1 SP phase main1 effect gain 1 SP }\n'
BROKEN = 'relic "Broken" { cost 5 SP effect to_hit +15\n'  # a syntax error: exit 1


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return folder


def checked(result: Result) -> list[str]:
    return [entry["path"] for entry in json.loads(result.output)["files"]]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with a pack, a loose card, an ignored folder and an excluded folder; the
    working directory is its root, as when pre-commit runs."""
    (tmp_path / ".git").mkdir()
    write(
        tmp_path,
        {
            ".gitignore": "generated/\n",
            "pyproject.toml": '[tool.sgcheck]\nexclude = ["legacy/"]\n',
            "packs/demo/sgpack.yaml": "name: demo\nversion: 1.0.0\ncards:\n  - a.sgcard\n  - sub/b.sgcard\n",
            "packs/demo/a.sgcard": GOOD,
            "packs/demo/sub/b.sgcard": GOOD.replace("Good", "Other"),
            "loose.sgcard": GOOD,
            "generated/g.sgcard": BROKEN,
            "legacy/old.sgcard": BROKEN,
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_folder_walk_skips_ignored_and_configured_excluded_files(project: Path) -> None:
    result = invoke("check", ".", "--format", "json")
    assert checked(result) == [
        "loose.sgcard",
        "packs/demo/sgpack.yaml",
        "packs/demo/a.sgcard",
        "packs/demo/sub/b.sgcard",
    ]  # a pack: its manifest, then its cards
    assert result.exit_code == 0


def test_no_respect_gitignore_and_an_empty_exclude_search_everything(project: Path) -> None:
    result = invoke("check", ".", "--format", "json", "--no-respect-gitignore")
    assert "generated/g.sgcard" in checked(result) and "legacy/old.sgcard" not in checked(result)
    result = invoke("check", ".", "--format", "json", "--exclude", "packs/", "--no-respect-gitignore")
    assert checked(result) == ["loose.sgcard", "generated/g.sgcard", "legacy/old.sgcard"]  # --exclude replaces
    assert result.exit_code == 1


def test_extend_exclude_adds_to_the_configuration(project: Path) -> None:
    result = invoke("check", ".", "--format", "json", "--extend-exclude", "loose.sgcard")
    assert checked(result) == ["packs/demo/sgpack.yaml", "packs/demo/a.sgcard", "packs/demo/sub/b.sgcard"]


def test_isolated_ignores_the_configured_exclude(project: Path) -> None:
    result = invoke("check", ".", "--format", "json", "--isolated")
    assert "legacy/old.sgcard" in checked(result)


def test_a_named_file_is_checked_unless_force_exclude(project: Path) -> None:
    result = invoke("check", "legacy/old.sgcard", "generated/g.sgcard", "--format", "json")
    assert checked(result) == ["legacy/old.sgcard", "generated/g.sgcard"]
    assert result.exit_code == 1
    result = invoke("check", "--force-exclude", "legacy/old.sgcard", "generated/g.sgcard", "--format", "json")
    assert checked(result) == ["generated/g.sgcard"]  # ignore files never leave out a named file
    result = invoke("check", "--force-exclude", "legacy/old.sgcard", "loose.sgcard", "--format", "json")
    assert checked(result) == ["loose.sgcard"]
    assert result.exit_code == 0


def test_force_exclude_of_every_named_file_is_a_clean_run(project: Path) -> None:
    result = invoke("check", "--force-exclude", "legacy/old.sgcard")
    assert result.exit_code == 0 and result.output == ""


def test_changed_card_files_check_their_pack_once(project: Path) -> None:
    result = invoke("check", "packs/demo/a.sgcard", "packs/demo/sub/b.sgcard", "loose.sgcard", "--format", "json")
    assert checked(result) == [
        "packs/demo/sgpack.yaml",
        "packs/demo/a.sgcard",
        "packs/demo/sub/b.sgcard",
        "loose.sgcard",
    ]  # each file once
    report = json.loads(result.output)
    assert report["files"][0]["facts"]["pack"] == "demo"


def test_a_cycle_across_two_files_is_found_from_one_changed_file(project: Path) -> None:
    write(
        project,
        {
            "packs/loop/sgpack.yaml": "name: loop\nversion: 1.0.0\ncards:\n  - a.sgcard\n  - b.sgcard\n",
            "packs/loop/a.sgcard": 'relic "Bounty" { cost 4 SP effect on capture: gain 2 LP }\n',
            "packs/loop/b.sgcard": 'relic "Blood Price" { cost 4 SP effect on gain LP: deal 1 damage to enemy Pawn }\n',
        },
    )
    alone = invoke("check", "--isolated", "--format", "json", "packs/loop/a.sgcard", "--no-respect-gitignore")
    whole = invoke("check", "--format", "json", "packs/loop/sgpack.yaml")
    assert checked(alone) == checked(whole) == ["packs/loop/sgpack.yaml", "packs/loop/a.sgcard", "packs/loop/b.sgcard"]
    assert json.loads(alone.output)["counts"] == json.loads(whole.output)["counts"]
    codes = [finding["code"] for entry in json.loads(alone.output)["files"] for finding in entry["diagnostics"]]
    assert "SG-C101" in codes  # the trigger cycle spans both files: checking a.sgcard alone would miss it
    assert alone.exit_code == 1


def test_an_exclude_pattern_that_could_be_slow_is_a_usage_error(project: Path) -> None:
    result = CliRunner().invoke(main, ["check", ".", "--exclude", "*a*b*c"])
    assert result.exit_code == 2
    assert "at most 2 runs of '*'" in result.output


def test_replay_honours_ignore_files_exclude_and_force_exclude(project: Path) -> None:
    for name in ("logs/a.sglog", "generated/b.sglog", "legacy/c.sglog", "drafts/d.sglog"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(LEGAL_LOG, project / name)
    result = invoke("replay", ".", "--format", "json", "--no-summary", "--extend-exclude", "drafts")
    assert checked(result) == ["logs/a.sglog"]
    result = invoke("replay", "legacy/c.sglog", "--format", "json", "--no-summary")
    assert checked(result) == ["legacy/c.sglog"]
    assert invoke("replay", "--force-exclude", "legacy/c.sglog").exit_code == 0
    result = invoke("replay", "--force-exclude", "--format", "json", "-q", "legacy/c.sglog", "logs/a.sglog")
    assert checked(result) == ["logs/a.sglog"]


def test_a_folder_with_only_ignored_files_says_why_nothing_was_found(project: Path) -> None:
    result = CliRunner().invoke(main, ["check", "generated"])
    assert result.exit_code == 2
    assert "git ignores" in result.output


# --- the published hooks -------------------------------------------------------------------------


def hooks() -> dict[str, dict[str, object]]:
    entries = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {entry["id"]: entry for entry in entries}


def test_the_hooks_pass_the_changed_files() -> None:
    published = hooks()
    assert {"sgcheck", "sgcheck-replay"} <= set(published)
    for hook_id, entry in (("sgcheck", "sgcheck check"), ("sgcheck-replay", "sgcheck replay")):
        hook = published[hook_id]
        assert hook["entry"] == entry and hook["language"] == "python"
        assert hook["pass_filenames"] is True and hook["require_serial"] is True
        assert "--force-exclude" in hook["args"]  # type: ignore[operator]


@pytest.mark.parametrize(
    ("hook_id", "name", "runs"),
    [
        ("sgcheck", "packs/demo/a.sgcard", True),
        ("sgcheck", "cards/A.SGCARD", True),
        ("sgcheck", "cards/a.sgcard.yaml", True),
        ("sgcheck", "cards/a.sgcard.yml", True),
        ("sgcheck", "packs/demo/sgpack.yaml", True),
        ("sgcheck", "sgpack.yml", True),
        ("sgcheck", "drills/gem-siege.scenario.yaml", True),
        ("sgcheck", "notsgpack.yaml", False),
        ("sgcheck", "cards/a.yaml", False),
        ("sgcheck", "pyproject.toml", False),
        ("sgcheck", "a.sgcard.bak", False),
        ("sgcheck", "logs/game.sglog", False),
        ("sgcheck-replay", "logs/game.sglog", True),
        ("sgcheck-replay", "logs/GAME.SGLOG", True),
        ("sgcheck-replay", "logs/game.sglog.txt", False),
        ("sgcheck-replay", "cards/a.sgcard", False),
    ],
)
def test_the_hook_files_patterns_match_the_right_names(hook_id: str, name: str, runs: bool) -> None:
    pattern = re.compile(str(hooks()[hook_id]["files"]))
    assert (pattern.search(name) is not None) is runs


def test_every_file_the_check_hook_runs_on_is_one_sgcheck_check_reads(project: Path) -> None:
    """The names the hook matches are card files, manifests or scenarios (none is refused)."""
    from sgcheck.project.kinds import MANIFEST_NAMES, is_card_file, is_scenario_file

    pattern = re.compile(str(hooks()["sgcheck"]["files"]))
    for name in ("a.sgcard", "a.SGCARD.yaml", "sgpack.yml", "x.scenario.yml"):
        assert pattern.search(name)
        assert is_card_file(name) or name.lower() in MANIFEST_NAMES or is_scenario_file(name)


# What a reader would have to fill in: an angle-bracket stand-in (<owner>, <version>), YOUR_ORG,
# TODO, FIXME, xxx, example.com.
PLACEHOLDER = re.compile(r"<[a-z][a-z _-]*>|\bYOUR_[A-Z_]+|\bTODO\b|\bFIXME\b|\bxxx+\b|\bexample\.(com|org)\b", re.I)


@pytest.mark.parametrize("page", ["docs/ci.md", "docs/fmt.md"])
def test_the_set_up_docs_have_no_placeholders(page: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    lines = enumerate(text.splitlines(), 1)
    found = [(number, match.group()) for number, line in lines for match in PLACEHOLDER.finditer(line)]
    assert found == [], f"{page}: placeholders {found}"


def test_the_placeholder_pattern_finds_what_it_should() -> None:
    for text in ("https://github.com/<owner>/sgcheck", "rev: v<version>", "YOUR_ORG/sgcheck", "TODO: say", "xxx"):
        assert PLACEHOLDER.search(text), text
    assert not PLACEHOLDER.search("pip install './sgcheck[test]' -o report.sarif")


def test_ci_md_names_every_published_hook() -> None:
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    ids = [hook["id"] for hook in hooks]
    assert len(ids) >= 2
    missing = [hook_id for hook_id in ids if f"id: {hook_id}" not in text or f"`{hook_id}`" not in text]
    assert missing == [], f"docs/ci.md does not name the hooks {missing} in its table and its configuration"
