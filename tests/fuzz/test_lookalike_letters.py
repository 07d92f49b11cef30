"""Letters that only look like ASCII ones: refused and named by every command, never read as keywords.

The reproducers are kept in the corpus (``corpus/logs/long-s-*.sglog`` and friends); here each is
replayed or checked in text, JSON and HTML and formatted, and the message, its place and the file
left untouched by ``fmt`` are asserted. A property test then puts look-alikes into the shipped
examples at random: inside a keyword they must be a syntax error naming the character, in a comment
or a quoted name they must change nothing ``fmt`` could lose.
"""

from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.cli import main
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.cards.writer import sgcard_text
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import parse_log
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.source import SourceText
from sgcheck.letters import _HOMOGLYPHS, lookalike

from .harness import CORPUS, EXAMPLES, REPO, Outcome, check_sane, run_in_process, scratch_folder

LONG_S = "'ſ' (U+017F LATIN SMALL LETTER LONG S)"
DOTLESS_I = "'ı' (U+0131 LATIN SMALL LETTER DOTLESS I)"
DOTTED_I = "'İ' (U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE)"
#: Inside a word (SG-P001), starting one (SG-P003), in a card (SG-P022) and in a YAML value (SG-P027).
INSIDE, STARTING = "syntax error: {} is not the letter {}", "unexpected character {}: it is not the letter {}"

#: Each reproducer: its corpus file, the code, the message, and where (line, column).
REPRODUCERS = [
    ("logs/long-s-unit.sglog", "SG-P001", INSIDE.format(LONG_S, "s"), 12, 32),
    ("logs/long-s-claim.sglog", "SG-P003", STARTING.format(LONG_S, "s"), 11, 34),
    ("logs/long-s-statement.sglog", "SG-P003", STARTING.format(LONG_S, "s"), 11, 14),
    ("logs/long-s-pass.sglog", "SG-P001", INSIDE.format(LONG_S, "s"), 12, 13),
    ("logs/dotless-i-phase.sglog", "SG-P001", INSIDE.format(DOTLESS_I, "i"), 12, 8),
    ("logs/dotless-i-claim.sglog", "SG-P001", INSIDE.format(DOTLESS_I, "i"), 18, 60),
    ("logs/dotted-capital-i-claim.sglog", "SG-P001", INSIDE.format(DOTTED_I, "I"), 14, 39),
    ("logs/kelvin-sign-setup.sglog", "SG-P003", "(U+212A KELVIN SIGN): it is not the letter K", 9, 1),
    ("logs/cyrillic-and-greek-lookalikes.sglog", "SG-P003", "'с' (U+0441 CYRILLIC SMALL LETTER ES): it is not", 13, 26),
    ("cards/long-s-resource.sgcard", "SG-P022", STARTING.format(LONG_S, "s"), 5, 20),
    ("cards/dotless-i-piece.sgcard", "SG-P022", STARTING.format(DOTLESS_I, "i"), 4, 40),
    ("cards/lookalike-values.sgcard.yaml", "SG-P027", f"{LONG_S} is not the letter s", 7, 38),
]
IDS = [r[0] for r in REPRODUCERS]


def _command(name: str) -> str:
    return "replay" if name.endswith(".sglog") else "check"


@pytest.mark.parametrize(("name", "code", "message", "line", "column"), REPRODUCERS, ids=IDS)
def test_reproducer_is_refused_and_named_in_every_format(
    name: str, code: str, message: str, line: int, column: int
) -> None:
    path = f"tests/fuzz/corpus/{name}"
    command = _command(name)
    formats = ("text", "json", "html") if command == "replay" else ("text", "json", "sarif")
    for fmt in formats:
        outcome = check_sane(run_in_process(command, path, fmt=fmt), expect_report=fmt != "html")
        assert outcome.exit_code == 1, outcome.describe()
        assert "legal so far" not in outcome.stdout, outcome.describe()
        if fmt == "text":
            said = outcome.stdout
            assert f"{path}:{line}:{column}: {code} " in said and message in said, outcome.describe()
        elif fmt == "json":
            found = [
                (d["code"], d["span"]["line"], d["span"]["column"])
                for f in outcome.document["files"]
                for d in f["diagnostics"]
                if message in d["message"]
            ]
            assert (code, line, column) in found, outcome.describe()
        else:
            assert message.replace("'", "&#x27;") in outcome.stdout or message in outcome.stdout, outcome.describe()


