"""The scanner reads a step exactly as the step pattern does, or leaves it to the pattern.

``sgcheck.lang.logs.reader`` reads the plainest steps (a turn header, a phase label, a statement
and its claims, in lower case, apart by spaces, tabs and line breaks) in one pass over their
characters, and leaves everything else to its step pattern, which the grammar's equality tests
(tests/lang/test_log_reader.py) tie to grammar/sglog.lark. The pattern is the oracle here: at
every position of real, generated and randomly broken logs, a step the scanner reads has the
pattern's end, the pattern's parts at the pattern's places, and the same action and claims.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.lang.logs import reader
from sgcheck.lang.logs.from_actions import Claims
from sgcheck.lang.logs.reader import TurnStep, iter_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText, decode
from sgcheck.replay.generate import Style, generate_game
from sgcheck.replay.layouts import LAYOUTS, relayout
from tests.lang.test_log_reader import assert_agree

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted({*(ROOT / "examples").rglob("*.sglog"), *(ROOT / "tests").rglob("*.sglog")})


def fields(step: TurnStep) -> tuple[object, ...]:
    return step.number, step.color, step.phase, step.word, step.action, step.claims, step.amount


def agree_at(text: str, pos: int) -> bool:
    """The scanner and the pattern read the same step at ``pos``; True if the scanner read one."""
    scanned = reader._scan_step(text, pos)
    if scanned is None:
        return False
    match = reader._STEP.match(text, pos)
    assert match is not None and match.end() > pos, (text[pos : pos + 40], [scanned.part(g) for g in range(1, 6)])
    expected = reader._step(match)
    assert expected is not None, text[pos : pos + 40]
    assert scanned.end() == match.end(), text[pos : pos + 40]
    for group in range(1, 6):
        assert scanned.part(group) == match.span(group), (group, text[pos : pos + 40])
    assert fields(scanned) == fields(expected), text[pos : pos + 40]
    return True


def agree_everywhere(text: str) -> int:
    """Compare at every position of ``text``; how many steps the scanner read."""
    return sum(agree_at(text, pos) for pos in range(len(text) + 1))


def game(seed: int, style: Style = Style.RANDOM, claims: Claims = Claims.ALL, turns: int = 12) -> str:
    return format_log(generate_game(seed, style=style, claims=claims, max_turns=turns).items)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_logs(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n")
    agree_everywhere(text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    style=st.sampled_from(list(Style)),
    claims=st.sampled_from(list(Claims)),
    layout=st.sampled_from(LAYOUTS),
)
def test_generated_games_in_every_layout(seed: int, style: Style, claims: Claims, layout: str) -> None:
    text = relayout(game(seed, style, claims), layout, seed=seed).removeprefix("\ufeff").replace("\r\n", "\n")
    agree_everywhere(text)


PIECES = ["", " ", "\n", "\t", ";", ":", "1", "0", ".", "..", "a9", "h8", "K", "B", "hit", "Hit", "lp", "LP", "cost",
          "king-damage", "reroll", "Reroll", "advantage", "roll", "pay", "gain", "3sp", '"', "x", "_", "-",
          "1234567890", "123456789", "²", "{", "}", "\u00a0", "\u2003", "\x0c", "\r", "2.", "2...", "0.", "01.",
          "king", "MOVE", "move", "attack", "summon", "end:", "end :", "Main1:", "main1:", "pass", "income",
          "convert", "break", "repair", "teleport", "play", "é"]  # fmt: skip


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_broken_steps(data: st.DataObject) -> None:
    """Plain steps with words inserted, deleted or replaced anywhere: the scanner reads what the
    pattern reads or leaves the step to it."""
    text = relayout(game(data.draw(st.integers(0, 300)), turns=4), "plain").removeprefix("\ufeff")
    text = text.replace("\r\n", "\n")
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 4))
        text = text[:at] + data.draw(st.sampled_from(PIECES)) + text[at + cut :]
    agree_everywhere(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(
        st.sampled_from([*PIECES[1:], "e4", "Nb1", "c3", "5", "12", "sp", "0", "miss", "capture"]), max_size=12
    ),
    gaps=st.lists(st.sampled_from([" ", "\n", "\t", "  ", ""]), min_size=12, max_size=12),
)
def test_steps_made_of_words(words: list[str], gaps: list[str]) -> None:
    """Any sequence of the language's words and others, with any gaps: the same reading."""
    agree_everywhere("".join(word + gap for word, gap in zip(words, gaps, strict=False)))


