"""The wheel's build hook: compile the hot modules with mypyc, or fall back to pure Python.

Hatchling runs :class:`CompileHook` when it builds a wheel (``pip install .``). The modules to
compile are listed once, under ``[tool.hatch.build.targets.wheel.hooks.custom]`` in
``pyproject.toml`` (``compile``: a package folder stands for every module below it; globs work).

The compile runs in a child process (this file run as a script) so that mypyc and setuptools
never read ``pyproject.toml`` and a failure of any kind leaves the build itself standing: all
modules go into one shared library (``sgcheck__mypyc…``), one C file per module,
and the C files are compiled in parallel, one per core. The extension modules land next to the
``.py`` sources in the wheel, whose tag then names the platform.

The pure Python build is chosen, with one line on standard error saying why, when
``SGCHECK_PURE=1`` is set, when there is no C compiler or no Python headers, or when the
compile fails; ``sgcheck --version`` tells which build is installed (:mod:`sgcheck.build`).
An editable install (``pip install -e .``) is always pure.
"""

from __future__ import annotations

import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # read without hatchling (by the tests, or run as the compile script)
    BuildHookInterface = object  # type: ignore[assignment,misc]

PURE_ENV = "SGCHECK_PURE"  # the same switch as sgcheck.build.PURE_ENV
NOTE_PATH = "sgcheck/_build.txt"  # one line in the wheel: which build, and why pure
# The shared library of the compiled modules, sgcheck__mypyc.<ext>, sits next to the package: mypyc
# places a group's library at the top level (a dotted name misplaces the compiled packages' __path__).
GROUP = "sgcheck"
# mypy type-checks what it compiles (the errors of other modules are not its business) without
# the third-party packages, which the build's environment does not hold (their types are Any).
MYPY_FLAGS = ["--ignore-missing-imports", "--follow-imports=silent", "--no-incremental"]


def compiled_sources(root: Path, patterns: list[str]) -> list[Path]:
    """The ``.py`` files ``patterns`` name under ``root``, sorted; a folder names every module below it."""
    found: set[Path] = set()
    for pattern in patterns:
        matches = [Path(p) for p in glob.glob(str(root / pattern), recursive=True)]
        if not matches:
            raise ValueError(f"the compile list names {pattern!r}, which matches no file")
        for match in matches:
            found.update(match.rglob("*.py") if match.is_dir() else [match] if match.suffix == ".py" else [])
    return sorted(found)


def missing_toolchain() -> str | None:
    """Why a C extension cannot be built here, or None when a compiler and the headers are present."""
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers: Python.h is not in {include}"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or ("cl" if os.name == "nt" else "cc")
    words = shlex.split(compiler) if os.name != "nt" else [compiler]
    if not words or shutil.which(words[0]) is None:
        return f"no C compiler: {words[0] if words else compiler} is not found"
    return None


class CompileHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        self._workdir: str | None = None
        if version == "editable":
            return
        started = time.monotonic()
        try:
            sources = compiled_sources(Path(self.root), list(self.config.get("compile", [])))
        except ValueError as error:
            sources, reason = [], str(error)
        else:
            reason = self._compile(sources, build_data)
        if reason is None:
            timing = (Path(self._scratch()) / "timing.txt").read_text(encoding="utf-8")
            line = f"compiled with mypyc: {len(sources)} modules in {time.monotonic() - started:.0f} s ({timing})"
            note = "compiled with mypyc"
        else:
            line = f"not compiled, pure Python instead: {reason}"
            note = f"pure Python, {reason}"
        print(f"sgcheck: {line}", file=sys.stderr, flush=True)
        note_file = Path(self._scratch()) / "build.txt"
        note_file.write_text(note + "\n", encoding="utf-8")
        build_data["force_include"][str(note_file)] = NOTE_PATH

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "_workdir", None):
            shutil.rmtree(self._workdir, ignore_errors=True)  # type: ignore[arg-type]

    def _scratch(self) -> str:
        if not self._workdir:
            self._workdir = tempfile.mkdtemp(prefix="sgcheck-build-")
        return self._workdir

    def _compile(self, sources: list[Path], build_data: dict[str, Any]) -> str | None:
        """Build the extension modules into the wheel; None on success, else why not."""
        if os.environ.get(PURE_ENV) == "1":
            return f"{PURE_ENV}=1 at install"
        if not sources:
            return "the compile list is empty"
        reason = missing_toolchain()
        if reason:
            return reason
        work = Path(self._scratch())
        request = {"root": self.root, "sources": [str(s) for s in sources], "work": str(work)}
        process = subprocess.run(
            [sys.executable, __file__, json.dumps(request)],
            cwd=work,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        if process.returncode != 0:
            lines = [line.strip() for line in process.stdout.splitlines() if line.strip()]
            last = lines[-1] if lines else f"exit status {process.returncode}"
            return f"the mypyc compile failed: {last[:200]}"
        built = work / "lib"
        for path in sorted(built.rglob("*")):
            if path.is_file():
                build_data["force_include"][str(path)] = path.relative_to(built).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        return None


def _parallel_compile(jobs: int) -> None:
    """Compile an extension's C files ``jobs`` at a time (setuptools compiles them one by one)."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools._distutils.ccompiler import CCompiler

    def compile(self: Any, sources: list[str], output_dir: Any = None, macros: Any = None, include_dirs: Any = None,
                debug: bool = False, extra_preargs: Any = None, extra_postargs: Any = None, depends: Any = None
                ) -> list[str]:  # fmt: skip
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)
        todo = [(obj, *build[obj]) for obj in objects if obj in build]
        todo.sort(key=lambda item: -os.path.getsize(item[1]))  # the largest first
        with ThreadPoolExecutor(jobs) as pool:
            for done in [pool.submit(self._compile, o, s, e, cc_args, extra_postargs, pp_opts) for o, s, e in todo]:
                done.result()
        return list(objects)

    CCompiler.compile = compile  # type: ignore[method-assign]


def _build(request: dict[str, Any]) -> None:
    """Run as a script: generate C with mypyc and build the extension modules into ``work/lib``."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    work = Path(request["work"])
    started = time.monotonic()
    jobs = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    (work / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    extensions = mypycify(
        [f"--config-file={work / 'mypy.ini'}", f"--cache-dir={work / 'mypy-cache'}", *MYPY_FLAGS, *request["sources"]],
        multi_file=True,
        group_name=GROUP,
        target_dir=str(work / "c"),
    )
    generated = time.monotonic()
    _parallel_compile(jobs)
    distribution = Distribution({"name": "sgcheck-compiled", "ext_modules": extensions})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = str(work / "lib")
    command.build_temp = str(work / "obj")
    command.parallel = jobs
    distribution.run_command("build_ext")
    timing = f"mypyc {generated - started:.0f} s, C compiler {time.monotonic() - generated:.0f} s on {jobs} cores"
    (work / "timing.txt").write_text(timing, encoding="utf-8")


if __name__ == "__main__":
    _build(json.loads(sys.argv[1]))
