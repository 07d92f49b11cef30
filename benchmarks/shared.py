"""Inputs and measurements the benchmarks share: generated corpora, logs rewritten in other layouts,
python-chess peers with the same number of plies, timing the real command line, and the build each
measurement runs.

Every sgcheck measurement runs in a child process, so that the build is chosen per process: once as
installed (compiled when the installed sgcheck is) and once with ``SGCHECK_PURE=1`` (the pure
Python modules). The children import the *installed* sgcheck: they run outside the checkout, with
``PYTHONSAFEPATH=1`` and without ``PYTHONPATH``, unless a benchmark is given ``--checkout`` (then
``PYTHONPATH`` is the checkout, whatever is installed). The benchmark's own process imports the
checkout, to generate its inputs.

A benchmark that measured nothing (no statements, an empty corpus, python-chess missing, a command
that did not exit 0 or did not check every file) stops with exit code 2 and says why
(:class:`Nothing`, :func:`guard`).

Generated files are cached in ``benchmarks/out/`` (git-ignored) under names that say what they hold,
so a second run (for instance after a change to the reader) measures the very same inputs. After a
change to ``sgcheck/replay/layouts.py``, delete the cached layouts (``benchmarks/out/*-layout-*``,
``benchmarks/out/corpus-*-mixed``) so that they are written again.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parents[1]
#: Generated inputs; ``SGCHECK_BENCH_OUT`` puts them elsewhere (the tests use a temporary folder).
OUT = Path(os.environ.get("SGCHECK_BENCH_OUT") or ROOT / "benchmarks" / "out")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SGCHECK = [sys.executable, "-m", "sgcheck"]
WORKER = Path(__file__).resolve().parent / "worker.py"

try:  # the build module arrives with the compiled build; until then every install is pure
    from sgcheck.build import PURE_ENV, current
except ImportError:  # pragma: no cover - depends on the checkout
    PURE_ENV = "SGCHECK_PURE"

    def current() -> str:
        return "pure"


# --- measurements that measured nothing fail -------------------------------------------------------


class Nothing(Exception):
    """A measurement measured nothing, or not what it is quoted for: the benchmark exits 2."""


def fail(message: str) -> NoReturn:
    raise Nothing(message)


def guard(main: Callable[[list[str] | None], int | None], argv: list[str] | None = None) -> int:
    """Run a benchmark's ``main``: 0 when it measured, 2 with a message when it measured nothing."""
    try:
        return main(argv) or 0
    except Nothing as problem:
        sys.stdout.flush()
        print(f"benchmark failed: {problem}", file=sys.stderr)
        return 2


def need_chess() -> str:
    """python-chess's version; the benchmark fails when the peer is not installed."""
    try:
        from importlib.metadata import version

        import chess.pgn  # noqa: F401

        return version("chess")
    except Exception as missing:  # an ImportError, or a broken install
        fail(f"python-chess, the peer of every figure, is not available ({missing}): pip install '.[bench]'")


# --- the build each child runs -------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Which sgcheck the children import: the installed one, or the checkout (``--checkout``)."""

    checkout: bool = False
    #: The Python of the environment whose sgcheck is measured (``--baseline-venv``: another install).
    python: str = sys.executable

    @staticmethod
    def baseline(venv: Path) -> Target:
        """The sgcheck installed in the environment ``venv`` (a virtual environment's folder, or its
        Python); the benchmark fails when it has no Python or no sgcheck."""
        found = [venv] if venv.is_file() else [venv / "bin" / "python", venv / "Scripts" / "python.exe"]
        python = next((path for path in found if path.is_file()), None)
        if python is None:
            fail(f"{venv} is not a Python environment: no {found[0]}")
        target = Target(python=str(python))
        target.work(None, "build")  # fails, saying why, when no sgcheck is installed there
        return target

    def sgcheck(self, *args: str) -> list[str]:
        """The command line ``sgcheck ARGS`` of this target."""
        return [self.python, "-m", "sgcheck", *args]

    def env(self, build: str | None = None) -> dict[str, str]:
        """The environment of a child: byte-code caching on (as after ``pip install``), no path of
        the checkout unless asked, and ``SGCHECK_PURE=1`` for the pure build."""
        drop = {"PYTHONDONTWRITEBYTECODE", "PYTHONPATH", PURE_ENV}
        env = {name: value for name, value in os.environ.items() if name not in drop}
        env["PYTHONSAFEPATH"] = "1"
        if self.checkout:
            env["PYTHONPATH"] = str(ROOT)
        if build == "pure":
            env[PURE_ENV] = "1"
        return env

    def run(self, cmd: Sequence[str], build: str | None = None, **kwargs: object) -> subprocess.CompletedProcess[str]:
        """``cmd`` in a child, outside the checkout, in ``build``."""
        return subprocess.run(  # type: ignore[call-overload, no-any-return]
            list(cmd), cwd=tempfile.gettempdir(), env=self.env(build), text=True, check=False, **kwargs
        )

    def work(self, build: str | None, job: str, *args: object) -> dict[str, Any]:
        """Run one job of ``worker.py`` in ``build`` (``None``: as installed); its JSON answer, which
        names the build that ran (the benchmark fails when it is not the one asked for)."""
        done = self.run([self.python, "-P", str(WORKER), job, *map(str, args)], build, capture_output=True)
        if done.returncode != 0:
            what = f"the {build} build" if build else "sgcheck"
            fail(f"{what} could not {job} {' '.join(map(str, args))[:160]}: {done.stderr.strip()[-400:]}")
        answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        if build is not None and job != "chess" and answer["build"] != build:
            fail(f"asked for the {build} build, the child ran the {answer['build']} build ({answer['file']})")
        return answer

    def peer(self, pgn: Path, repeats: int, plies: int) -> list[float]:
        """CPU times of python-chess reading ``pgn`` (which must hold ``plies`` plies) in a child."""
        if plies <= 0:
            fail(f"the python-chess peer {pgn.name} has no ply to read")
        return list(self.work(None, "chess", pgn, repeats, plies)["seconds"])

    def builds(self) -> list[str]:
        """The builds to measure: compiled and pure when the compiled one is installed, else pure (said)."""
        installed = self.work(None, "build")
        where = "the checkout" if self.checkout else "the installed package"
        where += f" of {self.python}" if self.python != sys.executable else ""
        print(f"sgcheck {installed['version']} from {where} ({installed['file']}): {installed['build']} build")
        if installed["build"] == "compiled":
            return ["compiled", "pure"]
        print("compiled build not installed: measuring the pure build only")
        return ["pure"]


