"""Inputs and measurements the benchmarks share: generated corpora, logs rewritten in other layouts,
python-chess peers with the same number of plies, and timing the real command line.

Generated files are cached in ``benchmarks/out/`` (git-ignored) under names that say what they hold,
so a second run (for instance after a change to the reader) measures the very same inputs. After a
change to ``sgcheck/replay/layouts.py``, delete the cached layouts (``benchmarks/out/*-layout-*``,
``benchmarks/out/corpus-*-mixed``) so that they are written again.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SGCHECK = [sys.executable, "-m", "sgcheck"]

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


#: Byte-code caching on, as after ``pip install`` (which compiles every module).
CACHED_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def wall_time(cmd: list[str], *, expect: str | None = None) -> float:
    """Wall time of ``cmd`` in a fresh process (output discarded), which must exit 0; with ``expect``,
    its output must be that text."""
    start = time.perf_counter()
    out = subprocess.PIPE if expect else subprocess.DEVNULL
    done = subprocess.run(cmd, stdout=out, check=False, cwd=ROOT, env=CACHED_ENV)
    elapsed = time.perf_counter() - start
    assert done.returncode == 0, (cmd[:4], done.returncode)
    if expect is not None:
        assert done.stdout.decode().strip() == expect, (done.stdout[-200:], expect)
    return elapsed


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
