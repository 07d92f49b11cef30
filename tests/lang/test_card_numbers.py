"""Numbers in cards: at most MAX_NUMBER_DIGITS digits in both card formats, reported as SG-P023.

Python refuses to convert integers of 4,300 decimal digits and more (and hexadecimal YAML
integers convert into numbers it cannot print), so a YAML card file with such a number used to
crash the check, schema messages that echo the value included. Now a YAML integer with too many
digits is kept as its text, reported like the .sgcard language reports it, and never converted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.contract import check_paths
from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.cards.yaml_loader import load_card_yaml

GOOD = "  - {kind: spell, name: Good, cost: 1, phase: main1, effects: [{gain: {amount: 1, resource: SP}}]}\n"


def yaml_card(cost: str, name: str = "Big") -> str:
    return f"cards:\n  - kind: spell\n    name: {name}\n    cost: {cost}\n    phase: main1\n" + (
        "    effects: [{gain: {amount: 1, resource: SP}}]\n"
    )


@pytest.mark.parametrize(
    ("written", "shown", "digits"),
    [
        ("1" * (MAX_NUMBER_DIGITS + 1), "1111111111", MAX_NUMBER_DIGITS + 1),
        ("9" * 5000, "999999999999…", 5000),
        ("-" + "9" * 5000, "-99999999999…", 5000),
        ("0x" + "f" * 5000, "0xffffffffff…", 5000),
        ("1_000_000_000", "1_000_000_00…", 10),
    ],
    ids=["ten-digits", "5000-digits", "negative", "hexadecimal", "underscores"],
)
def test_a_long_yaml_integer_is_sg_p023_and_the_other_cards_load(written: str, shown: str, digits: int) -> None:
    text = yaml_card(written) + GOOD
    loaded = load_card_yaml(text, "c.yaml")
    assert [card.name for card in loaded.cards] == ["Good"]
    (finding,) = loaded.diagnostics
    assert finding.code == "SG-P023"
    assert finding.message == f"number {shown} has {digits:,} digits; at most {MAX_NUMBER_DIGITS}"
    assert finding.span is not None and (finding.span.line, finding.span.column) == (4, 11)
    assert dict(finding.context) == {"card": "Big"}


def test_the_sgcard_language_reports_long_numbers_in_the_same_words() -> None:
    parsed = parse_cards('spell "Big" { cost ' + "9" * 5000 + " SP effect gain 1 SP }\n", "c.sgcard")
    (finding,) = parsed.diagnostics
    assert finding.code == "SG-P023"
    assert finding.message == f"number 999999999999… has 5,000 digits; at most {MAX_NUMBER_DIGITS}"


def test_nine_digit_yaml_integers_are_still_numbers() -> None:
    loaded = load_card_yaml(yaml_card("999999999"), "c.yaml")
    assert not loaded.diagnostics
    (card,) = loaded.cards
    assert card.cost is not None and card.cost.items[0].amount == 999_999_999


def test_a_long_number_shared_through_an_alias_spoils_every_card_using_it() -> None:
    text = "cards:\n  - &big " + "9" * 5000 + "\n  - *big\n" + GOOD
    loaded = load_card_yaml(text, "c.yaml")
    assert [card.name for card in loaded.cards] == ["Good"]
    (finding,) = loaded.diagnostics  # one finding for the one number
    assert finding.code == "SG-P023" and dict(finding.context) == {"card": "#1"}


def test_a_long_number_as_a_card_name_or_a_key_does_not_crash() -> None:
    named = load_card_yaml(yaml_card("1", name="0x" + "a" * 5000), "c.yaml")
    assert [d.code for d in named.diagnostics] == ["SG-P023"]
    assert dict(named.diagnostics[0].context) == {"card": "#1"}
    keyed = load_card_yaml("? 0x" + "a" * 5000 + "\n: 1\ncards: []\n", "c.yaml")
    assert keyed.diagnostics and all(d.code == "SG-P027" for d in keyed.diagnostics)


def test_schema_messages_never_echo_a_whole_long_number(tmp_path: Path) -> None:
    """A pack manifest is validated by its schema too; its messages quote at most the number's start."""
    (tmp_path / "sgpack.yaml").write_text(
        "name: demo\nversion: 1.0.0\ndraft: {draw: 0x" + "f" * 5000 + "}\ncards:\n  - a.sgcard\n", encoding="utf-8"
    )
    (tmp_path / "a.sgcard").write_text('spell "X" { cost 1 SP phase main1 effect gain 1 SP }\n', encoding="utf-8")
    run = check_paths([str(tmp_path)])
    (finding,) = [d for d in run.diagnostics if d.code == "SG-C201"]
    assert "'0xffffffffff…'" in finding.message and len(finding.message) < 200


def test_check_reports_a_huge_yaml_number_as_a_finding(tmp_path: Path) -> None:
    card = tmp_path / "big.sgcard.yaml"
    card.write_text(yaml_card("0x" + "f" * 5000), encoding="utf-8")
    run = CliRunner().invoke(main, ["check", str(card)])
    assert run.exit_code == 1, run.output
    assert "SG-P023" in run.output and "internal error" not in run.output
