"""File discovery as linters do it (sgcheck/discovery.py): ignore files, exclude patterns, and
the one walk both ``check`` (packs.discover) and ``replay`` (files.discover_logs) use."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sgcheck.contract import load_config
from sgcheck.contract.checker import plan_check
from sgcheck.contract.packs import discover, enclosing_manifest
from sgcheck.core.ruleset import CORE
from sgcheck.discovery import (
    MAX_WILDCARDS,
    DiscoveryOptions,
    PatternError,
    pattern_problem,
    patterns,
    repository_root,
    walk,
)
from sgcheck.lang.source import CONFIG_LIMIT
from sgcheck.replay.files import discover_logs
from tests.trees import write

GOOD = 'spell "Good" { cost 1 SP phase main1 effect gain 1 SP }\n'


def repository(folder: Path) -> Path:
    """A git repository made by hand (``.git/info``), so the tests never depend on git itself."""
    (folder / ".git" / "info").mkdir(parents=True, exist_ok=True)
    return folder


def found(root: Path, options: DiscoveryOptions | None = None) -> list[str]:
    """Every file the walk keeps, relative to ``root``, in walk order."""
    kept = []
    for folder, _subfolders, names in walk(str(root), options or DiscoveryOptions()):
        kept.extend(Path(folder, name).relative_to(root).as_posix() for name in names)
    return [name for name in kept if not name.endswith(".gitignore")]


def manifest(*cards: str) -> str:
    return "name: demo\nversion: 1.0.0\ncards:\n" + "".join(f"  - {c}\n" for c in cards)


# --- .gitignore and .git/info/exclude ----------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A repository whose ignore files use every kind of line: root and nested files, negation,
    folder patterns, anchored patterns and ``**``."""
    root = repository(tmp_path / "repo")
    write(
        root,
        {
            ".gitignore": "# generated\nbuild/\n*.tmp.sgcard\n!keep.tmp.sgcard\n/top.sgcard\ndeep/**/gone.sgcard\n",
            ".git/info/exclude": "local.sgcard\n",
            "a.sgcard": GOOD,
            "top.sgcard": GOOD,
            "sub/top.sgcard": GOOD,  # '/top.sgcard' is anchored to the root
            "x.tmp.sgcard": GOOD,
            "keep.tmp.sgcard": GOOD,
            "local.sgcard": GOOD,
            "build/b.sgcard": GOOD,
            "sub/build/c.sgcard": GOOD,  # 'build/' matches a folder at any depth
            "build.sgcard": GOOD,  # ... but not a file named like it
            "deep/one/two/gone.sgcard": GOOD,
            "deep/stay.sgcard": GOOD,
            "nested/.gitignore": "*.sgcard\n!wanted.sgcard\n",
            "nested/unwanted.sgcard": GOOD,
            "nested/wanted.sgcard": GOOD,
            "nested/inner/also.sgcard": GOOD,
            ".hidden/h.sgcard": GOOD,
        },
    )
    return root


def test_the_walk_leaves_out_what_git_ignores(tree: Path) -> None:
    assert found(tree) == [
        "a.sgcard",
        "build.sgcard",
        "keep.tmp.sgcard",
        "deep/stay.sgcard",
        "nested/wanted.sgcard",
        "sub/top.sgcard",
    ]


def test_without_respecting_gitignore_everything_but_hidden_folders_is_found(tree: Path) -> None:
    everything = found(tree, DiscoveryOptions(respect_gitignore=False))
    assert everything == [
        "a.sgcard",
        "build.sgcard",
        "keep.tmp.sgcard",
        "local.sgcard",
        "top.sgcard",
        "x.tmp.sgcard",
        "build/b.sgcard",
        "deep/stay.sgcard",
        "deep/one/two/gone.sgcard",
        "nested/unwanted.sgcard",
        "nested/wanted.sgcard",
        "nested/inner/also.sgcard",
        "sub/top.sgcard",
        "sub/build/c.sgcard",
    ]


def test_a_deeper_ignore_file_overrides_a_shallower_one(tmp_path: Path) -> None:
    root = repository(tmp_path)
    write(
        root, {".gitignore": "*.sgcard\n", "cards/.gitignore": "!*.sgcard\n", "cards/a.sgcard": GOOD, "b.sgcard": GOOD}
    )
    assert found(root) == ["cards/a.sgcard"]


def test_ignore_files_above_the_walked_folder_apply_up_to_the_repository_root(tmp_path: Path) -> None:
    outer = write(tmp_path, {".gitignore": "*.sgcard\n"})  # above the repository: never read
    root = repository(outer / "repo")
    write(root, {".gitignore": "/cards/old/\n", "cards/old/a.sgcard": GOOD, "cards/new/b.sgcard": GOOD})
    assert found(root / "cards") == ["new/b.sgcard"]
    assert repository_root(str(root / "cards" / "new")) == os.path.realpath(root)


