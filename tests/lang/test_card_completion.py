"""The card words an editor completes (sgcheck.lang.cards.completion, Lark's interactive parser)
against the card parser's own driver (sgcheck.lang.cards.lalr): after every word of every
shipped card, a word of the language is offered exactly when the driver reads it there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgcheck.core.parameters import PARAMETERS
from sgcheck.lang.cards.completion import words_after
from sgcheck.lang.cards.lalr import END, ParseError, ScanError
from sgcheck.lang.cards.parser import card_tables, grammar_words
from sgcheck.lang.cards.vocab import PHASE_WORDS, PIECE_CLASS_WORDS

ROOT = Path(__file__).resolve().parents[2]
CARD_FILES = sorted((ROOT / "examples").rglob("*.sgcard"))
#: Every word the language spells: each quoted in grammar/sgcard.lark, and the vocabulary tables.
UNIVERSE = sorted(
    {
        *re.findall(r'"([^"\s]+)"', (ROOT / "grammar" / "sgcard.lark").read_text(encoding="utf-8")),
        *grammar_words(),
        *PHASE_WORDS,
        *PIECE_CLASS_WORDS,
        *PARAMETERS,
        *("kings", "piece", "SP", "LP", "sp"),
        *(
            form
            for verb in ("move", "attack", "summon", "teleport", "activation", "break", "repair")
            for form in (verb, f"{verb}s")
        ),
    }
)


#: Other spellings the parser takes of words offered as the docs write them (``King``, ``SP``).
VARIANTS = {
    *(form for kind in ("king", "queen", "rook", "bishop", "knight", "pawn") for form in (kind, f"{kind}s")),
    "piece",
    "sp",
    "lp",
}


def driver_reads(text: str) -> bool:
    """Whether the card parser's driver reads all of ``text`` (the card may end too early)."""
    try:
        card_tables().parse(text)
    except ParseError as error:
        return error.token.type == END
    except ScanError:
        return False
    except Exception:  # the builder refuses a whole card it read (a structure error): it was read
        return True
    return True


def prefixes() -> list[str]:
    """The text of each shipped card up to each of its words (and after its closing brace)."""
    found: list[str] = []
    for path in CARD_FILES:
        text = path.read_text(encoding="utf-8")
        for block in re.split(r"(?m)^(?=relic\b|spell\b)", text):
            if not block.startswith(("relic", "spell")):
                continue
            block = re.sub(r"#[^\n]*", "", block)
            words = list(re.finditer(r'"(?:[^"\\\n]|\\.)*"|[^\s"]+', block))
            found += [block[: match.end()] + " " for match in words[1:]]
    return found[:: max(1, len(found) // 150)]


def test_the_shipped_cards_are_read() -> None:
    assert len(prefixes()) >= 100


@pytest.mark.parametrize("prefix", prefixes())
def test_offered_exactly_when_the_driver_reads_it(prefix: str) -> None:
    offered = {found.word for found in words_after(prefix)}
    if driver_reads(prefix) and prefix.rstrip().endswith("}"):
        assert offered == set()  # the card is whole, and another one starts a line
        assert {found.word for found in words_after(prefix + "\n")} == {"relic", "spell"}
        return
    read = {word for word in UNIVERSE if driver_reads(f"{prefix}{word} ")}
    assert offered <= read, (prefix[-60:], sorted(offered - read))  # nothing the parser refuses
    if driver_reads(f"{prefix}zzzq "):  # any word goes here (a core parameter, a phase's own name)
        return
    assert read - offered <= VARIANTS, (prefix[-60:], sorted(read - offered - VARIANTS))  # all but spellings


def test_after_effect_only_actions_and_triggers() -> None:
    """The issue's example: after ``effect`` the grammar takes a trigger or an action, never
    another clause's keyword (docs/cards.md)."""
    offered = {found.word for found in words_after('spell "Owl" {\n    cost 2 SP\n    effect ')}
    assert {"gain", "steal", "to_hit", "on", "at", "extra", "reroll"} <= offered
    assert not offered & {"phase", "text", "effect", "cost 2", "passive", "relic", "}"}


@pytest.mark.parametrize(
    "text",
    [
        'relic "X" { text "half a na',  # inside a quoted name
        'relic "X" { # a comment, eff',  # inside a comment
        'relic "X" { bless ',  # after a word the grammar refuses
        "\x00\x01{{{",
        'relic "' + "a" * 5000,
        "effect " * 2000,
    ],
)
def test_nothing_where_nothing_can_be_written(text: str) -> None:
    assert words_after(text) == ()
