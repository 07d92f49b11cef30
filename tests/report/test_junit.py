"""JUnit XML output: valid against Jenkins' junit-10.xsd, counts that add up, the same bytes every run.

The golden files (``golden/report.junit.xml``, ``golden/clean.report.junit.xml``) are compared
in ``test_render.py`` with every other format.
"""

from __future__ import annotations

import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.cli.common import IO_ERROR_CODES
from sgcheck.codes import CATALOGUE
from sgcheck.config import Config
from sgcheck.contract.checker import check_paths
from sgcheck.diagnostics import Diagnostic, Fix, Severity, Span
from sgcheck.report import render
from sgcheck.report.junit import NOT_CHECKED, xml_text
from sgcheck.results import FileResult, Run, Suppressed

from .test_render import CLEAN, GAME, clean_run, sample_run

REPO = Path(__file__).resolve().parents[2]
XSD = REPO / "tests" / "data" / "junit-10.xsd"
BROKEN_LOGS = REPO / "examples" / "logs" / "broken"
LEGAL_LOG = REPO / "examples" / "logs" / "guide-example-a.sglog"

CARDS = """\
spell "Rook Promotion" { cost 3 SP  effect set value.rook to 6 }
# sgcheck: ignore SG-C002 -- the volley is a prototype
spell "Cheap Volley" { cost 3 SP  effect set cost.attack to 4 }
"""
CLEAN_CARDS = 'spell "Small Gift" { cost 2 SP  effect gain 1 SP }\n'


@pytest.fixture(scope="module")
def schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(str(XSD))


def _valid(schema: xmlschema.XMLSchema, document: str) -> ET.Element:
    """``document`` is well-formed, valid, and its counts agree with its testcases."""
    schema.validate(document)
    root = ET.fromstring(document)
    assert root.tag == "testsuites" and root.get("name") == "sgcheck"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    errors = sum(1 for case in cases if case.find("error") is not None)
    failures = sum(1 for case in cases if case.find("failure") is not None and case.find("error") is None)
    for element in (root, suite):
        assert element.get("tests") == str(len(cases))
        assert element.get("failures") == str(failures)
        assert element.get("errors") == str(errors)
    assert suite.get("skipped") == "0" and suite.get("time") == "0"
    for case in cases:
        assert case.get("name") == case.get("classname") and case.get("time") == "0"
        assert len(case.findall("failure")) <= 1 and len(case.findall("error")) <= 1
    return root


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args, "--format", "junit"], catch_exceptions=False)
    return result.exit_code, result.output


def test_vendored_schema_is_the_jenkins_junit_schema(schema: xmlschema.XMLSchema) -> None:
    assert {"testsuites", "testsuite", "testcase", "failure", "error"} <= set(schema.elements)
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        schema.validate('<testsuites><testsuite name="x"/></testsuites>')  # tests, failures, errors required


def test_sample_run(schema: xmlschema.XMLSchema) -> None:
    suite = _valid(schema, render(sample_run(), "junit")).find("testsuite")
    assert suite is not None and suite.get("name") == "sgcheck replay"
    game, clean = suite.findall("testcase")
    assert (game.get("name"), clean.get("name")) == (GAME, CLEAN)
    (failure,) = game.findall("failure")
    assert failure.get("type") == "SG-R204"
    assert failure.get("message", "").startswith("SG-R204 wrong claim: d100 roll 61 misses")
    assert failure.get("message", "").endswith("(and 3 more errors)")
    text = failure.text or ""
    assert text.startswith(f"{GAME}:12:5: SG-R204 wrong claim")
    assert "   turn 7 · White · Battle\n" in text
    assert "   hint: a roll hits only when it is at most the threshold" in text
    assert text.count(f"{GAME}:") == 4  # every error, one block each
    out = game.findtext("system-out") or ""
    assert "SG-N301 warning: card 'Blood Moon'" in out and "SG-N303 note:" in out
    assert "result: * (game unfinished)" in out  # the replay summary
    assert list(clean) == []
    properties = suite.find("properties")
    assert properties is not None and properties[0].attrib == {"name": "sgcheck.version", "value": "0.1.0"}


