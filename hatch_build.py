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

One compile per source: the compiled modules are kept in a build cache (:class:`BuildCache`), a
folder under the user's cache folder (``$XDG_CACHE_HOME/sgcheck-build``, else
``~/.cache/sgcheck-build``; ``SGCHECK_BUILD_CACHE=PATH`` puts it elsewhere, ``SGCHECK_BUILD_CACHE=0``
turns it off). An entry is keyed by a hash of every Python source of the package (the compiled
modules and those mypy reads for their types), this file, the mypy (mypyc) version and the Python
ABI, so a second install of the same source (``pip install '.[test]'`` after ``pip install .``)
copies the modules instead of compiling them again, and any change to one of those compiles
afresh. Each entry lists its files with their hashes; an entry that does not match its list (a
stale, partial or corrupted cache) is removed and the modules are compiled again.
"""

from __future__ import annotations

import glob
import hashlib
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
CACHE_ENV = "SGCHECK_BUILD_CACHE"  # a folder for the build cache, or 0 (off, false, no) to compile every time
CACHE_KEEP = 4  # entries kept; the least recently used beyond these are removed
PACKAGE = "sgcheck"


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


def mypy_version() -> str:
    """The version of the mypy (and so mypyc) that compiles; ``unknown`` when it cannot be read."""
    try:
        from importlib.metadata import version

        return version("mypy")
    except Exception:  # not installed, or broken metadata: the compile itself will say so
        return "unknown"


def cache_key(root: Path, patterns: list[str]) -> str:
    """What the compiled modules depend on, hashed: every ``.py`` file of the package (the compiled
    ones and those mypy reads for their types), the compile list, this file, the mypy version, the
    Python ABI and the C compiler's settings."""
    digest = hashlib.sha256()

    def add(label: str, value: str | bytes) -> None:
        data = value.encode("utf-8") if isinstance(value, str) else value
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    for path in sorted((root / PACKAGE).rglob("*.py")):
        add(path.relative_to(root).as_posix(), path.read_bytes())
    add("compile", json.dumps(patterns))
    add("hook", Path(__file__).read_bytes())
    add("mypy", mypy_version())
    add("abi", " ".join(map(str, (
        sys.version, sys.implementation.cache_tag, sysconfig.get_config_var("EXT_SUFFIX"),
        sysconfig.get_platform(), sys.abiflags if hasattr(sys, "abiflags") else "",
    ))))  # fmt: skip
    for name in ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS", "LDSHARED", "MYPYC_OPT_LEVEL", "MYPYC_DEBUG_LEVEL"):
        add(f"env {name}", os.environ.get(name, "\1unset"))
    return digest.hexdigest()


def _digest(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _listing(folder: Path) -> dict[str, str]:
    """Every file under ``folder``, by its path relative to it, with its hash."""
    return {p.relative_to(folder).as_posix(): _digest(p) for p in sorted(folder.rglob("*")) if p.is_file()}


class BuildCache:
    """Compiled modules kept between installs, one folder an entry (``<key>/lib`` and ``<key>/files.json``).

    An entry is written under a temporary name and renamed into place when it is whole, so a build
    that stops half way, or two builds at once, never leave a partial entry under a key. It is used
    only when every file it lists is there with the hash listed, and nothing more: anything else
    (a stale format, a file changed or missing, a listing that does not parse) removes the entry."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @staticmethod
    def configured() -> BuildCache | None:
        """The cache ``SGCHECK_BUILD_CACHE`` and the user's cache folder name; None when turned off."""
        chosen = os.environ.get(CACHE_ENV, "").strip()
        if chosen.lower() in ("0", "off", "false", "no"):
            return None
        if chosen:
            return BuildCache(Path(chosen).expanduser())
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        if os.name == "nt" and not base:
            base = os.environ.get("LOCALAPPDATA", "")
        folder = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
        return BuildCache(folder / "sgcheck-build")

    def fetch(self, key: str, dest: Path) -> str | None:
        """Copy the entry ``key`` into ``dest`` (which must not exist) and return its timing line;
        None when there is no whole, matching entry (a broken one is removed)."""
        entry = self.folder / key
        if not entry.is_dir():
            return None
        try:
            listing = json.loads((entry / "files.json").read_text(encoding="utf-8"))
            files, timing = listing["files"], listing["timing"]
            if listing.get("key") != key or not isinstance(files, dict) or not files or not isinstance(timing, str):
                raise ValueError("not an entry of this key")
            shutil.copytree(entry / "lib", dest)
            if _listing(dest) != files:
                raise ValueError("the files differ from their listing")
        except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
            shutil.rmtree(dest, ignore_errors=True)
            shutil.rmtree(entry, ignore_errors=True)
            return None
        os.utime(entry)  # recently used: pruned last
        return timing

    def store(self, key: str, built: Path, timing: str) -> None:
        """Keep the files under ``built`` as the entry ``key``; a cache that cannot be written is skipped."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix=".partial-", dir=self.folder))
            try:
                shutil.copytree(built, scratch / "lib")
                listing = {"key": key, "files": _listing(scratch / "lib"), "timing": timing}
                (scratch / "files.json").write_text(json.dumps(listing, indent=1), encoding="utf-8")
                os.replace(scratch, self.folder / key)  # fails when another build stored it first: fine
            except OSError:
                shutil.rmtree(scratch, ignore_errors=True)
            self.prune()
        except OSError:
            return

    def prune(self) -> None:
        """Remove all but the :data:`CACHE_KEEP` most recently used entries, and partial ones over a day old."""
        now = time.time()
        entries = []
        for path in self.folder.iterdir():
            try:
                modified = path.stat().st_mtime
            except OSError:
                continue
            if path.name.startswith(".partial-"):
                if now - modified > 86400:
                    shutil.rmtree(path, ignore_errors=True)
            elif path.is_dir():
                entries.append((modified, path))
        for _, path in sorted(entries, reverse=True)[CACHE_KEEP:]:
            shutil.rmtree(path, ignore_errors=True)


class CompileHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        self._workdir: str | None = None
        if version == "editable":
            return
        started = time.monotonic()
        patterns = list(self.config.get("compile", []))
        try:
            sources = compiled_sources(Path(self.root), patterns)
        except ValueError as error:
            sources, reason = [], str(error)
        else:
            reason = self._compile(sources, patterns, build_data)
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

    def _compile(self, sources: list[Path], patterns: list[str], build_data: dict[str, Any]) -> str | None:
        """Build the extension modules into the wheel (or take them from the build cache); None on
        success, else why not."""
        if os.environ.get(PURE_ENV) == "1":
            return f"{PURE_ENV}=1 at install"
        if not sources:
            return "the compile list is empty"
        reason = missing_toolchain()
        if reason:
            return reason
        work = Path(self._scratch())
        built = work / "lib"
        cache = BuildCache.configured()
        key = cache_key(Path(self.root), patterns) if cache is not None else ""
        timing = cache.fetch(key, built) if cache is not None else None
        if timing is not None:
            (work / "timing.txt").write_text(
                f"reused from the build cache, compiled once in {timing}", encoding="utf-8"
            )
        else:
            reason = self._run_compile(sources, work)
            if reason is not None:
                return reason
            if cache is not None:
                cache.store(key, built, (work / "timing.txt").read_text(encoding="utf-8"))
        for path in sorted(built.rglob("*")):
            if path.is_file():
                build_data["force_include"][str(path)] = path.relative_to(built).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        return None

    def _run_compile(self, sources: list[Path], work: Path) -> str | None:
        """mypyc and the C compiler in a child, into ``work/lib``; None on success, else why not."""
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
