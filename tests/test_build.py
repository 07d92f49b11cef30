"""The two builds: ``--version`` names the one that runs, and ``SGCHECK_PURE=1`` picks the pure one.

Run against an install (``SGCHECK_TEST_INSTALLED=1``, as ``.ci/run`` does) these tests see the
compiled build when there was a C compiler; from a checkout, the pure sources.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

import pytest

import hatch_build
import sgcheck
from sgcheck import build
from tests import installed

ROOT = Path(__file__).resolve().parents[1]

PROBE = (
    "import importlib.machinery, sys; import sgcheck.build as b; from sgcheck.launcher import run;"
    "import sgcheck.replay.interpreter;"
    "native = sorted(name for name, module in sys.modules.items() if name.startswith('sgcheck')"
    " and str(getattr(module, '__file__', '')).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)));"
    "print(b.current()); print(' '.join(native)); sys.stdout.flush(); run(['--version'])"
)


def probe(**env: str) -> tuple[str, list[str], str]:
    """In a child Python running the sgcheck under test: the build, the extension modules loaded
    after a replay module is imported, and the ``--version`` line."""
    child = {**os.environ, "PYTHONPATH": installed.pythonpath(), **env}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, env=child)
    assert done.returncode == 0, done.stderr
    which, native, version = done.stdout.splitlines()
    return which, native.split(), version


def test_version_names_the_build_that_runs() -> None:
    which, native, version = probe()
    assert version.startswith(f"sgcheck, version {sgcheck.__version__} (")
    if which == "compiled":
        assert version.endswith("(compiled with mypyc)")
        assert "sgcheck.core.engine" in native and "sgcheck.replay.turn_loop" in native
    else:
        assert which == "pure" and version.endswith(")") and "(pure Python" in version
        assert native == []


def test_the_tests_run_the_build_the_child_runs() -> None:
    """This process and its children import the same sgcheck (the installed one under SGCHECK_TEST_INSTALLED)."""
    assert probe()[0] == build.current()
    if installed.wanted():
        assert not Path(sgcheck.__file__ or "").resolve().is_relative_to(ROOT)


def test_sgcheck_pure_at_run_time_imports_the_sources() -> None:
    which, native, version = probe(SGCHECK_PURE="1")
    assert which == "pure"
    assert native == []  # not one extension module, not even the shared library
    assert version == f"sgcheck, version {sgcheck.__version__} (pure Python, SGCHECK_PURE=1)"


def test_the_compile_list_names_modules_that_exist() -> None:
    """Each entry of the one list in pyproject.toml matches a module, and the engine that
    sgcheck.build probes is among them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["compile"]
    sources = hatch_build.compiled_sources(ROOT, patterns)
    names = {".".join(path.relative_to(ROOT).with_suffix("").parts) for path in sources}
    assert build.PROBE in names
    assert hatch_build.PURE_ENV == build.PURE_ENV
    assert "sgcheck.build" not in names and "sgcheck" not in names  # these pick the build; never compiled
    assert all(name.startswith("sgcheck.") for name in names)


