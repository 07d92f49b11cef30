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
    monkeypatch.setattr(hatch_build.sysconfig, "get_paths", lambda: {"include": str(tmp_path)})
    assert hatch_build.missing_toolchain() == f"no Python headers: Python.h is not in {tmp_path}"


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
    assert hook._compile([Path("sgcheck/core/engine.py")], {}) == f"{hatch_build.PURE_ENV}=1 at install"
