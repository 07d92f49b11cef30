"""Ruling CR3 in replay (docs/contract-rules.md, "Readings"; core §8: no unbounded SP or LP).

A pool fed again and again by an amount read from the holder's own pool, directly or through the
same player's other gains, compounds turn after turn: replay reports SG-R136 at the action where a
gain of such a cycle first makes the pool grow, whoever's turn it is. A gain that cannot come
again without a bound per game (a Spell, a passive Relic's own effect, ``limit N per game``), one
that stops at a level, a bounded income, and a cycle the same card empties again and again are
never reported, however many turns are played.

The games are long enough for each legal twin to act many times (six turns of each player), and
each pack is replayed with ``--allow-violations`` so that a pack `sgcheck check` refuses is still
played to the watch.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.source import read_source
from sgcheck.replay.interpreter import ReplayOptions, replay_source

SCENARIO = """name: compounding
white:
  sp: {sp}
  lp: {lp}
  pieces: [Ke1, Ra3]
black:
  sp: 0
  pieces: [Ke8, Pa5]
"""

HEADER = '[Event "compounding"]\n[Pack "cards.sgcard"]\n[Scenario "setup.scenario.yaml"]\n\n'


def _turns(first: str, count: int, *, uses: str = "") -> str:
    """White's first turn (``first``), then ``count`` more rounds in which White does ``uses`` (or
    passes) and Black passes."""
    lines = [f"1.   {first}", "1... end: pass"]
    for turn in range(2, count + 2):
        lines.append(f"{turn}.   {uses}" if uses else f"{turn}.   end: pass")
        lines.append(f"{turn}... end: pass")
    return "\n".join(lines) + "\n"


def _growth(tmp_path: Path, cards: str, log: str, *, sp: int = 20, lp: int = 20) -> list[Diagnostic]:
    """The SG-R136 findings of replaying ``log`` with ``cards`` (White holds every card)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "cards.sgcard").write_text(cards, encoding="utf-8")
    kinds = ("relic", "spell")
    names = " ".join(f'"{line.split(chr(34))[1]}"' for line in cards.splitlines() if line.startswith(kinds))
    (tmp_path / "setup.scenario.yaml").write_text(SCENARIO.format(sp=sp, lp=lp), encoding="utf-8")
    path = tmp_path / "game.sglog"
    path.write_text(HEADER + f"draft white {names}\n\n" + log, encoding="utf-8")
    source = read_source(str(path), str(path))
    assert not isinstance(source, Diagnostic), source
    result = replay_source(source, ReplayOptions(allow_violations=True), folder=str(tmp_path))
    refused = [d for d in result.diagnostics if d.is_error]
    assert not refused, [d.message for d in refused]
    return [d for d in result.diagnostics if d.code == "SG-R136"]


def _line_of(tmp_path: Path, text: str) -> int:
    lines = (tmp_path / "game.sglog").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_cr3_a_doubling_at_every_end_is_reported_where_it_first_grows(tmp_path: Path) -> None:
    """core §8, CR3: `at end: gain SP equal to own SP` doubles White's SP at her first End, in the
    window of the hand-over, and the finding names the card and the ruling."""
    cards = 'relic "Doubling" passive { cost 1 SP phase main effect at end: gain SP equal to own SP }\n'
    found = _growth(tmp_path, cards, _turns('main1: play "Doubling"', 3))
    assert found, "a doubling at every End compounds"
    first = found[0]
    assert first.span is not None and first.span.line == _line_of(tmp_path, "1... end: pass")
    assert "CR3" in first.rules and "Doubling" in first.message
    assert "White's SP grew by 19" in first.message  # 20 SP, 1 paid for the card, doubled


def test_cr3_two_cards_feeding_each_other_are_one_cycle(tmp_path: Path) -> None:
    """CR3: LP from SP at every End and SP from LP at every Upkeep, on two cards of one player."""
    cards = (
        'relic "Life Well" passive { cost 1 SP phase main effect at end: gain LP equal to own SP / 2 }\n'
        'relic "Soul Well" passive { cost 1 SP phase main effect at upkeep: gain SP equal to own LP / 2 }\n'
    )
    found = _growth(tmp_path, cards, _turns('main1: play "Life Well"\n     play "Soul Well"', 3))
    assert found
    assert "Life Well" in found[0].message and "Soul Well" in found[0].message