def test_every_record_lives_in_a_compiled_module() -> None:
    """A class deriving from the core's ``Record`` is compiled, so it must be defined in a module
    the compiled build compiles too: mypyc refuses an interpreted class that derives from a
    compiled one (``TypeError`` at import), which only the compiled build shows."""
    import ast

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["compile"]
    compiled = {path.resolve() for path in hatch_build.compiled_sources(ROOT, patterns)}
    outside = []
    for path in sorted((ROOT / "sgcheck").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            derives = any(
                (isinstance(base, ast.Name) and base.id == "Record")
                or (isinstance(base, ast.Attribute) and base.attr == "Record")
                for base in node.bases
            )
            if derives and path.resolve() not in compiled:
                outside.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert outside == []


def test_replay_options_travel_to_the_worker_processes() -> None:
    """``--jobs 2`` pickles the options to each worker, in either build (a frozen dataclass compiled
    by mypyc would not unpickle, which is why ``replay/options.py`` stays Python): else every worker
    fails and the run falls back to one process."""
    import pickle

    from sgcheck.replay.interpreter import ReplayOptions

    options = ReplayOptions(keep_going=True, ruleset="king_value=3", keep_turn=(4, 1))
    assert pickle.loads(pickle.dumps(options)) == options


def test_without_headers_or_compiler_the_build_says_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The wheel's build hook falls back to pure Python, in one line, without Python.h or a C compiler."""
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    assert hatch_build.missing_toolchain() in (
        f"no C compiler: {tmp_path / 'no-such-cc'} is not found",
        f"no Python headers: Python.h is not in {sysconfig.get_paths()['include']}",
    )
    monkeypatch.setattr(sysconfig, "get_paths", lambda: {"include": str(tmp_path)})
    assert hatch_build.missing_toolchain() == f"no Python headers: Python.h is not in {tmp_path}"


# --- one compile per source: the build cache --------------------------------------------------------


def _package(root: Path) -> Path:
    """A small source tree as the hook sees one: a package with a compiled and a plain module."""
    (root / "sgcheck" / "core").mkdir(parents=True)
    (root / "sgcheck" / "__init__.py").write_text("", encoding="utf-8")
    (root / "sgcheck" / "core" / "engine.py").write_text("def apply() -> int:\n    return 1\n", encoding="utf-8")
    (root / "sgcheck" / "cli.py").write_text("X = 1\n", encoding="utf-8")
    return root


class _Hook(hatch_build.CompileHook):
    """The hook over a source tree of the test's, with the mypyc compile replaced by one that
    writes a module and counts its runs (the real compile takes minutes)."""

    def __init__(self, root: Path) -> None:
        self._root = str(root)
        self._workdir: str | None = None
        self.compiles = 0

    @property
    def root(self) -> str:
        return self._root

    def _run_compile(self, sources: list[Path], work: Path) -> str | None:
        self.compiles += 1
        (work / "lib" / "sgcheck" / "core").mkdir(parents=True)
        (work / "lib" / "sgcheck__mypyc.so").write_bytes(b"library of " + Path(self._root).name.encode())
        (work / "lib" / "sgcheck" / "core" / "engine.so").write_bytes(b"engine")
        (work / "timing.txt").write_text("mypyc 1 s, C compiler 2 s on 2 cores", encoding="utf-8")
        return None

    def build(self) -> tuple[dict[str, str], str]:
        """The files the wheel gets (their contents) and the timing line, as one install sees them."""
        data: dict[str, Any] = {"force_include": {}}
        try:
            assert self._compile([Path(self._root) / "sgcheck/core/engine.py"], ["sgcheck/core"], data) is None
            assert data["pure_python"] is False
            files = {dest: Path(src).read_text(encoding="utf-8") for src, dest in data["force_include"].items()}
            return files, (Path(self._scratch()) / "timing.txt").read_text(encoding="utf-8")
        finally:
            self.finalize("standard", data, "")


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(hatch_build.CACHE_ENV, str(folder))
    monkeypatch.delenv(hatch_build.PURE_ENV, raising=False)
    monkeypatch.setattr(hatch_build, "missing_toolchain", lambda: None)
    return folder


def test_a_second_install_of_the_same_source_reuses_the_compiled_modules(cache: Path, tmp_path: Path) -> None:
    root = _package(tmp_path / "src")
    first, second = _Hook(root), _Hook(root)
    files, timing = first.build()
    assert first.compiles == 1 and timing == "mypyc 1 s, C compiler 2 s on 2 cores"
    assert files == {"sgcheck__mypyc.so": "library of src", "sgcheck/core/engine.so": "engine"}
    again, timing = second.build()
    assert second.compiles == 0 and again == files
    assert timing == "reused from the build cache, compiled once in mypyc 1 s, C compiler 2 s on 2 cores"
    assert len([entry for entry in cache.iterdir() if not entry.name.startswith(".")]) == 1


@pytest.mark.parametrize(
    "change",
    ["compiled module", "module mypy reads for types", "new module", "mypy version", "python abi", "compiler flags"],
)
def test_what_the_compiled_modules_depend_on_compiles_again(
    change: str, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A changed source (compiled, or read by mypy for the types of a compiled one), another mypyc
    or another Python ABI is another key: the modules are compiled again, never taken stale."""
    root = _package(tmp_path / "src")
    assert _Hook(root).build()[1].startswith("mypyc")
    if change == "compiled module":
        (root / "sgcheck/core/engine.py").write_text("def apply() -> int:\n    return 2\n", encoding="utf-8")
    elif change == "module mypy reads for types":
        (root / "sgcheck/cli.py").write_text("X = 'one'\n", encoding="utf-8")
    elif change == "new module":
        (root / "sgcheck/core/extra.py").write_text("", encoding="utf-8")
    elif change == "mypy version":
        monkeypatch.setattr(hatch_build, "mypy_version", lambda: "0.0-other")
    elif change == "python abi":
        monkeypatch.setattr(sysconfig, "get_platform", lambda: "other-platform")
    else:
        monkeypatch.setenv("CFLAGS", "-O0")
    hook = _Hook(root)
    hook.build()
    assert hook.compiles == 1


@pytest.mark.parametrize("damage", ["file changed", "file missing", "file added", "listing garbled", "listing gone"])
def test_a_damaged_cache_entry_is_removed_and_the_modules_compiled_again(
    damage: str, cache: Path, tmp_path: Path
) -> None:
    root = _package(tmp_path / "src")
    files, _ = _Hook(root).build()
    (entry,) = cache.iterdir()
    if damage == "file changed":
        (entry / "lib" / "sgcheck" / "core" / "engine.so").write_bytes(b"truncated")
    elif damage == "file missing":
        (entry / "lib" / "sgcheck__mypyc.so").unlink()
    elif damage == "file added":
        (entry / "lib" / "stray.so").write_bytes(b"")
    elif damage == "listing garbled":
        (entry / "files.json").write_text('{"key": ', encoding="utf-8")
    else:
        (entry / "files.json").unlink()
    hook = _Hook(root)
    assert hook.build()[0] == files  # compiled again: the damaged files never reach the wheel
    assert hook.compiles == 1
    third = _Hook(root)
    assert third.build()[0] == files and third.compiles == 0  # and the fresh entry serves the next install


def test_the_build_cache_can_be_turned_off_and_only_the_recent_entries_are_kept(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _package(tmp_path / "src")
    for value in ("0", "off"):
        monkeypatch.setenv(hatch_build.CACHE_ENV, value)
        hooks = [_Hook(root), _Hook(root)]
        for hook in hooks:
            hook.build()
        assert [hook.compiles for hook in hooks] == [1, 1]
    assert not cache.exists()
    monkeypatch.setenv(hatch_build.CACHE_ENV, str(cache))
    for version in range(hatch_build.CACHE_KEEP + 2):
        monkeypatch.setattr(hatch_build, "mypy_version", lambda version=version: str(version))
        _Hook(root).build()
    assert len(list(cache.iterdir())) == hatch_build.CACHE_KEEP


def test_the_build_cache_lives_in_the_user_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(hatch_build.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    chosen = hatch_build.BuildCache.configured()
    assert chosen is not None and chosen.folder == tmp_path / "sgcheck-build"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/folder")  # not absolute: ignored, as the XDG rules say
    chosen = hatch_build.BuildCache.configured()
    assert chosen is not None and chosen.folder == Path.home() / ".cache" / "sgcheck-build"


def test_a_cache_that_cannot_be_written_leaves_the_build_standing(cache: Path, tmp_path: Path) -> None:
    cache.parent.mkdir(exist_ok=True)
    cache.write_text("a file where the cache folder should be", encoding="utf-8")
    hook = _Hook(_package(tmp_path / "src"))
    assert hook.build()[1].startswith("mypyc") and hook.compiles == 1


def test_the_pre_commit_set_up_names_the_switch_the_build_hook_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/ci.md warns that pre-commit's first run compiles sgcheck, and the command it gives for a
    pure build sets the very variable the wheel's build hook reads: with it, nothing is compiled."""
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    assert "**The first run builds sgcheck.**" in text
    assert f"{hatch_build.PURE_ENV}=1 pre-commit install-hooks" in text
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert hooks.count("language: python") == 3  # each hook's environment is a pip install of sgcheck
    monkeypatch.setenv(hatch_build.PURE_ENV, "1")
    hook = hatch_build.CompileHook.__new__(hatch_build.CompileHook)
    assert (
        hook._compile([Path("sgcheck/core/engine.py")], ["sgcheck/core"], {}) == f"{hatch_build.PURE_ENV}=1 at install"
    )