_ACTION = re.compile(
    r"(?<![\w-])(?:summon|move|attack|convert|teleport|break|repair|activate|pass|income)(?![\w-])", re.IGNORECASE
)
_NOT_CODE = re.compile(r'\{[^}]*\}|;[^\n]*|"(?:[^"\\\n]|\\.)*"')


def count_statements(text: str) -> int:
    """The statements (actions, passes, income notes) of a log in any layout: its action keywords
    outside comments and quoted names."""
    return len(_ACTION.findall(_NOT_CODE.sub(" ", text)))


# --- one-game corpora ----------------------------------------------------------------------------


def corpus(games: int, actions: int) -> Path:
    """``games`` legal one-game logs of about ``actions`` statements each (cached)."""
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Claims, Style, iter_game

    folder = OUT / f"corpus-{games}-{actions}"
    if folder.is_dir() and len(list(folder.glob("*.sglog"))) == games:
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    for seed in range(games):
        items = iter_game(seed, style=Style.ENDLESS, claims=Claims.SOME, max_turns=10**9, max_actions=actions)
        text = "".join(format_item(item) + "\n" for item in items if not hasattr(item, "board"))  # type: ignore[arg-type]
        (folder / f"game-{seed:05d}.sglog").write_text(text, encoding="utf-8")
    return folder


def layout_corpus(plain: Path, layout: str) -> Path:
    """The logs of the corpus ``plain`` rewritten in ``layout`` (cached next to it)."""
    from sgcheck.replay.layouts import relayout_bytes

    if layout == "plain":
        return plain
    sources = sorted(plain.glob("*.sglog"))
    folder = plain.with_name(f"{plain.name}-{layout}")
    if folder.is_dir() and len(list(folder.glob("*.sglog"))) == len(sources):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    for index, source in enumerate(sources):
        data = relayout_bytes(source.read_text(encoding="utf-8"), layout, seed=index)
        (folder / source.name).write_bytes(data)
    return folder


def pgn_corpus(plain: Path) -> tuple[Path, int]:
    """One PGN file per log of the corpus ``plain``: a random legal chess game with as many plies as
    the log has statements (cached); and the total number of plies."""
    sources = sorted(plain.glob("*.sglog"))
    folder = plain.with_name(f"{plain.name}-pgn")
    plies = [count_statements(source.read_text(encoding="utf-8")) for source in sources]
    if not (folder.is_dir() and len(list(folder.glob("*.pgn"))) == len(sources)):
        folder.mkdir(parents=True, exist_ok=True)
        for index, (source, n) in enumerate(zip(sources, plies, strict=True)):
            (folder / f"{source.stem}.pgn").write_text(chess_game(n, seed=index), encoding="utf-8")
    return folder, sum(plies)


