"""The core's one table of each rule fact agrees with the rules it stands for.

Phase windows (core §2, §5, §6, R03, R22, R23) live in ``core/windows.py``, piece reach (core §3,
R06-R09) in ``core/geometry.py``, the tiebreak weights (core §7, R18) in ``core/caps.py``. Every
other module reads them; these tests hold the tables to the rulings (``core/rulings.py``), to
what docs/log-format.md and docs/cards.md tell players, and to what the engine does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgcheck.core import caps
from sgcheck.core.actions import (
    Activate,
    Attack,
    Break,
    Convert,
    EndTurn,
    EnterPhase,
    Move,
    Play,
    Repair,
    Summon,
    Teleport,
)
from sgcheck.core.cards.model import Event, ExtraKind
from sgcheck.core.geometry import attack_distances, longest_distance, move_distances
from sgcheck.core.legal import legal_actions
from sgcheck.core.pieces import Kind, Phase
from sgcheck.core.rulings import RULINGS
from sgcheck.core.windows import (
    ACTION_WINDOWS,
    EVENT_WINDOWS,
    EXTRA_WINDOWS,
    card_window,
    next_phase,
)
from sgcheck.lang.cards.parser import parse_cards

from .helpers import position

DOCS = Path(__file__).resolve().parents[2] / "docs"
RULING = {r.id: r for r in RULINGS}

#: How R03 and the log format name each action.
R03_NAMES = {
    "Summon": Summon,
    "Break": Break,
    "Repair": Repair,
    "Move": Move,
    "Attack": Attack,
    "SP-to-LP conversion": Convert,
    "Teleport": Teleport,
}
KEYWORDS = {
    "summon": Summon,
    "break": Break,
    "repair": Repair,
    "move": Move,
    "attack": Attack,
    "convert": Convert,
    "teleport": Teleport,
}
TITLES = {p.title: p for p in Phase}


def _phases(words: str) -> set[Phase]:
    """``Main 1 or Main 2`` -> {MAIN1, MAIN2}."""
    return {TITLES[w.strip()] for w in words.split(" or ")}


# --- phase windows -----------------------------------------------------------------------------


def test_every_core_action_has_one_window_r03() -> None:
    """R04 lists the actions; each but a card activation has a window of its own (R03)."""
    assert set(ACTION_WINDOWS) == {Summon, Break, Repair, Move, Attack, Convert, Teleport}
    for window in ACTION_WINDOWS.values():
        assert window.phases and window.phases == tuple(sorted(window.phases))


def test_the_windows_are_those_ruling_r03_states() -> None:
    """R03 (core §2, §5): "Summon, Break and Repair belong to Upkeep; Move to Main 1 or Main 2; ..."."""
    text = RULING["R03"].text
    stated: dict[type, set[Phase]] = {}
    for clause in text.split(";")[:5]:
        names, where = re.split(r" (?:belong )?to ", clause.strip(), maxsplit=1)
        where = where.split(";")[0].split(".")[0].split(",")[0]
        for name in re.split(r", | and ", names):
            stated[R03_NAMES[name]] = _phases(where)
    assert stated == {action: set(window.phases) for action, window in ACTION_WINDOWS.items()}


def test_the_windows_are_those_of_the_log_format_table_r03() -> None:
    """docs/log-format.md's table of phase labels lists each action under the phases of its window."""
    text = (DOCS / "log-format.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+):` \| [^|]+ \| ([^|]+) \|$", text, re.MULTILINE)
    labels = {"upkeep": Phase.UPKEEP, "main1": Phase.MAIN1, "battle": Phase.BATTLE, "main2": Phase.MAIN2}
    labels["end"] = Phase.END
    listed: dict[type, set[Phase]] = {}
    for label, actions in rows:
        for keyword in re.findall(r"`(\w+)`", actions):
            if keyword in KEYWORDS:
                listed.setdefault(KEYWORDS[keyword], set()).add(labels[label])
    assert listed == {action: set(window.phases) for action, window in ACTION_WINDOWS.items()}


@pytest.mark.parametrize("action", list(ACTION_WINDOWS), ids=lambda a: a.__name__)
def test_a_refusal_out_of_the_window_cites_the_section_that_sets_it(action: type) -> None:
    """SG-T103 names the action, its window and core §2 beside the section of the action (core §3-§6)."""
    window = ACTION_WINDOWS[action]
    assert window.section in {"core §2", "core §3", "core §4", "core §5", "core §6"}
    assert window.what == ("SP→LP conversion" if action is Convert else action.__name__)


