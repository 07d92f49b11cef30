"""Every diagnostic that depends on a ruling names it: in the code catalogue, and on the finding.

``DEPENDS_ON`` is written from the rulings' text (sgcheck/core/rulings.py, docs/rules.md): for
each code, the rulings that decide whether an action or a claim is wrong. The catalogue's
``rules`` must name exactly those rulings; each finding replay emits names the ones that decided
that case (a knight's cost R07, a pawn's reach R08, ...) and never one its code does not list.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sgcheck.codes import CATALOGUE
from sgcheck.core.rulings import BY_ID
from sgcheck.diagnostics import Diagnostic
from sgcheck.lang.logs.writer import format_log
from sgcheck.replay.generate import Claims, Style, generate_game
from sgcheck.replay.interpreter import ReplayOptions, replay_text
from tests.readers import by_grammar

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
KINGS = "king white e1\nking black e8\n"

#: code -> the rulings it depends on, and why (the ruling's own words, shortened).
DEPENDS_ON: dict[str, frozenset[str]] = {
    code: frozenset(rulings)
    for code, rulings in {
        # reading the input decides nothing about the game
        **{code: () for code in CATALOGUE if code.startswith(("SG-P", "SG-X"))},
        "SG-S101": ("R01", "R24"),  # draft, roll-off, Kings, White's first turn; a scenario's Kings are its own
        "SG-S102": ("R01",),  # 3d6 roll-off, ties rerolled, the higher total picks a colour
        "SG-S103": ("R01", "R02", "R24"),  # Kings in their camps; only the Kings on the board, or the scenario's
        "SG-S104": ("R01",),  # both Kings are placed before White's first turn
        "SG-S105": ("R19",),  # keep 3 of 5, hand limit 3
        "SG-S106": ("R19", "R22"),  # the draft keeps cards of the game's pack
        "SG-S107": ("R19",),  # the pack's draft settings; Double Draft must raise the hand limit
        "SG-T101": ("R01",),  # White takes the first turn
        "SG-T102": ("R03",),  # phases strictly in order, never re-entered
        "SG-T103": ("R03", "R14"),  # each action's phase window; income at Upkeep
        "SG-T104": ("R12", "R13", "R15"),  # one Summon, one Teleport, one Break and one Repair
        "SG-T105": ("R17", "R22"),  # at most 2 activations per turn; playing a card is one
        "SG-T106": ("R11", "R18", "R24"),  # conversion at 20 ends the game at once; the turn limit; a scenario's win
        "SG-T107": ("R03",),  # every action belongs to a phase
        "SG-R101": ("R08", "R13"),  # attack an enemy piece on the board; teleport a piece on the board
        "SG-R102": ("R08", "R13"),  # friendly pieces are never targets; teleport your own piece
        "SG-R103": ("R06", "R07", "R09"),  # chess geometry; knight jumps; the King one square
        "SG-R104": ("R06", "R07"),  # clear paths; the square between two jumps empty
        "SG-R105": ("R06", "R12", "R13"),  # moving never captures; summon and teleport onto a free square
        "SG-R106": ("R05",),  # a cost above LP + SP cannot be paid
        "SG-R107": ("R07", "R08"),  # reach along a Move path (a Knight's jumps); pawns diagonally forward
        "SG-R108": ("R09", "R12", "R13"),  # the King cannot attack, be summoned or be teleported
        "SG-R109": ("R12",),  # only your own pieces from your Gem
        "SG-R110": ("R12", "R13"),  # summons and teleports land in your camp
        "SG-R111": ("R12", "R14"),  # no Summon and no income while your Gem is broken
        "SG-R112": ("R15",),  # Break an unbroken enemy Gem; Repair only your broken one
        "SG-R113": ("R16",),  # Main 2, 2 SP for 1 LP, 20 SP a turn
        "SG-R114": ("R01", "R10", "R15"),  # 3d6 roll-off; two d10 accuracy; 3d6 Break and Repair
        "SG-R115": ("R05",),  # a stated payment adds up and is affordable
        # costs: value + distance (R06), knights (R07), attacks (R08), the King (R09), Summon (R12),
        # Teleport (R13), Break and Repair (R15), a card's stated payment (R05, R17)
        "SG-R201": ("R05", "R06", "R07", "R08", "R09", "R12", "R13", "R15", "R17"),
        "SG-R202": ("R09", "R10"),  # thresholds (R10); a King attacks only by the king_value house rule
        # totals: SP first (R05), the Pass bonus (R04), the capture reward (R11), income (R14), conversion (R16)
        "SG-R203": ("R04", "R05", "R11", "R14", "R16"),
        "SG-R204": ("R10",),  # hit when the d100 is at most the threshold
        "SG-R205": ("R11",),  # 1 damage per hit; King damage never clears
        "SG-R206": ("R11",),  # capture at damage >= value this turn; conversion at 20
        "SG-R207": ("R15",),  # Break on 12+, Repair on 10+
        "SG-R208": ("R14",),  # 2 x enemy value in the Gem, none on the first turn or with a broken Gem
        "SG-R209": ("R04",),  # +6 LP only when no action was taken
        "SG-R210": ("R18", "R24"),  # how a game ends, a scenario's win conditions included
        "SG-R211": ("R04", "R11", "R15", "R16"),  # Pass 6 LP; capture 5 x value SP (none with a broken Gem); conversion
        "SG-R120": ("R19", "R22"),  # a card is played by who kept it, once from hand
        "SG-R121": ("R22",),  # a Spell in its phase, a Relic in a Main phase unless it names another
        "SG-R122": ("R17", "R22"),  # each use of an activated Relic in play is one activation
        "SG-R123": ("R19", "R23"),  # no card effect acts on a King or rewrites the core
        "SG-R124": ("R22", "R23"),  # the piece a card acts on
        "SG-R125": ("R20", "R23"),  # one reroll source per roll
        "SG-R126": ("R22", "R23"),  # use limits
        "SG-R127": ("R23",),  # effects in play deny a Repair
        "SG-N304": ("R20",),  # card bonuses summed, then capped
        "SG-N305": ("R20",),  # a prototype pack still plays under the caps
        "SG-N306": ("R04",),  # a refused action is no action for the Pass rule (--keep-going)
        "SG-N301": ("R17", "R19"),  # activations counted; card effects not simulated
        "SG-N302": ("R19",),  # the cards kept in the draft
        "SG-N303": ("R09", "R14"),  # the table choices (house rules)
        # verifiable dice (docs/dice.md): the protocol's own rulings (DR1-DR4), none of R01-R26
        **{code: () for code in CATALOGUE if code.startswith("SG-D")},
        # a scenario's position: squares, armies, markers and win conditions (R24; Wellsprings R26)
        # packs, configuration and suppressions: the files around the cards
        **{code: () for code in ("SG-C201", "SG-C202", "SG-C203", "SG-C204", "SG-C208", "SG-C210")},
        **{code: () for code in ("SG-C220", "SG-C221", "SG-C222")},
        "SG-C205": ("R09", "R14"),  # a ruleset names only the table choices R09 and R14 offer
        "SG-C206": ("R09", "R14"),  # a house rule is one of those table choices
        "SG-C207": ("R19",),  # the draft's draw and keep, and the hand limit
        "SG-C209": ("R19",),  # a draft that can be dealt
        "SG-P033": ("R24",),  # a scenario places pieces on the board, one to a square
        "SG-P034": ("R24",),  # pieces are never created: at most one set a side
        "SG-P035": ("R24", "R26"),  # win conditions on named marker sets (Wellsprings)
        "SG-P036": ("R24",),  # win conditions that can be met; a game that can end
        "SG-P037": ("R24",),  # a scenario that breaks the contract is not played
        # modules (R26): the market's reveals, the module section
        "SG-P038": ("R26",),  # a market deck of the pack's passive Relics; the module schema
        "SG-T108": ("R26",),  # each capture reveals the deck's top card, recorded in the log
        "SG-T109": ("R26",),  # a reveal only after a capture
        "SG-R128": ("R26",),  # the deck's order is fixed before play
        # the contract watched in play (core §8, sgcheck.core.watch)
        "SG-R130": ("R05", "R16"),  # any cost may be paid in SP; the conversion's rate and its 20 SP a turn
        "SG-R131": ("R23",),  # card cost modifiers summed, a cost never below 0
        "SG-R132": ("R20",),  # one reroll or advantage source per accuracy roll
        "SG-R133": (),  # core §6, §8 alone: no repair denial on consecutive turns
        "SG-R134": (),  # core §6, §8 alone: the Break and Repair thresholds
        "SG-R135": ("R19",),  # no card effect may damage a King
        "SG-R136": (),  # core §8 alone: no unbounded SP or LP
        "SG-R137": ("R20",),  # the caps bind every effect, one card's copies together
        "SG-R138": ("R19",),  # card effects change attacks on a King only within the caps
        "SG-R139": (),  # core §2, §6, §7, §8 alone: the turn's phases and the Gem attempts stay usable
    }.items()
}


def rulings_of(rules: tuple[str, ...]) -> set[str]:
    return {r for r in rules if r.startswith("R")}


def test_the_table_covers_every_code_and_names_real_rulings() -> None:
    assert set(DEPENDS_ON) == set(CATALOGUE)
    assert set().union(*DEPENDS_ON.values()) <= set(BY_ID)


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_each_code_names_exactly_the_rulings_it_depends_on(code: str) -> None:
    assert rulings_of(CATALOGUE[code].rules) == DEPENDS_ON[code]


# --- findings on real replays name the ruling that decided them ------------------------------------

PAWNS = "1. upkeep: summon P d2\n1... upkeep: summon P d7\n2. main1: move Pd2 d4\n2... main1: move Pd7 d5\n"
FACING = "1. upkeep: summon P d2\n1... upkeep: summon P e7\n2. main1: move Pd2 d4\n2... main1: move Pe7 e5\n"

#: (log after the Kings, code of the first error, rulings it must name)
CASES = [
    ("1. upkeep: summon N g1\n   main1: move Ng1 f3 cost 4\n", "SG-R201", {"R07"}),
    ("1. upkeep: summon N g1\n   main1: move Ng1 d4 cost 5\n", "SG-R201", {"R07"}),
    ("1. upkeep: summon N g1\n   main1: move Ng1 g4\n", "SG-R103", {"R07"}),
    ("1. main1: move Ke1 e2 cost 2\n", "SG-R201", {"R09"}),
    ("1. main1: move Ke1 e3\n", "SG-R103", {"R09"}),
    ("1. upkeep: summon R a1\n   main1: move Ra1 a3 cost 6\n", "SG-R201", {"R06"}),
    ("1. upkeep: summon P a2\n   main1: move Pa2 b3\n", "SG-R103", {"R06"}),
    (PAWNS + "3. battle: attack Pd4 d5 roll 0 1\n", "SG-R107", {"R08"}),
    (FACING + "3. battle: attack Pd4 e5 roll 0 1 cost 4\n", "SG-R201", {"R08"}),
    (FACING + "3. battle: attack Pd4 e5 roll 0 11\n", "SG-R114", {"R10"}),
    (FACING + "3. battle: attack Pd4 e5 roll 9 9 threshold 30\n", "SG-R202", {"R10"}),
    (FACING + "3. battle: attack Pd4 e5 roll 9 9 hit\n", "SG-R204", {"R10"}),
    (FACING + "3. battle: attack Pd4 e5 roll 0 1 capture gain 4sp\n", "SG-R211", {"R11"}),
    (FACING + "3. battle: attack Pd4 e5 roll 0 1 damage 2\n", "SG-R205", {"R11"}),
    (FACING + "3. battle: attack Pd4 e5 roll 0 1 sp 4\n", "SG-R203", {"R05", "R11"}),
    (FACING + "3. battle: attack Pd4 Pd5 roll 0 1\n", "SG-R101", {"R08"}),
    (FACING + "3. battle: attack Pd4 e1 roll 0 1\n", "SG-R102", {"R08"}),
    ("1. upkeep: summon Q d1 cost 13\n", "SG-R201", {"R12"}),
    ("1. upkeep: summon K d1\n", "SG-R108", {"R09", "R12"}),
    ("1. upkeep: summon Q d8\n", "SG-R110", {"R12"}),
    ("1. upkeep: summon P a2\n   end: teleport Pa2 a3 cost 6\n", "SG-R201", {"R12", "R13"}),
    ("1. end: teleport Ke1 e2\n", "SG-R108", {"R09", "R13"}),
    ("1. end: teleport a2 a3\n", "SG-R101", {"R13"}),
    ("1. upkeep: break roll 1 1 1 cost 21\n", "SG-R201", {"R15"}),
    ("1. upkeep: break roll 1 1 7\n", "SG-R114", {"R15"}),
    ("1. upkeep: break roll 6 6 6 fail\n", "SG-R207", {"R15"}),
    ("1. upkeep: repair roll 6 6 6\n", "SG-R112", {"R15"}),
    ("1. end: pass lp 25\n", "SG-R203", {"R04", "R05"}),
    ("1. end: pass gain 5lp\n", "SG-R211", {"R04"}),
    ("1. upkeep: summon P a2\n   end: pass\n", "SG-R209", {"R04"}),
    ("1. end: pass\n1... end: pass\n2. upkeep: income 2\n", "SG-R208", {"R14"}),
    ("1. end: pass\n1... end: pass\n2. main1: income 0\n", "SG-T103", {"R03", "R14"}),
    ("1. main1: summon Q d1\n", "SG-T103", {"R03"}),
    ("1. end: pass\n1... end: pass\n2. main2: convert 2\n", "SG-R113", {"R16"}),
    ("1. upkeep: summon P a2\n   upkeep: summon P b2\n", "SG-T102", {"R03"}),
    ("1. upkeep: summon P a2 summon P b2\n", "SG-T104", {"R12"}),
    ('1. main1: activate "A" activate "B" activate "C"\n', "SG-T105", {"R17"}),
    ("1... end: pass\n", "SG-T101", {"R01"}),
    ("1. summon P a2\n", "SG-T107", {"R03"}),
    ("1. end: pass\nresult 1-0\n", "SG-R210", {"R18"}),
]


def first_error(text: str) -> Diagnostic:
    quick = replay_text(text, "r.sglog")
    full = by_grammar(text, "r.sglog")
    assert quick.diagnostics == full.diagnostics
    return next(d for d in quick.diagnostics if d.is_error)


@pytest.mark.parametrize(("body", "code", "rulings"), CASES, ids=[f"{c}-{i}" for i, (_, c, _) in enumerate(CASES)])
def test_findings_name_the_ruling_that_decided_them(body: str, code: str, rulings: set[str]) -> None:
    error = first_error(KINGS + body)
    assert error.code == code, error.message
    assert rulings <= rulings_of(error.rules), (error.message, error.rules)


def test_setup_findings_name_r01() -> None:
    """core §1, R01: the roll-off's dice are 3d6."""
    error = first_error("rolloff white 1 2 9 black 1 2 3\n" + KINGS)
    assert error.code == "SG-R114" and rulings_of(error.rules) == {"R01"}