def test_clean_run_and_empty_run(schema: xmlschema.XMLSchema) -> None:
    _valid(schema, render(clean_run(), "junit"))
    root = _valid(schema, render(Run("check", ()), "junit"))
    assert root.get("tests") == "0"


def test_warnings_alone_pass() -> None:
    warning = Diagnostic("SG-N301", Severity.WARNING, "card counted")
    root = ET.fromstring(render(Run("replay", (FileResult("g.sglog", (warning,)),)), "junit"))
    case = root.find("testsuite/testcase")
    assert case is not None and case.find("failure") is None
    assert root.get("failures") == "0"
    assert case.findtext("system-out") == "g.sglog: SG-N301 warning: card counted\n"


def test_user_text_is_escaped_and_forbidden_characters_replaced(schema: xmlschema.XMLSchema) -> None:
    nasty = "card <Moon> & 'Sun' \"x\" ]]> done\x01\x1b[31m\x0b\ufffe"
    diagnostic = Diagnostic(
        "SG-C001",
        Severity.ERROR,
        nasty,
        Span("cards/<&>.sgcard", 2, 3, 2, 9),
        hint="use <b> & ]]> \x00 carefully",
        fix=Fix("replace", "a\tb\x07"),
        context=(("card", 'spell "]]>\x02"'),),
    )
    suppressed = Suppressed(
        Diagnostic("SG-C002", Severity.ERROR, "quiet <&>\x03"), "reason ]]> & <\x04", Span.point("cards/<&>.sgcard", 1)
    )
    run = Run("check", (FileResult("cards/<&>.sgcard", (diagnostic,), suppressed=(suppressed,)),), tool_version="0.1.0")
    document = render(run, "junit")
    root = _valid(schema, document)
    assert "]]>" not in document and "<Moon>" not in document
    assert not any(ord(c) < 0x20 and c not in "\t\n\r" for c in document)
    case = root.find("testsuite/testcase")
    assert case is not None and case.get("name") == "cards/<&>.sgcard"
    failure = case.find("failure")
    assert failure is not None
    shown = "card <Moon> & 'Sun' \"x\" ]]> done\u2401\u241b[31m\u240b\ufffd"
    assert failure.get("message") == f"SG-C001 {shown}"
    assert (failure.text or "").startswith(f"cards/<&>.sgcard:2:3: SG-C001 {shown}\n")
    assert "   hint: use <b> & ]]> \u2400 carefully" in (failure.text or "")
    assert '   card: spell "]]>\u2402"' in (failure.text or "")
    out = case.findtext("system-out") or ""
    assert "suppressed: cards/<&>.sgcard: SG-C002 quiet <&>\u2403" in out
    assert "reason: reason ]]> & <\u2404 (at cards/<&>.sgcard:1:1)" in out


def test_xml_text_keeps_what_xml_allows() -> None:
    allowed = "tab\there\nline\r é 中 \U0001f0a1 \x7f \x85"
    assert xml_text(allowed) == allowed
    assert xml_text("\x00\x08\x0c\x1f\ud800\uffff") == "\u2400\u2408\u240c\u241f\ufffd\ufffd"


def test_a_file_that_could_not_be_checked_is_an_error(schema: xmlschema.XMLSchema) -> None:
    unreadable = Diagnostic("SG-P008", Severity.ERROR, "cannot read: Permission denied", Span.point("b.sglog"))
    failed = Diagnostic("SG-X001", Severity.ERROR, "internal error", Span.point("c.sglog"))
    wrong = Diagnostic("SG-R201", Severity.ERROR, "wrong cost", Span("d.sglog", 3, 1, 3, 5))
    files = (
        FileResult("b.sglog", (unreadable,)),
        FileResult("c.sglog", (failed,)),
        FileResult("d.sglog", (wrong,)),
        FileResult("e.sglog", ()),
    )
    root = _valid(schema, render(Run("replay", files), "junit"))
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "2")
    b, c, d, e = root.findall("testsuite/testcase")
    error = b.find("error")
    assert error is not None and error.get("type") == "SG-P008"
    assert error.get("message") == "SG-P008 cannot read: Permission denied"
    assert c.find("error") is not None and d.find("failure") is not None and list(e) == []


