"""``sgcheck dice next`` as a typed result (sgcheck.replay.dice_next) spelled by the report layer:
the text and the JSON of the registry say the same rolls, the ones the protocol derives
(docs/dice.md), and the command offers the registry's formats for it."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sgcheck.cli import main
from sgcheck.core import dice
from sgcheck.replay.dice_next import NextRolls, PurposeRoll, PurposeRolls, RollReadings, next_rolls, purpose_rolls
from sgcheck.report import render
from sgcheck.report.formats import ResultKind, kind_of, names_for

WHITE = bytes(range(32))
BLACK = bytes(range(32, 64))
COMMITS = {"White": dice.commitment(WHITE), "Black": dice.commitment(BLACK)}
#: each side's key of rolls 0 to 15 (a secret is the key of the last roll: docs/dice.md)
CHAINS = {
    side: {i: dice.roll_key(secret, i) for i in range(16)} for side, secret in (("White", WHITE), ("Black", BLACK))
}


def faces(text: str) -> list[int]:
    return [int(n) for n in text.split()]


@settings(deadline=None, max_examples=20)
@given(first=st.integers(0, 12), count=st.integers(1, 4), game=st.text(min_size=1, max_size=12))
def test_every_reading_of_a_roll_says_the_same_in_text_and_json(first: int, count: int, game: str) -> None:
    rolls = next_rolls(game, COMMITS, CHAINS, range(first, first + count))
    assert kind_of(rolls) is ResultKind.DICE_NEXT
    document = json.loads(render(rolls, "json"))
    assert document["protocol"] == dice.PROTOCOL and document["game_id"] == game
    lines = render(rolls, "text").splitlines()
    assert len(lines) == len(document["rolls"]) == count
    pattern = r"roll (\d+): attack ([\d ]+) · break/repair ([\d ]+) · rolloff white ([\d ]+) black ([\d ]+)"
    for line, roll in zip(lines, document["rolls"], strict=True):
        found = re.fullmatch(pattern, line)
        assert found is not None, line
        index, d10, d6, white, black = found.groups()
        assert int(index) == roll["roll"]
        assert faces(d10) == roll["d10"] and faces(d6) == roll["d6"]
        assert faces(white) == roll["rolloff"]["white"] and faces(black) == roll["rolloff"]["black"]
        assert len(roll["d10"]) == 2 and all(0 <= f <= 9 for f in roll["d10"])  # two d10 (core §4.2)
        assert len(roll["d6"]) == 3 and all(1 <= f <= 6 for f in roll["d6"])  # three d6 (core §6)


@pytest.mark.parametrize("aim", ["rolloff", "attack a3 a5", "reroll a3 a5", "advantage h8 a1", "break white"])
def test_a_purposes_rolls_say_the_same_in_text_and_json(aim: str) -> None:
    rolls = purpose_rolls("test-game-1", COMMITS, CHAINS, range(0, 3), aim)
    document = json.loads(render(rolls, "json"))
    assert document["protocol"] == dice.PROTOCOL_V2 and document["purpose"] == aim
    for line, roll in zip(render(rolls, "text").splitlines(), document["rolls"], strict=True):
        head, shown = line.split(": ", 1)
        assert head == f"roll {roll['roll']} ({aim})"
        if aim == "rolloff":
            white, black = re.fullmatch(r"white ([\d ]+) black ([\d ]+)", shown).groups()  # type: ignore[union-attr]
            assert {"white": faces(white), "black": faces(black)} == roll["dice"]
        else:
            assert faces(shown) == roll["dice"]


def test_the_records_are_spelled_as_the_protocol_writes_them() -> None:
    """The text and JSON of hand-built records: one line a roll, the purpose's dice."""
    v1 = NextRolls("sg-dice-v1", "g", (RollReadings(3, (7, 6), (2, 5, 1), (1, 2, 3), (2, 5, 1)),))
    assert render(v1, "text") == "roll 3: attack 7 6 · break/repair 2 5 1 · rolloff white 1 2 3 black 2 5 1\n"
    v2 = PurposeRolls("sg-dice-v2", "g", "rolloff", (PurposeRoll(0, rolloff=((6, 3), (5, 5))),))
    assert render(v2, "text") == "roll 0 (rolloff): white 6 3 black 5 5\n"
    assert json.loads(render(v2, "json"))["rolls"] == [{"roll": 0, "dice": {"white": [6, 3], "black": [5, 5]}}]


def test_the_command_offers_the_registrys_formats() -> None:
    assert names_for(ResultKind.DICE_NEXT) == ("text", "json")
    with pytest.raises(ValueError, match="does not render"):
        render(next_rolls("g", COMMITS, CHAINS, range(1)), "html")
    args = ["dice", "next", "--game-id", "g", "--white-commit", COMMITS["White"].hex()]
    args += ["--black-commit", COMMITS["Black"].hex(), "--white", WHITE.hex(), "--black", BLACK.hex(), "--from", "0"]
    refused = CliRunner().invoke(main, [*args, "--format", "sarif"])
    assert refused.exit_code == 2 and "'text'" in refused.output
    shown = CliRunner().invoke(main, [*args, "--format", "json"])
    assert shown.exit_code == 0
    assert shown.output == render(next_rolls("g", COMMITS, CHAINS, range(1)), "json")
