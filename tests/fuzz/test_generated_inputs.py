"""Inputs too big to keep in the corpus, generated at test time: huge numbers, deep nesting, long
lines and 100 MB files.

Huge and deeply nested inputs run in a child process under the hang guard and the memory cap.
Each big file is deleted as soon as its run is over, so the disk holds at most one at a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import EXAMPLES, FORMATS, Outcome, check_sane, run_in_process, run_subprocess

DIGITS = "9" * 5000  # past Python's 4,300-digit limit for converting an int to text and back
MIB = 1 << 20
HUGE = 100 * MIB
READING_LIMIT_CODES = {"SG-P005", "SG-P010", "SG-P011"}

SETUP = "rolloff white 5 4 3 black 2 2 1\nchoose white\nking white e1\nking black e8\n"
SOUL_DRAIN = 'spell "Soul Drain" {\n    cost 3 SP\n    phase main1\n    effect steal 5 SP\n}\n'
YAML_CARD = (
    "  - name: Soul Drain\n    kind: spell\n    cost: {SP: 3}\n    phase: main1\n"
    "    effects:\n      - steal: {amount: 5, resource: SP}\n"
)
MANIFEST = "name: pack\nversion: 1.0.0\nruleset: core\ncards:\n  - cards.sgcard\n"


def _numbered_lines(template: str) -> tuple[str, int]:
    """The template with ``{n}`` replaced by the long number, and the line the number is on."""
    line = template[: template.index("{n}")].count("\n") + 1
    return template.replace("{n}", DIGITS), line


def _errors_on_line(outcome: Outcome, line: int) -> list[str]:
    return [
        d["code"]
        for f in outcome.document["files"]
        for d in f["diagnostics"]
        if d["severity"] == "error" and d["span"] is not None and d["span"]["line"] == line
    ]


# --- numbers with thousands of digits -----------------------------------------------------------

WRONG_HIT = (EXAMPLES / "logs" / "broken" / "wrong-hit.sglog").read_text(encoding="utf-8")

LOG_NUMBERS = {
    "claim": SETUP + "\n1.   upkeep: summon R a1 cost 10 lp {n}\n",
    "cost-claim": SETUP + "\n1.   upkeep: summon R a1 cost {n} lp 10\n",
    "turn-number": SETUP + "\n{n}.   upkeep: summon R a1 cost 10 lp 10\n",
    "rolloff-die": "rolloff white 5 4 {n} black 2 2 1\nchoose white\nking white e1\nking black e8\n",
    "attack-die": WRONG_HIT.replace("roll 6 1", "roll 6 {n}"),
}


@pytest.mark.parametrize("where", sorted(LOG_NUMBERS))
def test_a_log_number_with_thousands_of_digits_is_refused_at_its_place(where: str) -> None:
    """A number over 4,300 digits in a claim, a turn number or a die gives SG-P012 at its line
    (not an internal error that hides every other finding), in every format."""
    text, line = _numbered_lines(LOG_NUMBERS[where])
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("replay", "-", fmt=fmt, stdin=text.encode()))
        assert outcome.exit_code == 1, outcome.describe()
        assert "SG-P012" in outcome.codes(), outcome.describe()
        if fmt == "json":
            assert "SG-P012" in _errors_on_line(outcome, line), outcome.describe()


def test_a_turn_limit_with_thousands_of_digits_is_a_finding() -> None:
    """A `[TurnLimit]` tag with a 5,000-digit value is refused as a bad or too long number."""
    text = f'[TurnLimit "{DIGITS}"]\n\n' + SETUP
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("replay", "-", fmt=fmt, stdin=text.encode()))
        assert outcome.exit_code == 1, outcome.describe()
        assert {"SG-P007", "SG-P012"} & set(outcome.codes()), outcome.describe()


CARD_NUMBERS = {
    "cost.sgcard": 'spell "Big" {\n    cost {n} SP\n    effect steal 5 SP\n}\n',
    "to-hit.sgcard": 'relic "Big" passive {\n    cost 3 SP\n    effect to_hit +{n}\n}\n',
    "cost.sgcard.yaml": "cards:\n" + YAML_CARD.replace("{SP: 3}", "{SP: {n}}"),
    "amount.sgcard.yaml": "cards:\n" + YAML_CARD.replace("amount: 5", "amount: {n}"),
}


@pytest.mark.parametrize("name", sorted(CARD_NUMBERS))
def test_a_card_number_with_thousands_of_digits_is_refused_at_its_place(tmp_path: Path, name: str) -> None:
    """A 5,000-digit number in a card file is an error on its own line, in every format, never an
    internal error."""
    text, line = _numbered_lines(CARD_NUMBERS[name])
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("check", "--isolated", str(path), fmt=fmt))
        assert outcome.exit_code == 1, outcome.describe()
        if fmt == "json":
            assert _errors_on_line(outcome, line), outcome.describe()


@pytest.mark.parametrize("setting", ["draw", "keep", "hand_limit"])
def test_a_manifest_number_with_thousands_of_digits_is_refused_at_its_place(tmp_path: Path, setting: str) -> None:
    """A 5,000-digit draft setting in a manifest is an error on its line, and the pack is still
    reported in a valid document."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "cards.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    text, line = _numbered_lines(MANIFEST + f"draft:\n  {setting}: {{n}}\n")
    (pack / "sgpack.yaml").write_text(text, encoding="utf-8")
    for fmt in FORMATS:
        outcome = check_sane(run_in_process("check", "--isolated", str(pack), fmt=fmt))
        assert outcome.exit_code == 1, outcome.describe()
        if fmt == "json":
            assert _errors_on_line(outcome, line), outcome.describe()