def test_game_over_names_what_ended_the_game() -> None:
    """R11 for a King conversion (full game), R18 for the turn limit."""
    full = (EXAMPLES / "full-game.sglog").read_text(encoding="utf-8").replace("result 1-0 conversion\n", "")
    error = first_error(full + "120... end: pass\n")
    assert error.code == "SG-T106" and rulings_of(error.rules) == {"R11", "R18"}
    error = first_error((EXAMPLES / "broken" / "game-over.sglog").read_text(encoding="utf-8"))
    assert error.code == "SG-T106" and rulings_of(error.rules) == {"R18"}


# --- no finding names a ruling its code does not list -----------------------------------------------


def _broken_variants(text: str, rng: random.Random, count: int) -> list[str]:
    """The log with one number or word changed, several ways."""
    words = text.split(" ")
    out = []
    for _ in range(count):
        changed = list(words)
        i = rng.randrange(len(changed))
        changed[i] = rng.choice(["1", "7", "0", "hit", "miss", "pass", "capture", changed[i - 1]])
        out.append(" ".join(changed))
    return out


def test_every_finding_cites_only_rulings_its_code_lists() -> None:
    rng = random.Random(7)
    logs = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.rglob("*.sglog"))]
    for seed in range(6):
        logs.append(format_log(generate_game(seed, style=Style.RANDOM, claims=Claims.ALL, max_turns=20).items))
    cases = [KINGS + body for body, _, _ in CASES]
    seen: set[str] = set()
    for text in logs + cases:
        for variant in [text, *(_broken_variants(text, rng, 4) if text not in cases else ())]:
            for keep_going in (False, True):
                result = replay_text(variant, "v.sglog", ReplayOptions(keep_going=keep_going))
                for d in result.diagnostics:
                    if d.code in CATALOGUE:
                        seen.add(d.code)
                        assert rulings_of(d.rules) <= DEPENDS_ON[d.code], (d.code, d.message, d.rules)
    assert len(seen) >= 30  # the walk met most codes
