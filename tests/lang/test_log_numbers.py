"""Numbers that no game needs: SG-P012 where they are written, in every reader, never a crash.

A number in a log has at most MAX_NUMBER_DIGITS (9) digits (docs/log-format.md, docs/limits.md).
A longer one, even one past the 4,300 digits Python's int() and str() refuse, is reported at its
line and column, with the same finding whichever reader met it: the grammar alone, or the line
reader (lang/logs/reader.py), which hands the turn to the grammar. Settings ([TurnLimit], [Ruleset],
--ruleset, a pack's ruleset) take ASCII digits only: '²' passes str.isdigit() but is no number.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.contract import check_paths
from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.core.ruleset import RulesetError, parse_ruleset
from sgcheck.lang.logs.grammar import LogSyntaxError, grammar_items
from sgcheck.lang.logs.reader import iter_log, read_log
from sgcheck.lang.source import SourceText
from sgcheck.replay.interpreter import replay_text
from tests.readers import by_grammar

KINGS = "king white e1\nking black e8\n"

#: Every place a log holds a number; ``{n}`` marks it (the line it is on is the last one).
PLACES = {
    "white-turn": KINGS + "{n}. end: pass\n",
    "black-turn": KINGS + "1. end: pass\n{n}... end: pass\n",
    "cost": KINGS + "1. upkeep: summon Q d1 cost {n}\n",
    "lp": KINGS + "1. end: pass lp {n}\n",
    "sp": KINGS + "1. end: pass sp {n}\n",
    "threshold": KINGS + "1. battle: attack Ra1 a2 roll 1 2 threshold {n}\n",
    "damage": KINGS + "1. battle: attack Ra1 a2 roll 1 2 hit damage {n}\n",
    "king-damage": KINGS + "1. battle: attack Ra1 a2 roll 1 2 hit king-damage {n}\n",
    "pay": KINGS + "1. upkeep: summon Q d1 pay {n}sp\n",
    "pay-second": KINGS + "1. upkeep: summon Q d1 pay 4sp {n}lp\n",
    "gain": KINGS + "1. end: pass gain {n}lp\n",
    "convert": KINGS + "1. main2: convert {n}\n",
    "income": KINGS + "1. upkeep: income {n}\n",
    "accuracy-die": KINGS + "1. battle: attack Ra1 a2 roll {n} 2\n",
    "second-die": KINGS + "1. battle: attack Ra1 a2 roll 1 {n} hit\n",
    "reroll-die": KINGS + "1. battle: attack Ra1 a2 roll 1 2 reroll 3 {n} hit\n",
    "advantage-die": KINGS + "1. battle: attack Ra1 a2 roll 1 2 advantage {n} 4\n",
    "break-die": KINGS + "1. upkeep: break roll 1 {n} 3\n",
    "rolloff-die": "rolloff white 1 2 {n} black 1 2 3\n" + KINGS,
    "brace-comment": "{ a comment: the grammar reads this log }\n" + KINGS + "1. end: pass lp {n}\n",
}
LENGTHS = [MAX_NUMBER_DIGITS + 1, 4_301, 5_000]


def _where(template: str, number: str) -> tuple[int, int]:
    text = template.replace("{n}", number)
    before = text[: template.index("{n}")]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def _read(items: object) -> tuple[list[object], LogSyntaxError | None]:
    out: list[object] = []
    try:
        for item in items:  # type: ignore[attr-defined]
            out.append(item)
    except LogSyntaxError as exc:
        return out, exc
    return out, None


@pytest.mark.parametrize("digits", LENGTHS)
@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_long_number_is_sg_p012_at_its_position_in_every_reader(place: str, digits: int) -> None:
    number = "7" * digits
    text = PLACES[place].replace("{n}", number)
    source = SourceText("n.sglog", text)
    line, column = _where(PLACES[place], number)

    grammar, grammar_error = _read(grammar_items(source))
    assert grammar_error is not None
    d = grammar_error.diagnostic
    assert d.code == "SG-P012"
    assert d.span is not None and (d.span.line, d.span.column) == (line, column)
    assert d.span.end_column == column + digits  # the digits, not a '.' or 'sp' after them
    assert text[d.span.offset : d.span.end_offset] == number
    shown = number if digits <= 12 else number[:12] + "…"
    assert d.message == f"number {shown} has {digits:,} digits; at most {MAX_NUMBER_DIGITS}"
    assert d.label == "number too long"

    for reader in (iter_log, read_log):  # the line reader, with or without syntax trees: the same finding
        items, error = _read(reader(source))
        assert error is not None and error.diagnostic == d
        assert len(items) == len(grammar)

    for result in (replay_text(text, "n.sglog"), by_grammar(text, "n.sglog")):  # one finding, no crash
        assert result.diagnostics[-1] == d
        assert all(x.code != "SG-X001" for x in result.diagnostics)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_nine_digits_are_still_read(place: str) -> None:
    """The limit is inclusive: a 9-digit number is read (replay decides whether it makes sense)."""
    text = PLACES[place].replace("{n}", "1" * MAX_NUMBER_DIGITS)
    _items, error = _read(iter_log(SourceText("n.sglog", text)))
    assert error is None
    quick = replay_text(text, "n.sglog")
    full = by_grammar(text, "n.sglog")
    assert quick.diagnostics == full.diagnostics
    assert all(d.code != "SG-P012" for d in quick.diagnostics)


def test_the_first_problem_in_the_text_is_reported_first() -> None:
    """A long turn number is reported before a syntax error later in the same turn."""
    text = KINGS + "1234567890. end: pass lp x\n"
    _items, error = _read(iter_log(SourceText("n.sglog", text)))
    assert error is not None and error.diagnostic.code == "SG-P012"
    assert error.diagnostic.span is not None and error.diagnostic.span.column == 1


def test_long_numbers_on_the_command_line_are_findings(tmp_path: Path) -> None:
    """The whole run: a finding with exit 1, never 'internal error' (exit 2), in text and JSON."""
    log = tmp_path / "huge.sglog"
    log.write_text(KINGS + "1. end: pass lp " + "9" * 5000 + "\n", encoding="utf-8")
    other = tmp_path / "other.sglog"
    other.write_text(KINGS + "1. end: pass lp 26\n", encoding="utf-8")
    text = CliRunner().invoke(main, ["replay", str(log), str(other)])
    assert text.exit_code == 1, text.output
    assert "SG-P012" in text.output and "internal error" not in text.output
    assert "number 999999999999… has 5,000 digits; at most 9" in text.output
    run = CliRunner().invoke(main, ["replay", "--format", "json", str(log), str(other)])
    report = json.loads(run.output)
    assert [f["status"] for f in report["files"]] == ["findings", "ok"]
    assert report["files"][0]["diagnostics"][0]["code"] == "SG-P012"


# --- settings: ASCII digits only, and not too many ----------------------------------------------


@pytest.mark.parametrize(
    ("tag", "fragment"),
    [
        ('[TurnLimit "²"]', "turn_limit must be a whole number from 1 to 100000, not '²'"),
        ('[TurnLimit "٣"]', "not '٣'"),  # an Arabic-Indic three: a digit to isdigit(), not to sgcheck
        ('[TurnLimit "' + "9" * 5000 + '"]', "not '999999999999999999999999…'"),
        ('[Ruleset "core; turn_limit=¹"]', "turn_limit must be a whole number"),
        ('[Ruleset "core; king_value=²"]', "king_value must be a whole number from 1 to 9, not '²'"),
        ('[Ruleset "core; king_value=' + "3" * 5000 + '"]', "king_value must be a whole number"),
    ],
    ids=["superscript", "arabic-indic", "5000-digits", "ruleset-turn-limit", "ruleset-king-value", "king-5000"],
)
def test_header_settings_take_ascii_digits_only(tag: str, fragment: str) -> None:
    """SG-P007 at the tag (R09, R18 settings), whichever reader, never a crash."""
    text = tag + "\n" + KINGS + "1. end: pass\n"
    for result in (replay_text(text, "h.sglog"), by_grammar(text, "h.sglog")):
        (error,) = [d for d in result.diagnostics if d.is_error]
        assert error.code == "SG-P007" and fragment in error.message
        assert len(error.message) < 200
        assert error.span is not None and error.span.line == 1


@pytest.mark.parametrize("text", ["king_value=²", "turn_limit=¹", "turn-limit=٣", "king_value=" + "1" * 5000])
def test_ruleset_profiles_refuse_non_ascii_and_long_digits(text: str) -> None:
    with pytest.raises(RulesetError) as caught:
        parse_ruleset(text)
    assert len(str(caught.value)) < 120


def test_ruleset_profiles_still_take_plain_digits() -> None:
    assert parse_ruleset("core; king_value=3; turn_limit=040").turn_limit == 40
    assert parse_ruleset("king_value=3").king_value == 3


@pytest.mark.parametrize("command", ["replay", "check"])
def test_ruleset_option_with_a_superscript_is_a_usage_error(command: str, tmp_path: Path) -> None:
    """--ruleset 'king_value=²' is refused like any bad value: exit 2, a message, no traceback."""
    target = tmp_path / ("g.sglog" if command == "replay" else "c.sgcard")
    target.write_text(KINGS if command == "replay" else 'spell "X" { cost 1 SP effect gain 1 SP }\n', encoding="utf-8")
    run = CliRunner().invoke(main, [command, "--ruleset", "king_value=²", str(target)])
    assert run.exit_code == 2
    assert isinstance(run.exception, SystemExit) and "Traceback" not in run.output
    assert "king_value must be a whole number from 1 to 9, not '²'" in run.output


def test_pack_ruleset_with_a_superscript_is_sg_c205(tmp_path: Path) -> None:
    (tmp_path / "sgpack.yaml").write_text(
        'name: demo\nversion: 1.0.0\nruleset: "core; turn_limit=¹"\ncards:\n  - a.sgcard\n', encoding="utf-8"
    )
    (tmp_path / "a.sgcard").write_text('spell "X" { cost 1 SP phase main1 effect gain 1 SP }\n', encoding="utf-8")
    run = check_paths([str(tmp_path)])
    found = [d for d in run.diagnostics if d.code == "SG-C205"]
    assert found and "turn_limit must be a whole number" in found[0].message


@pytest.mark.parametrize("body", ["1. upkeep: income ²\n", "1. end: pass\n¹... end: pass\n", "1. end: pass lp 2²\n"])
def test_superscript_digits_in_a_log_are_not_numbers(body: str) -> None:
    """'²' is not a digit of the log language (a syntax error, not a number), in every reader."""
    source = SourceText("s.sglog", KINGS + body)
    _items, error = _read(grammar_items(source))
    assert error is not None and error.diagnostic.code in ("SG-P001", "SG-P003")
    for reader in (iter_log, read_log):
        _items, other = _read(reader(source))
        assert other is not None and other.diagnostic == error.diagnostic