def test_cr3_either_well_alone_feeds_nothing_back(tmp_path: Path) -> None:
    """CR3: LP from SP with nothing turning LP back into SP is no cycle (an income read from SP)."""
    cards = 'relic "Life Well" passive { cost 1 SP phase main effect at end: gain LP equal to own SP / 2 }\n'
    assert _growth(tmp_path, cards, _turns('main1: play "Life Well"', 6)) == []


def test_cr3_an_activated_doubling_is_reported_at_its_use(tmp_path: Path) -> None:
    """CR3: an activated Relic's gain comes again at each use (R17: twice a turn), with no limit per game."""
    cards = 'relic "Mirror" activated { cost 1 SP phase main1 effect gain SP equal to own SP }\n'
    found = _growth(tmp_path, cards, _turns('main1: play "Mirror"\n     activate "Mirror"', 2))
    assert found
    assert found[0].span is not None and found[0].span.line == _line_of(tmp_path, 'activate "Mirror"')


@pytest.mark.parametrize(
    ("why", "cards", "first", "uses"),
    [
        (
            "a doubling limited to once a game multiplies SP by 2 at most",
            'relic "Windfall" activated { cost 1 SP phase main1 effect gain SP equal to own SP limit 1 per game }\n',
            'main1: play "Windfall"\n     activate "Windfall"',
            "",
        ),
        (
            "a Spell acts once",
            'spell "Mirror Spell" { cost 1 SP phase main1 effect gain SP equal to own SP }\n',
            'main1: play "Mirror Spell"',
            "",
        ),
        (
            "a passive Relic's own effect acts once, when it is played",
            'relic "Once" passive { cost 1 SP phase main effect gain SP equal to own SP }\n',
            'main1: play "Once"',
            "",
        ),
        (
            "a gain that stops at 20 SP",
            'relic "Shallow" passive { cost 1 SP phase main effect at end: gain SP equal to own SP / 2 '
            "when own SP < 20 }\n",
            'main1: play "Shallow"',
            "",
        ),
        (
            "a fixed income every turn, like the core's own",
            'relic "Spring" passive { cost 1 SP phase main effect at end: gain 4 SP }\n',
            'main1: play "Spring"',
            "",
        ),
        (
            "the same card empties the pool at every Upkeep",
            'relic "Ebb" passive { cost 1 SP phase main effect at end: gain SP equal to own SP '
            "effect at upkeep: lose SP equal to own SP }\n",
            'main1: play "Ebb"',
            "",
        ),
    ],
)
def test_cr3_what_cannot_compound_is_never_reported(
    tmp_path: Path, why: str, cards: str, first: str, uses: str
) -> None:
    """CR3 (1)-(3): legal twins of the compounding cards stay silent over six turns of each player."""
    assert _growth(tmp_path, cards, _turns(first, 6, uses=uses)) == [], why


def test_cr3_a_share_that_adds_nothing_yet_is_not_reported_until_it_adds(tmp_path: Path) -> None:
    """CR3: `gain SP equal to own SP / 100` adds nothing below 100 SP, so a fixed income beside it
    growing the pool is not yet the cycle's growth; from 100 SP on it compounds, and is reported."""
    cards = (
        'relic "Spring" passive { cost 1 SP phase main effect at end: gain 4 SP }\n'
        'relic "Slow Mirror" passive { cost 1 SP phase main effect at end: gain SP equal to own SP / 100 }\n'
    )
    assert _growth(tmp_path / "poor", cards, _turns('main1: play "Spring"\n     play "Slow Mirror"', 3)) == []
    rich = _growth(tmp_path / "rich", cards, _turns('main1: play "Spring"\n     play "Slow Mirror"', 1), sp=300)
    assert rich and "Slow Mirror" in rich[0].message