def test_outside_a_repository_only_the_walked_tree_ignore_files_apply(tmp_path: Path) -> None:
    write(tmp_path, {".gitignore": "*.sgcard\n", "work/.gitignore": "skip/\n"})
    write(tmp_path / "work", {"a.sgcard": GOOD, "skip/b.sgcard": GOOD})
    if repository_root(str(tmp_path)) is not None:
        pytest.skip("the temporary folder lies inside a git repository")
    assert found(tmp_path / "work") == ["a.sgcard"]


def test_a_named_folder_that_git_ignores_has_nothing_found_in_it(tree: Path) -> None:
    assert found(tree / "build") == []
    assert found(tree / "build", DiscoveryOptions(respect_gitignore=False)) == ["b.sgcard"]


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\x01binary\n",  # not text
        b"\xff\xfe\xfa not utf-8 *.sgcard\n",
        b"*.sgcard\n" * (CONFIG_LIMIT.max_bytes // 9 + 1),  # over the limit
    ],
    ids=["binary", "not-utf8", "too-large"],
)
def test_an_unreadable_ignore_file_is_skipped_not_raised(tmp_path: Path, content: bytes) -> None:
    root = repository(tmp_path)
    write(root, {".gitignore": content, "a.sgcard": GOOD})
    assert found(root) == ["a.sgcard"]


def test_an_ignore_file_that_is_a_folder_or_a_fifo_is_skipped(tmp_path: Path) -> None:
    root = repository(tmp_path)
    write(root, {"a.sgcard": GOOD, "sub/b.sgcard": GOOD, ".gitignore/x": "*.sgcard\n"})
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "sub" / ".gitignore")  # reading it would block: it is refused unread
    assert found(root) == ["a.sgcard", "sub/b.sgcard"]


def test_lines_git_would_refuse_or_that_could_be_slow_are_left_out(tmp_path: Path) -> None:
    root = repository(tmp_path)
    write(root, {".gitignore": "!\nfoo\\\n*a*a*a*\n*.tmp\n", "aaaa": "x", "b.tmp": "x", "c.sgcard": GOOD})
    assert found(root) == ["aaaa", "c.sgcard"]


def test_the_walk_agrees_with_git(tree: Path) -> None:
    """The files git lists as untracked and not ignored are the files the walk finds."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    shutil.rmtree(tree / ".git")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run([git, "init", "-q", str(tree)], check=True, env=env)
    (tree / ".git" / "info" / "exclude").write_text("local.sgcard\n", encoding="utf-8")
    listed = subprocess.run(
        [git, "-C", str(tree), "ls-files", "--others", "--exclude-standard"],
        check=True, capture_output=True, text=True, env=env,
    ).stdout.split()  # fmt: skip
    expected = sorted(name for name in listed if not name.startswith(".hidden/") and not name.endswith(".gitignore"))
    assert sorted(found(tree)) == expected


# --- exclude patterns ----------------------------------------------------------------------------


def test_exclude_patterns_are_relative_to_their_folder(tmp_path: Path) -> None:
    write(tmp_path, {"cards/a.sgcard": GOOD, "cards/legacy/b.sgcard": GOOD, "legacy/c.sgcard": GOOD})
    anchored = DiscoveryOptions((patterns(str(tmp_path), ["/legacy/"]),))
    assert found(tmp_path, anchored) == ["cards/a.sgcard", "cards/legacy/b.sgcard"]
    anywhere = DiscoveryOptions((patterns(str(tmp_path), ["legacy/"]),))
    assert found(tmp_path, anywhere) == ["cards/a.sgcard"]
    negated = DiscoveryOptions((patterns(str(tmp_path), ["*.sgcard", "!a.sgcard"]),))
    assert found(tmp_path, negated) == ["cards/a.sgcard"]


def test_force_exclude_decides_for_named_files_only_with_patterns(tmp_path: Path) -> None:
    write(tmp_path, {"legacy/a.sgcard": GOOD})
    named = str(tmp_path / "legacy" / "a.sgcard")
    excluding = (patterns(str(tmp_path), ["legacy/"]),)
    assert not DiscoveryOptions(excluding).skips_named(named)
    assert DiscoveryOptions(excluding, force_exclude=True).skips_named(named)
    assert not DiscoveryOptions(force_exclude=True).skips_named(named)


@pytest.mark.parametrize("line", ["!", "foo\\", "*a*b*c", "**/a/**/b/**/c", "a\x00b"])
def test_unusable_patterns_are_refused_with_a_reason(line: str) -> None:
    assert pattern_problem(line) is not None
    with pytest.raises(PatternError):
        patterns(".", [line])


@pytest.mark.parametrize("line", ["build/", "*.tmp.sgcard", "/anchored", "**/drafts/**", "a\\*b\\*c\\*d", "!keep"])
def test_usual_patterns_are_accepted(line: str) -> None:
    assert pattern_problem(line) is None


def test_hostile_paths_are_matched_right(tmp_path: Path) -> None:
    """Patterns with at most MAX_WILDCARDS runs of '*' against a deep path and a long name give
    git's answers (how long that takes is measured in benchmarks/bench_discovery.py)."""
    assert MAX_WILDCARDS == 2
    spec = patterns(str(tmp_path), ["**/a/**/b", "*a*b", "a*a/**"])
    deep = os.path.join(str(tmp_path), *(["a"] * 1500))
    long_name = os.path.join(str(tmp_path), "a" * 255)
    assert spec.decide(deep, False) is None and spec.decide(deep, True) is None  # "a" is no "a*a", no "b" at the end
    assert spec.decide(long_name, False) is None
    assert spec.decide(long_name + "b", False) is True  # *a*b
    assert spec.decide(os.path.join(str(tmp_path), "x", "a", "y", "b"), False) is True  # **/a/**/b


