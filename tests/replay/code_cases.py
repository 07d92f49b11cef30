"""Load and run the example cases of replay's codes: ``sgcheck/replay/cases/*.yaml``.

One file per code, named after it (``R204.yaml`` for SG-R204), as the contract rules' cases are::

    code: SG-R204
    fail:
      - name: "a d100 of 61 misses a threshold of 60 (core §4.2)"
        file: examples/logs/broken/wrong-hit.sglog
        expect:
          - {code: SG-R204, at: "15:6", message: "the dice say miss"}

A case is a game log, written in the case (``log``, a literal block) or a shipped example named by
its path from the repository's root (``file``, replayed where it is, so that the pack or scenario
its header names is found). It is replayed as ``sgcheck replay`` replays it,
stopping at its first error, or with ``keep_going: true`` as ``--keep-going`` does, and with
``allow_violations: true`` as ``--allow-violations`` does (a pack that breaks the contract played
at the table: what the watch finds is a warning). A log written in the case is replayed from an
empty folder, as ``game.sglog``, where ``pack`` (a shipped pack folder, by its path from the
repository's root) is copied as ``pack``, for a log whose header says ``[Pack "pack"]``, and
``files`` (a mapping of file name to text) is written, for a scenario or a card file the log
names; a name may hold folders (``pack/sgpack.yaml``, ``pack/cards.sgcard``: a pack of the case's
own, with its manifest). ``logs`` (a mapping of log name to text) writes other logs of the same
run beside it, replayed together as ``sgcheck replay game.sglog OTHER.sglog`` replays them, for
what only a run over several logs shows (a dice secret two games share); only ``game.sglog``'s
findings are compared. ``encoding`` (a Python codec name, ``utf-8`` unless given) is how the log
written in the case is saved: a log an editor saved as Latin-1 or UTF-16.

``expect`` (never empty) is the complete list of findings the case produces for every code it
names, and it must name the file's own code: ``code``, ``at`` (``"LINE:COL"`` where its span
starts) and ``message`` (optional, a substring of its message). For each code named, the replay
must report exactly as many findings of that code, each at its place and with its message;
findings of other codes are not compared. A finding on another file than the log (the scenario
the log names) is placed ``"FILE:LINE:COL"``, FILE its name.
"""

from __future__ import annotations

import codecs
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from sgcheck.diagnostics import Diagnostic
from sgcheck.replay.files import discover_logs, replay_input, run_findings
from sgcheck.replay.options import ReplayOptions

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = ROOT / "sgcheck" / "replay" / "cases"
AT_PATTERN = re.compile(r"(?:(?P<file>[\w.-]+):)?(?P<line>[1-9][0-9]*):(?P<column>[1-9][0-9]*)")
_CASE_KEYS = frozenset(
    {"name", "log", "file", "pack", "files", "logs", "encoding", "keep_going", "allow_violations", "expect"}
)
#: A file written beside the case's log: a name, or names of folders and a name, none of them a way up.
_FILE_NAME = re.compile(r"[\w.-]+(?:/[\w.-]+)*")
_ENTRY_KEYS = frozenset({"code", "at", "message"})


@dataclass(frozen=True)
class Expected:
    code: str
    file: str | None  # the name of the file it is on, when that is not the log
    line: int
    column: int
    message: str | None


@dataclass(frozen=True)
class CodeCase:
    code: str  # the code the file is about
    name: str
    log: str | None
    file: str | None
    pack: str | None
    files: tuple[tuple[str, str], ...]
    logs: tuple[tuple[str, str], ...]  # other logs of the same run, by name
    encoding: str  # how the log written in the case is saved
    keep_going: bool
    allow_violations: bool
    expect: tuple[Expected, ...]
    source: Path

    @property
    def id(self) -> str:
        return f"{self.code}: {self.name}"


def _entry(raw: Any, where: str) -> Expected:
    if not isinstance(raw, dict) or set(raw) - _ENTRY_KEYS or not {"code", "at"} <= set(raw):
        raise ValueError(f"{where}: an expected finding has code, at and optionally message")
    at = AT_PATTERN.fullmatch(str(raw["at"]))
    if at is None:
        raise ValueError(f"{where}: 'at' is LINE:COL, not {raw['at']!r}")
    message = raw.get("message")
    text = str(message) if message else None
    return Expected(str(raw["code"]), at["file"], int(at["line"]), int(at["column"]), text)