def test_not_checked_codes_are_those_that_exit_2() -> None:
    assert NOT_CHECKED == IO_ERROR_CODES


# --- real runs through the command line ---------------------------------------------------------


@pytest.fixture
def cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "a.sgcard").write_text(CARDS, encoding="utf-8")
    (tmp_path / "cards" / "b.sgcard").write_text(CLEAN_CARDS, encoding="utf-8")
    return tmp_path / "cards"


def test_check_with_findings_and_a_suppression(schema: xmlschema.XMLSchema, cards: Path) -> None:
    code, output = _cli("check", "cards/a.sgcard", "cards/b.sgcard", "--isolated")
    assert code == 1
    root = _valid(schema, output)
    assert root.find("testsuite[@name='sgcheck check']") is not None
    a, b = root.findall("testsuite/testcase")
    assert a.get("name") == "cards/a.sgcard" and b.get("name") == "cards/b.sgcard"
    failure = a.find("failure")
    assert failure is not None and failure.get("type") == "SG-C001"
    assert (failure.text or "").startswith("cards/a.sgcard:1:37: SG-C001 'Rook Promotion' rewrites")
    assert "suppressed: cards/a.sgcard:3:35: SG-C002" in (a.findtext("system-out") or "")
    assert "reason: the volley is a prototype (at cards/a.sgcard:2:1)" in (a.findtext("system-out") or "")
    assert b.find("failure") is None
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "1", "0")


def test_check_of_clean_cards(schema: xmlschema.XMLSchema, cards: Path) -> None:
    code, output = _cli("check", "cards/b.sgcard", "--isolated")
    assert code == 0
    assert _valid(schema, output).get("failures") == "0"


def test_output_is_byte_identical_across_runs_and_equals_render(cards: Path) -> None:
    first = _cli("check", "cards", "--isolated")
    assert _cli("check", "cards", "--isolated") == first
    assert render(check_paths(["cards"], Config()), "junit") == first[1]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_an_unreadable_input_is_an_error_in_both_commands(schema: xmlschema.XMLSchema, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.sglog")
    os.mkfifo(tmp_path / "pipe.sgcard")
    code, output = _cli("replay", str(tmp_path / "pipe.sglog"), str(LEGAL_LOG))
    assert code == 2
    root = _valid(schema, output)
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "0", "1")
    error = root.find("testsuite/testcase/error")
    assert error is not None and error.get("type") == "SG-P008"
    code, output = _cli("check", str(tmp_path / "pipe.sgcard"), "--isolated")
    assert code == 2
    root = _valid(schema, output)
    assert root.get("errors") == "1"


def test_replay_of_logs(schema: xmlschema.XMLSchema, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    for name in ("wrong-hit.sglog", "wrong-cost.sglog"):
        shutil.copy(BROKEN_LOGS / name, tmp_path / "games" / name)
    shutil.copy(LEGAL_LOG, tmp_path / "games" / "legal.sglog")
    code, output = _cli("replay", "games", "--jobs", "2")
    assert code == 1
    assert _cli("replay", "games", "--jobs", "1") == (code, output)  # the same bytes, however run
    root = _valid(schema, output)
    assert root.find("testsuite[@name='sgcheck replay']") is not None
    cases = {case.get("name"): case for case in root.findall("testsuite/testcase")}
    assert set(cases) == {"games/legal.sglog", "games/wrong-cost.sglog", "games/wrong-hit.sglog"}
    hit = cases["games/wrong-hit.sglog"].find("failure")
    assert hit is not None and hit.get("type") == "SG-R204"
    assert "legal so far" in (cases["games/legal.sglog"].findtext("system-out") or "")
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "2", "0")


def test_the_catalogue_run_renders(schema: xmlschema.XMLSchema) -> None:
    """Every code of the catalogue, once: whatever a message holds, the document stays valid."""
    findings = tuple(Diagnostic(code, info.severity, info.explanation) for code, info in CATALOGUE.items())
    _valid(schema, render(Run("check", (FileResult("all.sgcard", findings),), rules=CATALOGUE), "junit"))