# --- deep nesting and long lines ------------------------------------------------------------------

NESTED = {
    "braces.sglog": "{" * 100_000,
    "brackets.sglog": "[" * 100_000,
    "braces.sgcard": 'spell "Deep" ' + "{" * 100_000,
    "brackets.sgcard.yaml": "cards: " + "[" * 100_000,
    "mappings.sgcard.yaml": "cards: " + "{a: " * 30_000,
    "blocks.sgcard.yaml": "".join(" " * depth + "a:\n" for depth in range(1000)),
    "pack/sgpack.yaml": "name: deep\nversion: 1.0.0\ncards: " + "[" * 100_000,
}


@pytest.mark.parametrize("name", sorted(NESTED))
def test_deeply_nested_input_is_a_finding(tmp_path: Path, name: str) -> None:
    """100,000 opening brackets or braces, or YAML nested a thousand levels deep, give a finding
    within bounded time and memory: no recursion error, no crash."""
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(NESTED[name], encoding="utf-8")
    target = path.parent if path.name == "sgpack.yaml" else path
    command = "replay" if name.endswith(".sglog") else "check"
    outcome = check_sane(run_subprocess(command, str(target), fmt="json"))
    assert outcome.exit_code == 1, outcome.describe()


LONG_LINES = {
    "comment.sglog": "; " + "x" * (2 * MIB) + "\n" + SETUP,
    "statement.sglog": SETUP + "\n1.   " + "pass " * (2 * MIB // 5) + "\n",
    "text.sgcard": 'spell "Long" { cost 3 SP text "' + "x" * (2 * MIB) + '" effect steal 5 SP }\n',
}


@pytest.mark.parametrize("name", sorted(LONG_LINES))
def test_a_two_megabyte_line_is_a_finding(tmp_path: Path, name: str) -> None:
    """A single line of 2 MB is reported within bounded time and memory (a line-length limit, or
    the syntax error it is), never read into a crash."""
    path = tmp_path / name
    path.write_text(LONG_LINES[name], encoding="utf-8")
    command = "replay" if name.endswith(".sglog") else "check"
    outcome = check_sane(run_subprocess(command, str(path), fmt="json"))
    assert outcome.exit_code == 1, outcome.describe()


# --- 100 MB files ----------------------------------------------------------------------------------


def _fill(path: Path, head: str, chunk: str, size: int = HUGE) -> None:
    """``head`` then ``chunk`` repeated up to about ``size`` bytes, written a mebibyte at a time."""
    block = (chunk * (MIB // len(chunk) + 1)).encode()
    with path.open("wb") as handle:
        handle.write(head.encode())
        for _ in range(size // len(block)):
            handle.write(block)


def _sparse_nuls(path: Path, size: int = HUGE) -> None:
    """A file of ``size`` NUL bytes that takes no disk space."""
    with path.open("wb") as handle:
        handle.truncate(size)


@pytest.mark.parametrize("suffix", [".sglog", ".sgcard"])
def test_a_100_megabyte_file_of_nul_bytes_is_cut_off(tmp_path: Path, suffix: str) -> None:
    """A 100 MB file of NUL bytes is reported as binary or too large after reading only up to
    the limit, within the memory cap."""
    path = tmp_path / f"zeros{suffix}"
    try:
        _sparse_nuls(path)
        command = "replay" if suffix == ".sglog" else "check"
        outcome = check_sane(run_subprocess(command, str(path), fmt="json"))
    finally:
        path.unlink(missing_ok=True)
    assert outcome.exit_code == 1, outcome.describe()
    assert READING_LIMIT_CODES & set(outcome.codes()), outcome.describe()


def test_a_100_megabyte_log_stays_within_bounds(tmp_path: Path) -> None:
    """A 100 MB log (a byte-order mark, CRLF line ends) is reported within bounded time and
    memory: it is never held whole, nor copied whole to normalise its line ends."""
    path = tmp_path / "big.sglog"
    try:
        _fill(path, "\ufeff" + SETUP.replace("\n", "\r\n"), "zz zz zz zz zz zz zz zz\r\n")
        outcome = check_sane(run_subprocess("replay", str(path), fmt="json"), inputs=1)
    finally:
        path.unlink(missing_ok=True)
    assert outcome.exit_code == 1, outcome.describe()


#: suffix: (head, repeated chunk, the code of that kind's size limit)
BIG_CARD_FILES = {
    ".sgcard": ("", SOUL_DRAIN, "SG-P010"),
    ".sgcard.yaml": ("cards:\n", YAML_CARD, "SG-P029"),
}


@pytest.mark.parametrize("suffix", sorted(BIG_CARD_FILES))
def test_a_100_megabyte_card_file_is_refused_at_the_size_limit(tmp_path: Path, suffix: str) -> None:
    """A 100 MB card file is refused with its size limit's code (SG-P010; SG-P029 for YAML) once
    the limit is reached, instead of being read whole and parsed for minutes in gigabytes of
    memory."""
    path = tmp_path / f"big{suffix}"
    head, chunk, code = BIG_CARD_FILES[suffix]
    try:
        _fill(path, head, chunk)
        outcome = check_sane(run_subprocess("check", "--isolated", str(path), fmt="json"))
    finally:
        path.unlink(missing_ok=True)
    assert outcome.exit_code == 1, outcome.describe()
    assert code in outcome.codes(), outcome.describe()


def test_a_100_megabyte_manifest_is_refused_at_the_size_limit(tmp_path: Path) -> None:
    """A 100 MB pack manifest is refused with SG-P010 at the limit."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "cards.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    manifest = pack / "sgpack.yaml"
    try:
        _fill(manifest, MANIFEST, "  - cards.sgcard\n")
        outcome = check_sane(run_subprocess("check", "--isolated", str(pack), fmt="json"))
    finally:
        manifest.unlink(missing_ok=True)
    assert outcome.exit_code == 1, outcome.describe()
    assert "SG-P010" in outcome.codes(), outcome.describe()