def test_a_card_is_played_in_its_phase_else_a_relic_in_a_main_phase_and_a_spell_in_any_r22() -> None:
    """R22, docs/cards.md: "without one, a Relic is played in either Main phase and a Spell in any phase"."""
    text = " ".join((DOCS / "cards.md").read_text(encoding="utf-8").split())
    assert "without one, a Relic is played in either Main phase and a Spell in any phase" in text
    cards = parse_cards(
        'relic "Plain" { cost 1 SP effect gain 1 SP }\n'
        'spell "Any" { cost 1 SP effect gain 1 SP }\n'
        'spell "Late" { cost 1 SP phase end effect gain 1 SP }\n'
        'relic "Main" { cost 1 SP phase main effect gain 1 SP }\n',
        "cards.sgcard",
    ).cards
    windows = {card.name: card_window(card) for card in cards}
    main, every = (Phase.MAIN1, Phase.MAIN2), tuple(Phase)
    assert windows == {"Plain": main, "Any": every, "Late": (Phase.END,), "Main": main}


def test_extra_actions_go_into_their_actions_windows_r23() -> None:
    """docs/cards.md: "one Summon, one Break attempt and one Repair attempt per Upkeep, one Teleport
    per End"; moves and attacks in theirs; an extra activation has none (SG-C070, R17)."""
    text = " ".join((DOCS / "cards.md").read_text(encoding="utf-8").split())
    assert "one Summon, one Break attempt and one Repair attempt per Upkeep, one Teleport per End" in text
    assert dict(EXTRA_WINDOWS) == {
        ExtraKind.SUMMON: (Phase.UPKEEP,),
        ExtraKind.BREAK: (Phase.UPKEEP,),
        ExtraKind.REPAIR: (Phase.UPKEEP,),
        ExtraKind.TELEPORT: (Phase.END,),
        ExtraKind.MOVE: ACTION_WINDOWS[Move].phases,
        ExtraKind.ATTACK: ACTION_WINDOWS[Attack].phases,
    }


def test_events_happen_in_the_window_of_the_action_they_follow_r23() -> None:
    """docs/cards.md: hits, misses and captures follow an attack, ``on summon:``/``on teleport:``/
    ``on move:`` the action; gains and losses, ``attacked`` and ``captured`` have no window of the
    holder's turn, and ``at PHASE:`` names its own."""
    assert EVENT_WINDOWS == {
        Event.HIT: (Phase.BATTLE,),
        Event.MISS: (Phase.BATTLE,),
        Event.CAPTURE: (Phase.BATTLE,),
        Event.MOVE: (Phase.MAIN1, Phase.MAIN2),
        Event.SUMMON: (Phase.UPKEEP,),
        Event.TELEPORT: (Phase.END,),
    }


def test_phases_follow_one_another_core_s2() -> None:
    assert [next_phase(p) for p in Phase] == [Phase.MAIN1, Phase.BATTLE, Phase.MAIN2, Phase.END, None]


def test_the_legal_actions_of_each_phase_are_those_of_its_windows_r03() -> None:
    """core/legal.py lists each action only in its window, and every action of the window somewhere."""
    seen: dict[Phase, set[type]] = {p: set() for p in Phase}
    for phase in Phase:
        for broken in (False, True):  # a Repair needs a broken Gem, a Summon an unbroken one (R12, R15)
            st = position("Ke1 Ra3 ke8 pa5", lp=100, sp=10, phase=phase, gem_broken=(broken, False))
            seen[phase] |= {type(a) for a in legal_actions(st)}
    for phase, found in seen.items():
        windows = {action for action, window in ACTION_WINDOWS.items() if phase in window.phases}
        assert found - {Play, Activate, EnterPhase, EndTurn} == windows, phase


# --- reach -------------------------------------------------------------------------------------


def test_move_reach_is_the_geometry_of_core_s3() -> None:
    """R06: a Pawn one square, two from its second rank; R07: a Knight one or two jumps; sliders
    across the board; R09: the King one square."""
    board = tuple(range(1, 8))
    assert {k: move_distances(k) for k in Kind} == {
        Kind.PAWN: (1, 2),
        Kind.KNIGHT: (1, 2),
        Kind.BISHOP: board,
        Kind.ROOK: board,
        Kind.QUEEN: board,
        Kind.KING: (1,),
    }


def test_attack_reach_is_a_move_path_pawns_diagonal_r08() -> None:
    """R08: a piece attacks what a single Move along a clear path reaches, a Pawn one square
    diagonally forward; a King that may attack (the king_value table choice, R09) one square."""
    board = tuple(range(1, 8))
    assert {k: attack_distances(k) for k in Kind} == {
        Kind.PAWN: (1,),
        Kind.KNIGHT: (1, 2),
        Kind.BISHOP: board,
        Kind.ROOK: board,
        Kind.QUEEN: board,
        Kind.KING: (1,),
    }
    assert longest_distance() == 7  # an 8×8 board (core §0)


# --- score weights -----------------------------------------------------------------------------


def test_the_tiebreak_weights_are_those_ruling_r18_states() -> None:
    """R18 (core §7): "captured value x 3 + value on the board x 2 + LP + SP"."""
    weights = f"captured value x {caps.TIEBREAK_CAPTURED_WEIGHT} + value on the board x {caps.TIEBREAK_BOARD_WEIGHT}"
    assert weights + " + LP + SP" in RULING["R18"].text
    assert weights + " + LP + SP" in " ".join((DOCS / "rules.md").read_text(encoding="utf-8").split())