def chess_game(plies: int, seed: int) -> str:
    """One random legal chess game of exactly ``plies`` plies, as PGN (retried until no mate comes first)."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    while True:
        board = chess.Board()
        game = chess.pgn.Game()
        node: chess.pgn.GameNode = game
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        else:
            return str(game) + "\n"


def chess_pgn(plies: int, seed: int = 7) -> str:
    """Random legal chess games of 200 plies (the last one shorter) totalling ``plies``, as PGN text."""
    games: list[str] = []
    total = 0
    while total < plies:
        length = min(200, plies - total)
        games.append(chess_game(length, seed=seed + len(games)).rstrip("\n"))
        total += length
    return "\n\n".join(games) + "\n"


def pgn_file(plies: int, seed: int = 7) -> Path:
    """:func:`chess_pgn` in a file (cached): the peer of a log of ``plies`` statements."""
    path = OUT / f"peer-{plies}-{seed}.pgn"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(chess_pgn(plies, seed), encoding="utf-8")
        tmp.rename(path)
    return path


#: python-chess over a folder of one-game PGN files, one process, as ``sgcheck replay`` over a folder.
PGN_READER = """
import sys, pathlib, chess.pgn
plies = 0
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.pgn")):
    with path.open(encoding="utf-8") as handle:
        game = chess.pgn.read_game(handle)
        assert game is not None and not game.errors, (path, game and game.errors)
        plies += sum(1 for _ in game.mainline_moves())
print(plies)
"""

#: python-chess over one PGN file of many games, as ``sgcheck replay`` over one long log.
PGN_FILE_READER = """
import sys, chess.pgn
plies = 0
with open(sys.argv[1], encoding="utf-8") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        plies += sum(1 for _ in game.mainline_moves())
print(plies)
"""


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float  # of the child and every process it waited for (workers of --jobs N)


def timed(target: Target, cmd: list[str], build: str | None, *, expect: str) -> Timing:
    """Wall and CPU time of ``cmd`` in a fresh child, which must exit 0 and print ``expect`` (a
    regular expression searched in its output): a command that did less than it is timed for
    fails the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = target.run(cmd, build, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    shown = " ".join(cmd[1:])[-160:]
    if done.returncode != 0:
        fail(f"{shown} exited {done.returncode}: {(done.stdout + done.stderr).strip()[-400:]}")
    if not re.search(expect, done.stdout):
        fail(f"{shown} did not print {expect!r}: {done.stdout.strip()[-400:]}")
    return Timing(wall, cpu)


def sglogs(folder: Path) -> int:
    """The logs of a corpus folder; an empty corpus fails the benchmark."""
    count = len(list(folder.glob("*.sglog")))
    if count == 0:
        fail(f"the corpus {folder} holds no .sglog file: nothing to measure")
    return count


def corpus_expect(games: int) -> str:
    """What ``sgcheck replay`` prints after replaying every one of ``games`` legal logs."""
    return rf"\b{games} files? checked: no problems found"


def replay_cli(folder: Path, jobs: int) -> list[str]:
    """The command line replaying every log of ``folder``.

    The generated corpora live in ``benchmarks/out/``, which git ignores, and a folder search skips
    what git ignores: ``--no-respect-gitignore`` searches it anyway."""
    return [*SGCHECK, "replay", str(folder), "--jobs", str(jobs), "--no-summary", "--no-respect-gitignore"]


# --- long logs in other layouts -------------------------------------------------------------------


def write_layout(source: Path, layout: str, dest: Path, *, seed: int = 0) -> int:
    """Write the log ``source`` in ``layout`` to ``dest``, streaming; the statements written."""
    from sgcheck.replay.layouts import relayout_lines

    statements = 0
    with source.open(encoding="utf-8", newline="") as lines, dest.open("wb") as out:
        for piece in relayout_lines(lines, layout, seed=seed):
            out.write(piece.encode("utf-8"))
            statements += count_statements(piece)
    return statements


def layout_log(source: Path, layout: str) -> tuple[Path, int]:
    """``source`` in ``layout``, cached in ``benchmarks/out/`` next to it; and its statements."""
    path = source if layout == "plain" else source.with_name(f"{source.stem}-layout-{layout}.sglog")
    counted = path.with_suffix(".statements")
    if layout == "plain" and not counted.exists():
        counted.write_text(f"{count_statements(source.read_text(encoding='utf-8'))}\n", encoding="utf-8")
    if not (path.exists() and counted.exists()):
        tmp = path.with_suffix(".tmp")
        n = write_layout(source, layout, tmp)
        tmp.rename(path)
        counted.write_text(f"{n}\n", encoding="utf-8")
    return path, int(counted.read_text(encoding="utf-8"))


def fit_log(path: Path, max_bytes: int) -> tuple[Path, int]:
    """The whole turns of the log ``path`` that fit in ``max_bytes`` (cached next to it); and their statements."""
    fitted = path.with_name(f"{path.stem}-max{max_bytes}.sglog")
    counted = fitted.with_suffix(".statements")
    if not (fitted.exists() and counted.exists()):
        data = path.read_bytes()[: max_bytes + 1]
        cut = max(m.start() for m in re.finditer(rb"\n[0-9]+\.", data)) + 1  # before the last turn begun
        fitted.write_bytes(data[:cut])
        counted.write_text(f"{count_statements(data[:cut].decode('utf-8'))}\n", encoding="utf-8")
    return fitted, int(counted.read_text(encoding="utf-8"))