# --- the two searches share the walk -------------------------------------------------------------


def test_check_and_replay_find_files_the_same_way(tree: Path) -> None:
    for name in ("a", "x.tmp", "build/b", "nested/unwanted", "nested/wanted"):
        (tree / f"{name}.sglog").parent.mkdir(parents=True, exist_ok=True)
        (tree / f"{name}.sglog").write_text("", encoding="utf-8")
    write(
        tree,
        {
            ".gitignore": (tree / ".gitignore").read_text() + "*.tmp.sglog\n",
            "nested/.gitignore": "*.sgcard\n!wanted.sgcard\nun*.sglog\n",
        },
    )
    logs = [Path(log.path).relative_to(tree).as_posix() for log in discover_logs([str(tree)])]
    assert logs == ["a.sglog", "nested/wanted.sglog"]
    cards = [plan.name for plan in discover([str(tree)], CORE)]
    assert [Path(name).relative_to(tree).as_posix() for name in cards] == [
        "a.sgcard",
        "build.sgcard",
        "keep.tmp.sgcard",
        "deep/stay.sgcard",
        "nested/wanted.sgcard",
        "sub/top.sgcard",
    ]


def test_a_file_named_on_the_command_line_is_always_searched(tree: Path) -> None:
    named = [str(tree / "build" / "b.sgcard"), str(tree / "x.tmp.sgcard")]
    assert [plan.name for plan in discover(named, CORE)] == [p.replace(os.sep, "/") for p in named]
    log = tree / "build" / "b.sglog"
    log.write_text("", encoding="utf-8")
    assert [entry.path for entry in discover_logs([str(log)])] == [str(log).replace(os.sep, "/")]
    excluded = DiscoveryOptions((patterns(str(tree), ["build/"]),), force_exclude=True)
    assert discover_logs([str(log)], excluded) == []
    assert [plan.name for plan in discover(named, CORE, excluded)] == [named[1].replace(os.sep, "/")]


def test_a_pack_inside_an_ignored_folder_is_not_found(tmp_path: Path) -> None:
    root = repository(tmp_path)
    write(root, {".gitignore": "dist/\n", "dist/pack/sgpack.yaml": manifest("a.sgcard"), "dist/pack/a.sgcard": GOOD})
    write(root, {"pack/sgpack.yaml": manifest("a.sgcard"), "pack/a.sgcard": GOOD})
    assert [Path(plan.name).name for plan in discover([str(root)], CORE)] == ["demo"]
    assert len(discover([str(root)], CORE)) == 1


# --- a named card file brings in its pack --------------------------------------------------------


@pytest.fixture
def pack_repo(tmp_path: Path) -> Path:
    root = repository(tmp_path / "repo")
    write(
        root,
        {
            "packs/demo/sgpack.yaml": manifest("a.sgcard", "sub/b.sgcard"),
            "packs/demo/a.sgcard": GOOD,
            "packs/demo/sub/b.sgcard": GOOD.replace("Good", "Other"),
            "packs/demo/sub/unlisted.sgcard": GOOD.replace("Good", "Loose"),
            "loose.sgcard": GOOD,
        },
    )
    return root


