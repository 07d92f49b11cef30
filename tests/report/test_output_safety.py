"""Every output format is safe for where it is read: a terminal, a CI log, a browser, an XML parser.

An input can carry characters a sink obeys rather than shows: escape sequences and bells, C1
controls (NEL), bidirectional embeddings, overrides, isolates and marks that reorder the text
around them, line and paragraph separators. The formats people read (text, ``github``,
``junit``, ``html``) show a stand-in for each (``␛``, ``<U+202E>``); the JSON formats keep the
data as it is and write these characters as ``\\u`` escapes. The inputs are the crafted corpus
files ``dangerous-names`` (a YAML card pack whose duplicate name SG-C140 quotes raw, a log with
them in a tag, a comment and a card name) and file names holding them.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.visible import DANGEROUS, escape_json_text, visible, visible_json_text
from tests.fuzz.harness import RAW_CONTROLS, REPLAY_FORMATS, REPO, check_sane, run_in_process, run_subprocess

CARDS = "tests/fuzz/corpus/cards/dangerous-names.sgcard.yaml"
LOG = "tests/fuzz/corpus/logs/dangerous-names.sglog"

#: One character of each class, as the card's name holds them (YAML escapes), in order.
NAME = "Evil\x1b[2J\x07\x7f\x85\x9b\u202e\u202a\u2066\u2069\u200e\u200f\u061c\u2028\u2029 Twin"
#: The same name as the formats people read show it.
SHOWN_NAME = "Evil␛[2J␇␡<U+0085><U+009B><U+202E><U+202A><U+2066><U+2069><U+200E><U+200F><U+061C><U+2028><U+2029> Twin"
#: Written independently of sgcheck.visible: what no report may hold raw.
EVERY_DANGEROUS = "\x00\x07\x08\x0b\x0c\x0d\x1b\x1f\x7f\x80\x85\x9b\x9f\u061c\u200e\u200f\u2028\u2029" + (
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def _raw(text: str) -> list[str]:
    return sorted({match.group() for match in RAW_CONTROLS.finditer(text)})


# --- the one function ---------------------------------------------------------------------------


def test_each_class_gets_its_stand_in() -> None:
    assert visible(NAME) == SHOWN_NAME
    assert visible("\x00\x09\x0a\x0d\x1f") == "\u2400\u2409\n\u240d\u241f"  # C0: control pictures, newline kept
    assert visible("a\ud800b\udcff") == "a\ufffdb\ufffd"  # lone surrogates (a file name not in UTF-8)
    assert visible("é 中 🜲 \u200d \ufeff", keep="") == "é 中 🜲 \u200d \ufeff"  # printable text is left alone


def test_what_a_sink_keeps() -> None:
    assert visible("a\nb\tc") == "a\nb␉c"
    assert visible("a\nb\tc", keep="") == "a␊b␉c"
    assert visible("a\nb\tc\r", keep="\t\n") == "a\nb\tc␍"


def test_every_dangerous_character_is_replaced_and_nothing_else() -> None:
    replaced = {c for c in map(chr, range(0x110000)) if visible(c, keep="") != c}
    pattern = re.compile(DANGEROUS)
    assert replaced == {c for c in map(chr, range(0x110000)) if pattern.fullmatch(c)}
    assert set(EVERY_DANGEROUS) <= replaced
    assert not any(RAW_CONTROLS.search(visible(c, keep="")) for c in replaced)


def test_json_text_keeps_the_data_and_loses_the_raw_characters() -> None:
    data = {"name": NAME + "\udcff", "plain": "é 中"}
    document = escape_json_text(json.dumps(data, ensure_ascii=False))
    assert _raw(document) == []
    assert json.loads(document) == data
    assert '"plain": "é 中"' in document  # other text stays as it is


def _visible_strings(value: object) -> object:
    """``value`` with :func:`visible` applied to each string, keys too, walked (the slow, obvious way)."""
    if isinstance(value, str):
        return visible(value, keep="\t\n")
    if isinstance(value, dict):
        return {visible(key, keep="\t\n"): _visible_strings(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_visible_strings(item) for item in value]
    return value


#: Text that tries to pass for an escape: backslashes before ``u001b``, ``n``, ``t`` and raw controls.
_TRICKY = st.text(
    st.sampled_from(["\\", "u", "0", "1", "b", "f", "n", "r", "t", '"', "a", *EVERY_DANGEROUS, "\t", "\n"])
)


@settings(max_examples=150, deadline=None)
@given(value=st.recursive(_TRICKY | st.integers(), lambda inner: st.lists(inner) | st.dictionaries(_TRICKY, inner)))
def test_the_page_data_is_made_visible_without_walking_it(value: object) -> None:
    document = visible_json_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    assert _raw(document) == []
    assert json.loads(document) == _visible_strings(value)


def test_an_escaped_backslash_is_never_taken_for_an_escape() -> None:
    value = ["\\u001b", "\\\x1b", "\\n\n"]
    assert json.loads(visible_json_text(json.dumps(value))) == ["\\u001b", "\\␛", "\\n\n"]


# --- every sink, on a card file whose message quotes the name raw ---------------------------------


@pytest.mark.parametrize("fmt", ["text", "github", "junit"])
def test_people_formats_show_the_name_and_obey_nothing(fmt: str) -> None:
    outcome = check_sane(run_in_process("check", "--isolated", CARDS, fmt=fmt))
    assert outcome.exit_code == 1
    assert _raw(outcome.stdout) == []
    shown = SHOWN_NAME.replace("<", "&lt;").replace(">", "&gt;") if fmt == "junit" else SHOWN_NAME
    assert f"card name '{shown}' is already used" in outcome.stdout


def test_github_annotation_is_one_escaped_line() -> None:
    outcome = run_in_process("check", "--isolated", CARDS, fmt="github")
    [line] = [line for line in outcome.stdout.splitlines() if "SG-C140" in line]
    assert line.startswith("::error file=tests/fuzz/corpus/cards/dangerous-names.sgcard.yaml,line=13,col=11,")
    assert f"::card name '{SHOWN_NAME}' is already used by the card at " in line


def test_junit_holds_the_stand_ins_as_valid_xml() -> None:
    outcome = run_in_process("check", "--isolated", CARDS, fmt="junit")
    failure = ET.fromstring(outcome.stdout).find("testsuite/testcase/failure")
    assert failure is not None
    assert failure.get("message", "").startswith(f"SG-C140 card name '{SHOWN_NAME}'")


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_formats_keep_the_name_as_it_is(fmt: str) -> None:
    outcome = check_sane(run_in_process("check", "--isolated", CARDS, fmt=fmt))
    assert _raw(outcome.stdout) == []
    assert "\\u001b[2J\\u0007\\u007f\\u0085\\u009b\\u202e" in outcome.stdout  # escaped, not replaced
    document = outcome.document
    if fmt == "json":
        messages = [d["message"] for f in document["files"] for d in f["diagnostics"]]
    else:
        messages = [r["message"]["text"] for r in document["runs"][0]["results"]]
    assert any(f"card name '{NAME}' is already used" in message for message in messages)


# --- a log: raw characters in its lines, which the text snippet and the page show ----------------


@pytest.mark.parametrize("fmt", ["text", "github", "junit", "html", "json", "sarif"])
def test_a_log_with_dangerous_characters_in_every_format(fmt: str) -> None:
    outcome = check_sane(run_in_process("replay", LOG, fmt=fmt))
    assert outcome.exit_code == 0
    assert _raw(outcome.stdout) == []


def test_the_text_snippet_shows_the_line_with_stand_ins() -> None:
    outcome = run_in_process("replay", LOG, fmt="text")
    assert '   11 | 1.   main1: play "Evil<U+0085><U+009B><U+202E>' in outcome.stdout
    assert " cost 3 ; <U+202E> reversed\n" in outcome.stdout


def test_the_page_shows_what_the_browser_would_obey() -> None:
    page = run_in_process("replay", LOG, fmt="html").stdout
    [block] = re.findall(r'<script type="application/json" class="sg-data">(.*?)</script>', page, re.S)
    data = json.loads(block)
    lines = data["lines"]
    assert lines[3] == '[Event "Dangerous <U+0085><U+202E> names"]'
    assert lines[4] == '[White "Ana<U+2066> <U+200F>"]'
    assert lines[10].endswith("; <U+202E> reversed")
    assert all(not RAW_CONTROLS.search(text) for text in lines)
    assert "\\u003cU+202E\\u003e" in block  # the stand-in's brackets are escaped for the script element too


# --- file names ---------------------------------------------------------------------------------


@pytest.fixture
def odd_log(tmp_path: Path) -> Path:
    """A log with an error, whose file name holds an escape sequence, a right-to-left override and
    a byte that is not UTF-8 (a lone surrogate once Python has decoded the name)."""
    path = tmp_path / os.fsdecode(b"game\x1b[31m\xe2\x80\xae\xff.sglog")
    try:
        path.write_bytes((REPO / "tests/fuzz/corpus/logs/truncated-attack.sglog").read_bytes())
    except (OSError, UnicodeError):
        pytest.skip("the file system does not take this name")
    return path


@pytest.mark.parametrize("fmt", REPLAY_FORMATS)
def test_a_file_name_with_dangerous_characters_in_every_format(odd_log: Path, fmt: str) -> None:
    """The name reaches every report (SARIF once failed on the byte that is not UTF-8)."""
    outcome = check_sane(run_subprocess("replay", str(odd_log), fmt=fmt))
    assert outcome.exit_code == 1
    assert _raw(outcome.stdout) == []
    if fmt in ("text", "github"):
        assert "game␛[31m<U+202E>\ufffd.sglog" in outcome.stdout
    elif fmt == "junit":
        case = ET.fromstring(outcome.stdout).find("testsuite/testcase")
        assert case is not None and case.get("name", "").endswith("/game␛[31m<U+202E>\ufffd.sglog")
    elif fmt == "json":
        assert [f["path"] for f in outcome.document["files"]] == [str(odd_log)]  # as it is
    elif fmt == "sarif":
        [result] = outcome.document["runs"][0]["results"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.endswith("/game%1B%5B31m%E2%80%AE%FF.sglog")  # the bytes of the name
