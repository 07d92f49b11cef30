"""``sgcheck fmt`` on ``.sgcard`` files: idempotent, the same cards, every comment kept in its card.

Generated cards (``tests/cardgen.py``) are written in other layouts (a card on one line, clauses
in another order, other indentation) with ``#`` comments added at line ends and on lines of their
own; formatting must format to itself, read into the same cards and keep every comment inside
the card it was in, so that ``# sgcheck: ignore`` comments keep silencing what they silenced.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sgcheck.contract.checker import check_paths
from sgcheck.lang.cards.format_cards import card_comments, format_card_text
from sgcheck.lang.cards.parser import parse_cards
from sgcheck.lang.formatting import comment_texts, shape
from tests.cardgen import cards

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_CARDS = sorted((ROOT / "examples").rglob("*.sgcard"))


def check_format(text: str) -> str:
    out = format_card_text(text, "t.sgcard")
    assert isinstance(out, str), out
    assert format_card_text(out, "t.sgcard") == out, "not idempotent"
    assert shape(parse_cards(out, "t.sgcard").cards) == shape(parse_cards(text, "t.sgcard").cards)
    assert sorted(comment_texts(card_comments(out))) == sorted(comment_texts(card_comments(text)))
    return out


def relaid(text: str, rng: random.Random) -> str:
    """A card as people write it: odd indentation, clauses run together, comments anywhere."""
    lines = text.splitlines()
    out = []
    for number, line in enumerate(lines):
        line = " " * rng.randint(0, 6) + line.strip()
        if rng.random() < 0.3:
            line += f"   # note {number}"
        out.append(line)
        if rng.random() < 0.2:
            out.append(f"{' ' * rng.randint(0, 4)}# own line {number}")
        if rng.random() < 0.1:
            out.append("")
    joined = "\n".join(out)
    if "#" not in joined and rng.random() < 0.5:
        joined = joined.replace("\n", " ")  # the whole card on one line
    return joined + "\n"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cards(), min_size=1, max_size=4), st.integers(0, 1000))
def test_generated_cards(sources: list[str], seed: int) -> None:
    rng = random.Random(seed)
    text = ("\n" if rng.random() < 0.5 else "\n# between\n").join(relaid(s, rng) for s in sources)
    check_format(text)


def _codes(path: Path) -> tuple[list[str], list[str]]:
    run = check_paths([str(path)])
    found = sorted(d.code for f in run.files for d in f.diagnostics)
    quiet = sorted(q.diagnostic.code for f in run.files for q in f.suppressed)
    return found, quiet


@pytest.mark.parametrize("path", EXAMPLE_CARDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_keep_cards_and_findings(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = format_card_text(text, str(path))
    if not isinstance(out, str):
        assert path.name in {"syntax.sgcard", "missing-colon.sgcard"} and out  # the shipped syntax errors
        return
    check_format(text)
    copy = tmp_path / path.name
    copy.write_text(out, encoding="utf-8")
    original = tmp_path / "original" / path.name
    original.parent.mkdir()
    original.write_text(text, encoding="utf-8")
    assert _codes(copy) == _codes(original)


def test_layout_and_comments() -> None:
    text = (
        "# file\n"
        'relic "A"   passive { # after brace\n'
        "  effect gain 1 SP # c1\n"
        "  cost 3 # in cost\n"
        "  SP\n"
        "  # sgcheck: ignore SG-C092 -- inside\n"
        "} # after close\n"
        "# sgcheck: ignore SG-C093 -- before B\n"
        'spell "B" {effect steal 2 SP text "x#y" phase main1}\n'
    )
    assert format_card_text(text) == (
        "# file\n"
        'relic "A" passive {  # after brace\n'
        "    cost 3 SP  # in cost\n"
        "    effect gain 1 SP  # c1\n"
        "    # sgcheck: ignore SG-C092 -- inside\n"
        "}  # after close\n"
        "\n"
        "# sgcheck: ignore SG-C093 -- before B\n"
        'spell "B" {\n'
        "    phase main1\n"
        '    text "x#y"\n'
        "    effect steal 2 SP\n"
        "}\n"
    )


def test_syntax_errors_are_returned() -> None:
    out = format_card_text('relic "A" { effect to_hit }\n', "t.sgcard")
    assert isinstance(out, list) and out[0].code.startswith("SG-P02")


def test_comment_only_file() -> None:
    assert format_card_text("# nothing yet\n\n\n# more\n") == "# nothing yet\n\n# more\n"