def test_the_plain_layout_is_read_by_the_scanner() -> None:
    """Every step of a generated game in the plain layout, whatever its claims, but those that
    pay or gain (left to the pattern), is read by the scanner (the fast path is taken)."""
    text = relayout(game(11, claims=Claims.ALL, turns=60), "plain").removeprefix("\ufeff").replace("\r\n", "\n")
    steps = scanned = 0
    for line in text.splitlines(keepends=True):
        if not re.match(r"\s*(?:[0-9]|upkeep|main|battle|end|move|attack|summon|teleport|break|repair|pass)", line):
            continue
        steps += 1
        if re.search(r"\b(?:pay|gain)\b|\"", line) is None:
            start = text.index(line)
            scanned += agree_at(text, start + len(line) - len(line.lstrip()))
        else:
            scanned += 1
    assert steps > 100 and scanned == steps


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_is_read_by_the_scanner(layout: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """In every layout (capitals, comments, indentation, statements over two lines, CRLF), the
    reader with the scanner on leaves to the step pattern only the steps that pay, gain or name a
    card: the fast path is taken whatever the layout (issue 39)."""
    monkeypatch.setattr(reader, "SCAN", True)
    left: list[str] = []
    pattern_step = reader._step

    def counted(match: re.Match[str]) -> TurnStep | None:
        left.append(match.group())
        return pattern_step(match)

    monkeypatch.setattr(reader, "_step", counted)
    steps = 0
    for seed in (3, 11):
        text = relayout(game(seed, claims=Claims.ALL, turns=60), layout, seed=seed)
        source = decode(text.encode("utf-8"), "g.sglog")
        assert isinstance(source, SourceText)
        steps += sum(len(item.steps) for item in reader.read_log(source) if isinstance(item, reader.PlainTurn))
    assert steps > 200
    paying = re.compile(r"(?i:\b(?:pay|gain)\b)|\"")
    assert [step for step in left if paying.search(reader._COMMENTS.sub(" ", step)) is None] == []
    assert len(left) < steps / 10


# --- the reader with the scanner on (the compiled build's), held to the grammar ---------------------


@pytest.fixture
def scanning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "SCAN", True)


@pytest.mark.usefixtures("scanning")
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_logs_read_with_the_scanner_as_the_grammar_reads_them(path: Path) -> None:
    source = decode(path.read_bytes(), path.name)
    if isinstance(source, SourceText):
        assert_agree(source)


@pytest.mark.usefixtures("scanning")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), layout=st.sampled_from(LAYOUTS), turns=st.integers(1, 30))
def test_games_read_with_the_scanner_as_the_grammar_reads_them(seed: int, layout: str, turns: int) -> None:
    source = decode(relayout(game(seed, turns=turns), layout, seed=seed).encode("utf-8"), "g.sglog")
    assert isinstance(source, SourceText)
    assert_agree(source)


@pytest.mark.usefixtures("scanning")
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_broken_logs_read_with_the_scanner_as_the_grammar_reads_them(data: st.DataObject) -> None:
    """The same items and the same syntax error, at the same place, as the grammar's."""
    text = relayout(game(data.draw(st.integers(0, 300)), turns=6), "plain").removeprefix("\ufeff")
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + data.draw(st.sampled_from(PIECES)) + text[at + cut :]
    assert_agree(SourceText("m.sglog", text))


def test_the_scanner_can_be_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """With SCAN off, every step is the pattern's, and the reading is the same."""
    text = game(5, turns=20)
    monkeypatch.setattr(reader, "SCAN", True)
    with_scanner = list(iter_log(SourceText("a.sglog", text)))
    monkeypatch.setattr(reader, "SCAN", False)
    assert list(iter_log(SourceText("a.sglog", text))) == with_scanner