def test_a_named_card_file_resolves_to_its_pack_once(pack_repo: Path) -> None:
    demo = pack_repo / "packs" / "demo"
    whole = DiscoveryOptions(whole_pack=True)
    plans = discover(
        [str(demo / "a.sgcard"), str(demo / "sub" / "b.sgcard"), str(pack_repo / "loose.sgcard")], CORE, whole
    )
    assert [plan.name for plan in plans] == ["demo", str(pack_repo / "loose.sgcard").replace(os.sep, "/")]
    assert plans[0].manifest is not None and plans[0].manifest.path == demo / "sgpack.yaml"
    assert sorted(card.path.name for card in plans[0].files) == ["a.sgcard", "b.sgcard"]
    # the manifest and the folder name the same pack: still once
    again = discover([str(demo / "sub" / "b.sgcard"), str(demo / "sgpack.yaml"), str(demo)], CORE, whole)
    assert [plan.name for plan in again] == ["demo"]


def test_the_manifest_is_shown_relative_to_the_named_file(pack_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(pack_repo)
    plans = discover(["packs/demo/sub/b.sgcard"], CORE, DiscoveryOptions(whole_pack=True))
    assert plans[0].manifest is not None and plans[0].manifest.shown == "packs/demo/sgpack.yaml"


def test_a_card_file_no_pack_lists_is_checked_alone(pack_repo: Path) -> None:
    unlisted = pack_repo / "packs" / "demo" / "sub" / "unlisted.sgcard"
    plans = discover([str(unlisted)], CORE, DiscoveryOptions(whole_pack=True))
    assert [plan.name for plan in plans] == [str(unlisted).replace(os.sep, "/")]
    assert plans[0].manifest is None


def test_without_whole_pack_a_named_card_file_is_its_own_pack(pack_repo: Path) -> None:
    card = pack_repo / "packs" / "demo" / "a.sgcard"
    assert [plan.manifest for plan in discover([str(card)], CORE)] == [None]


def test_the_manifest_search_stops_at_the_repository_root(tmp_path: Path) -> None:
    write(tmp_path, {"sgpack.yaml": manifest("repo/a.sgcard")})
    root = repository(tmp_path / "repo")
    write(root, {"a.sgcard": GOOD})
    assert enclosing_manifest(root / "a.sgcard") is None
    write(root, {"sgpack.yaml": manifest("a.sgcard")})
    assert enclosing_manifest(root / "a.sgcard") == root / "sgpack.yaml"


def test_outside_a_repository_the_search_stops_at_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, {"sgpack.yaml": manifest("work/cards/a.sgcard"), "work/cards/a.sgcard": GOOD})
    if repository_root(str(tmp_path)) is not None:
        pytest.skip("the temporary folder lies inside a git repository")
    monkeypatch.chdir(tmp_path / "work")
    assert enclosing_manifest(tmp_path / "work" / "cards" / "a.sgcard") is None
    monkeypatch.chdir(tmp_path)
    assert enclosing_manifest(tmp_path / "work" / "cards" / "a.sgcard") == tmp_path / "sgpack.yaml"


def test_a_manifest_that_links_out_is_not_read_for_a_named_card(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside", {"sgpack.yaml": manifest("a.sgcard")})
    root = repository(tmp_path / "repo")
    write(root, {"a.sgcard": GOOD})
    try:
        os.symlink(outside / "sgpack.yaml", root / "sgpack.yaml")
    except OSError:
        pytest.skip("symbolic links are not available")
    plans = discover([str(root / "a.sgcard")], CORE, DiscoveryOptions(whole_pack=True))
    assert [plan.manifest for plan in plans] == [None]


def test_plan_check_passes_the_options_on(pack_repo: Path) -> None:
    demo = pack_repo / "packs" / "demo"
    job = plan_check([str(demo / "a.sgcard")], discovery=DiscoveryOptions(whole_pack=True))
    assert [plan.name for plan in job.plans] == ["demo"]


# --- [tool.sgcheck] exclude ----------------------------------------------------------------------


def test_the_configuration_reads_exclude_and_reports_bad_entries(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.sgcheck]\nexclude = ["drafts/", 3, "*a*b*c", "!"]\n', encoding="utf-8")
    config = load_config(pyproject, "pyproject.toml")
    assert config.exclude == ("drafts/",)
    assert [problem.code for problem in config.problems] == ["SG-C210"] * 3
    assert all(problem.span is not None and problem.span.line == 2 for problem in config.problems)
    pyproject.write_text('[tool.sgcheck]\nexclude = "drafts/"\n', encoding="utf-8")
    config = load_config(pyproject, "pyproject.toml")
    assert config.exclude == ()
    assert ["must be a list" in problem.message for problem in config.problems] == [True]