def _named_texts(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    """A mapping of file name to text, its names checked to stay in the case's folder."""
    named = tuple((str(name), str(text)) for name, text in (raw or {}).items())
    for name, _text in named:
        if not _FILE_NAME.fullmatch(name) or ".." in name.split("/"):
            raise ValueError(f"{where}: {name!r} is not a file name in the case's folder")
    return named


def load_case_file(path: Path) -> list[CodeCase]:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    code = data["code"]
    if path.stem != code.removeprefix("SG-") or set(data) - {"code", "fail"}:
        raise ValueError(f"{path.name}: a file is named after its code and holds code and fail")
    cases = []
    for raw in data["fail"]:
        where = f"{path.name}: {raw.get('name')!r}"
        if set(raw) - _CASE_KEYS or ("log" in raw) == ("file" in raw) or not raw.get("expect"):
            raise ValueError(f"{where}: a case has a name, a log or a file, and what it expects")
        expect = tuple(_entry(entry, where) for entry in raw["expect"])
        if code not in {e.code for e in expect}:
            raise ValueError(f"{where}: a case expects a finding of its file's code")
        if ("pack" in raw or "files" in raw or "logs" in raw or "encoding" in raw) and "log" not in raw:
            raise ValueError(f"{where}: a pack, files, logs or an encoding go with a log written in the case")
        log, file, pack = raw.get("log"), raw.get("file"), raw.get("pack")
        files = _named_texts(raw.get("files"), where)
        logs = _named_texts(raw.get("logs"), where)
        if any("/" in name or not name.endswith(".sglog") or name == "game.sglog" for name, _ in logs):
            raise ValueError(f"{where}: another log of the run is named NAME.sglog, beside game.sglog")
        encoding = codecs.lookup(str(raw.get("encoding", "utf-8"))).name
        keep_going, allow = bool(raw.get("keep_going")), bool(raw.get("allow_violations"))
        cases.append(
            CodeCase(code, raw["name"], log, file, pack, files, logs, encoding, keep_going, allow, expect, path)
        )
    return cases


def load_cases() -> list[CodeCase]:
    return [case for path in sorted(CASES_DIR.glob("*.yaml")) for case in load_case_file(path)]


def write_case(case: CodeCase, folder: Path) -> list[Path]:
    """The logs of the case's run, its own first: a log written in the case is written in
    ``folder`` with what goes beside it; a shipped log is where it is (in its folder: the pack or
    scenario its tags name is there)."""
    if case.file is not None:
        return [ROOT / case.file]
    assert case.log is not None
    if case.pack is not None:
        shutil.copytree(ROOT / case.pack, folder / "pack")
    for name, text in case.files + case.logs:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    shown = folder / "game.sglog"
    shown.write_bytes(case.log.encode(case.encoding))
    return [shown, *(folder / name for name, _text in case.logs)]


def replay_case(case: CodeCase, folder: Path) -> tuple[Diagnostic, ...]:
    """The findings of the case's log, replayed as ``sgcheck replay`` replays it."""
    log, *others = discover_logs([str(path) for path in write_case(case, folder)])
    extra = run_findings([log, *others])
    options = ReplayOptions(keep_going=case.keep_going, allow_violations=case.allow_violations)
    result, _texts = replay_input(log, options, extra=extra.get(log.path, ()))
    return result.diagnostics


def _on(diag: Diagnostic) -> str:
    """The name of the file a finding is on, or ``""`` for the log."""
    name = Path(diag.span.source).name if diag.span is not None else ""
    return "" if name.endswith(".sglog") else name


def mismatches(case: CodeCase, found: tuple[Diagnostic, ...]) -> list[str]:
    """What differs between the findings of the codes the case names and what it expects."""
    problems = []
    for code in sorted({e.code for e in case.expect}):
        wanted = [e for e in case.expect if e.code == code]
        got = [d for d in found if d.code == code]
        if len(got) != len(wanted):
            problems.append(f"{code}: expected {len(wanted)} finding(s), got {[(d.span, d.message) for d in got]}")
            continue
        places = sorted(got, key=lambda d: (_on(d), d.span.line, d.span.column) if d.span else ("", 0, 0))
        for entry, diag in zip(sorted(wanted, key=lambda e: (e.file or "", e.line, e.column)), places, strict=True):
            where = (_on(diag), diag.span.line, diag.span.column) if diag.span else None
            if where != (entry.file or "", entry.line, entry.column):
                problems.append(f"{code}: expected at {entry.file or ''}:{entry.line}:{entry.column}, found at {where}")
            if entry.message is not None and entry.message not in diag.message:
                problems.append(f"{code}: {entry.message!r} not in {diag.message!r}")
    return problems