def _fmt(*args: str, stdin: bytes | None = None) -> Outcome:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        result = CliRunner().invoke(main, ["fmt", *args], input=stdin, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        pytest.fail(f"sgcheck fmt {' '.join(args)} raised: {result.exception!r}")
    return Outcome(("fmt", *args), "text", result.exit_code, result.stdout, result.stderr)


@pytest.mark.parametrize(("name", "code", "message", "line", "column"), REPRODUCERS, ids=IDS)
def test_fmt_refuses_a_lookalike_and_leaves_the_file_as_it_is(
    tmp_path: Path, name: str, code: str, message: str, line: int, column: int
) -> None:
    """``pay 10ſp`` is never rewritten to ``pay 10lp`` (nor anything else): the file does not read."""
    copy = tmp_path / Path(name).name
    shutil.copyfile(CORPUS / name, copy)
    before = copy.read_bytes()
    for args in ((str(copy),), ("--check", str(copy)), ("--diff", str(copy))):
        outcome = check_sane(_fmt(*args), expect_report=False)
        assert outcome.exit_code == 1, outcome.describe()
        said = outcome.stdout + outcome.stderr
        assert f":{line}:{column}: {code} " in said and message in said, outcome.describe()
        assert copy.read_bytes() == before
    piped = check_sane(_fmt("--stdin-filename", copy.name, "-", stdin=before), expect_report=False)
    assert piped.exit_code == 1 and "10lp" not in piped.stdout and "10sp" not in piped.stdout, piped.describe()


# --- the property: look-alikes anywhere in the shipped examples ----------------------------------

#: Examples small enough to run many times; their cards or packs come along by their [Pack] tags.
LOGS = [EXAMPLES / "logs" / n for n in ("guide-example-a.sglog", "guide-example-c.sglog", "relic-game.sglog")]
CARDS = [EXAMPLES / "cards" / "guide-relics.sgcard", EXAMPLES / "cards" / "guide-relics.sgcard.yaml"]
TEXTS = {path: path.read_text(encoding="utf-8") for path in (*LOGS, *CARDS)}

#: For each ASCII letter, the characters known to pass for it (NFKC folds and the table).
_IMITATIONS: dict[str, list[str]] = {}
for _ch in [*_HOMOGLYPHS, *map(chr, range(0x80, 0x2200)), *map(chr, range(0xFF21, 0xFF5B))]:
    _like = lookalike(_ch)
    if not _ch.isascii() and _like is not None and len(_like) == 1 and _like.isalpha():
        _IMITATIONS.setdefault(_like, []).append(_ch)
#: Other letters and marks, which imitate nothing.
OTHERS = ["\u00e9", "\u00df", "\u044f", "\u738b", "\u00f1", "\u0301", "\u200b", "\u20ac"]

_COMMENTS = {".sglog": re.compile(r';[^\n]*|\{[^}]*\}|"[^"\n]*"'), ".sgcard": re.compile(r'#[^\n]*|"[^"\n]*"')}


def _word_letters(path: Path, text: str) -> list[int]:
    """Where an ASCII letter stands outside comments and quoted names (in a word of the language)."""
    if path.name.endswith(".yaml"):
        skipped = re.compile(r"#[^\n]*|(?<=name: )[^\n]*|(?<=text: )[^\n]*")
    else:
        skipped = _COMMENTS[path.suffix]
    free = {i for m in skipped.finditer(text) for i in range(*m.span())}
    return [i for i, ch in enumerate(text) if ch.isascii() and ch.isalpha() and i not in free]


def _canonical(path: Path, text: str) -> str | None:
    """The statements (or cards) the text stands for, without its layout or comments; None if it does not read."""
    if path.suffix == ".sglog":
        try:
            return format_log(parse_log(SourceText(path.name, text)))
        except LogSyntaxError:
            return None
    if path.suffix == ".sgcard":
        parsed = parse_cards(text, path.name)
        return None if parsed.diagnostics else sgcard_text(parsed.cards)
    return text  # YAML: the check below compares the reports


@st.composite
def _mutants(draw: st.DrawFn) -> tuple[Path, str, int, str, bool]:
    path = draw(st.sampled_from(sorted(TEXTS)))
    text = TEXTS[path]
    in_word = draw(st.booleans())
    positions = _word_letters(path, text) if in_word else [i for i, ch in enumerate(text) if ch.isalpha()]
    pos = draw(st.sampled_from(positions))
    letter = text[pos]
    choices = _IMITATIONS.get(letter, []) + _IMITATIONS.get(letter.swapcase(), [])
    char = draw(st.sampled_from(choices + OTHERS) if choices and draw(st.booleans()) else st.sampled_from(OTHERS))
    return path, text[:pos] + char + text[pos + 1 :], pos, char, in_word


@functools.cache
def beside_the_pack() -> Path:
    """A folder with the examples' pack in it, where each mutant is written (so the pack is read
    once); a plain folder, so that the long fuzz run drives this target too."""
    folder = scratch_folder() / "lookalikes"
    shutil.copytree(EXAMPLES / "logs" / "relic-pack", folder / "relic-pack")
    return folder


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutant=_mutants())
def test_a_lookalike_anywhere_is_named_or_changes_nothing(mutant: tuple[Path, str, int, str, bool]) -> None:
    path, text, pos, char, in_word = mutant
    target = beside_the_pack() / path.name
    target.write_text(text, encoding="utf-8")
    if path.suffix == ".sglog":
        report = check_sane(run_in_process("replay", str(target), fmt="json"))
    else:  # reading is what is tested: the contract's analyses (a quarter of a second) are left out
        report = check_sane(run_in_process("check", str(target), "--select", "SG-P", fmt="json"))
    formatted = check_sane(_fmt("--stdin-filename", path.name, "-", stdin=text.encode()), expect_report=False)

    point = f"U+{ord(char):04X}"
    diagnostics = [d for f in report.document["files"] for d in f["diagnostics"]]
    named = [d for d in diagnostics if point in d["message"]]
    if path.name.endswith(".yaml"):  # YAML: a value the schema refuses names the character
        if any(d["code"].startswith("SG-P") for d in diagnostics):
            assert named, f"a YAML error that does not name {point}\n{report.describe()}"
        else:
            assert formatted.exit_code == 0 and char in formatted.stdout, formatted.describe()
        return
    meaning = _canonical(path, text)
    if meaning is None:  # refused: the first error names the character, where it is
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        syntax = ("SG-P001", "SG-P003", "SG-P022")
        places = [(d["span"]["line"], d["span"]["column"]) for d in named if d["code"] in syntax]
        assert (line, column) in places, f"no syntax error names {point} at {line}:{column}\n{report.describe()}"
        assert formatted.exit_code == 1 and point in formatted.stderr, formatted.describe()
        return
    # read: the character is in a comment or a quoted name, never in a word, and fmt keeps the meaning
    assert not in_word, f"{char!r} at {pos} was read as part of a word"
    assert formatted.exit_code == 0, formatted.describe()
    assert _canonical(path, formatted.stdout) == meaning
    assert char in formatted.stdout  # a comment or a name keeps its character
