"""The language server's findings are the command line's (one source: the library), on every shipped
example and broken example; a replay resumed from a checkpoint equals a replay from the start; and
no input of the fuzz corpus makes the server's analysis raise."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.lang.source import SourceText
from sgcheck.replay.interpreter import replay_source
from sgcheck.replay.resume import first_change, replay_kept, usable
from sgcheck.server.analysis import LogMemory, analyse, kind_of
from sgcheck.server.convert import Lines, to_lsp

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(
    str(path.relative_to(ROOT)) for path in (ROOT / "examples").rglob("*") if path.is_file() and kind_of(path.name)
)
CORPUS = ROOT / "tests" / "fuzz" / "corpus"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # paths are shown as the command line run from the root shows them


def _cli(path: str) -> dict[str, list[tuple[object, ...]]]:
    command = "replay" if kind_of(path) == "log" else "check"
    result = CliRunner().invoke(main, [command, "--format", "json", path])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.output)
    found: dict[str, list[tuple[object, ...]]] = {}
    for file in report["files"]:
        rows = found.setdefault(os.path.abspath(file["path"]), [])
        for d in file["diagnostics"]:
            span = d["span"]
            where = (
                (span["source"], span["line"], span["column"], span["end_line"], span["end_column"]) if span else None
            )
            rows.append((d["code"], d["severity"], d["message"], tuple(d["rules"]), where))
    return found


def test_examples_found() -> None:
    assert len(EXAMPLES) > 60
    assert any("/broken/" in path for path in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES)
def test_same_findings_as_the_command_line(path: str) -> None:
    """Code, severity, message, rules (core §8, R-rulings) and place: the server's are the CLI's."""
    text = (ROOT / path).read_bytes().decode("utf-8", "replace")
    found = analyse(path, text, {}, LogMemory())
    mine = {
        where: [(d.code, d.severity.value, d.message, d.rules, tuple(d.span[:5]) if d.span else None) for d in findings]
        for where, findings in found.findings.items()
        if findings
    }
    expected = {where: rows for where, rows in _cli(path).items() if rows}
    if kind_of(path) == "log":  # a log's report names only the log; a pack's problems are on it
        expected = {where: rows for where, rows in expected.items() if where == os.path.abspath(path)}
    assert mine == expected


def test_lsp_ranges_are_utf16() -> None:
    """A character outside the Basic Multilingual Plane counts two UTF-16 units (LSP's positions)."""
    from sgcheck.diagnostics import Diagnostic, Severity, Span

    text = 'card "\U0001f525 Fire" relic\n  on x\n'
    finding = Diagnostic("SG-P020", Severity.ERROR, "bad", Span("a.sgcard", 1, 14, 1, 19))
    shown = to_lsp(finding, "a.sgcard", Lines(text))
    assert (shown.range.start.line, shown.range.start.character, shown.range.end.character) == (0, 14, 19)
    assert Lines(text).character(shown.range.start) == 13


def _long_log(turns: int, seed: int) -> str:
    from sgcheck.core.state import GameState
    from sgcheck.lang.logs.from_actions import Claims
    from sgcheck.lang.logs.writer import format_item
    from sgcheck.replay.generate import Style, iter_game

    items = iter_game(seed, style=Style.ENDLESS, claims=Claims.SOME, max_turns=(turns + 1) // 2)
    return "".join(format_item(item) + "\n" for item in items if not isinstance(item, GameState))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_resumed_replay_equals_a_full_one(seed: int) -> None:
    """Changes anywhere in a generated log: the replay resumed from the last valid checkpoint gives
    the result of a replay from the start (findings, totals, final state)."""
    rng = random.Random(seed)
    text = _long_log(240, seed)
    _, checkpoints = replay_kept(SourceText("g.sglog", text), every=10)
    assert len(checkpoints) > 10
    lines = text.split("\n")
    for _ in range(6):
        at = rng.randrange(len(lines) - 1)
        changed = list(lines)
        choice = rng.randrange(4)
        if choice == 0:
            changed[at] += " ; a note"
        elif choice == 1:
            changed[at] = changed[at].replace("lp", "lp 9", 1).replace("sp", "sp 99", 1)
        elif choice == 2:
            del changed[at]
        else:
            changed[at] = changed[at][: len(changed[at]) // 2]
        new = "\n".join(changed)
        start, _ = usable(checkpoints, first_change(text, new))
        resumed, _ = replay_kept(SourceText("g.sglog", new), start=start, every=10)
        full = replay_source(SourceText("g.sglog", new))
        assert resumed == full


def test_a_log_with_verifiable_dice_keeps_no_checkpoint() -> None:
    """Committed dice are checked in log order from the first roll (docs/dice.md): such a log is
    replayed from the start, so a tampered roll late in it is still found after an edit."""
    text = (ROOT / "examples" / "logs" / "fair-dice.sglog").read_text(encoding="utf-8")
    result, checkpoints = replay_kept(SourceText("fair-dice.sglog", text), every=2)
    assert checkpoints == [] and result.diagnostics == replay_source(SourceText("fair-dice.sglog", text)).diagnostics


def test_memory_resumes_near_the_end() -> None:
    """The server's analysis keeps checkpoints, and a change at the end is replayed from near it."""
    text = _long_log(400, 7)
    memory = LogMemory()
    analyse("long.sglog", text, {}, memory)
    assert memory.checkpoints and memory.text == text
    new = text + "; the end\n"
    start, valid = usable(memory.checkpoints, first_change(text, new))
    assert start is memory.checkpoints[-1] and len(valid) == len(memory.checkpoints)
    again = analyse("long.sglog", new, {}, memory)
    assert again.replay == replay_source(SourceText(again.replay.source, new)) if again.replay else False


def test_fuzz_corpus_never_raises() -> None:
    """Every input of the fuzz corpus, analysed as the editor's text: findings, never an exception."""
    files = [path for path in sorted(CORPUS.rglob("*")) if path.is_file() and kind_of(path.name)]
    assert len(files) > 20
    for path in files:
        if path.stat().st_size > 2_000_000:
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        found = analyse(str(path), text, {}, LogMemory())
        assert os.path.abspath(path) in found.findings
        for where, findings in found.findings.items():
            lines = Lines(text if where == os.path.abspath(path) else "")
            for finding in findings:
                to_lsp(finding, where, lines)
