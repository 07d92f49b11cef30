"""The proof of a break of the contract: a short game that replays to it, written as files.

The contract's explorer plays a pack with the core engine from small probe positions; when a
path of actions breaks the contract, the designer is handed that path as a game they can replay
and read. :func:`write_proof` writes it into a folder::

    folder/
        pack/sgpack.yaml        the manifest: the cards file, draft settings that allow the hands
        pack/cards.sgcard       the cards, in the card language
        probe.scenario.yaml     the starting position (both Kings placed by it)
        proof.sglog             [Event], [Ruleset], [Pack "pack"], [Scenario "probe.scenario.yaml"],
                                the drafts, then the path's turns with every claim written

and ``sgcheck replay folder/proof.sglog`` plays it. The start is set up as the generator's and
the simulator's (:func:`sgcheck.play.start.start_game`: the scenario's position, the drafted hands
dealt); each action is applied and written by their loop (:mod:`sgcheck.play.loop`) with all its
claims, so the replay checks every number the engine worked out. Nothing here imports the replay
layer.

A path may stop in the middle of a turn: that turn is written as far as it goes and the log ends
there. Replay closes the last turn of a log as it closes every turn (its End: a Pass if no action
was taken, then the next player's Upkeep), so the position replay reports for such a log is the
one after that End; the path's own steps are all replayed before it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from sgcheck.core import engine
from sgcheck.core.actions import Action, EndTurn, EnterPhase
from sgcheck.core.caps import DRAFT_DRAW, DRAFT_KEEP, HAND_LIMIT
from sgcheck.core.cards.model import Card
from sgcheck.core.outcome import Rejected
from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import Scenario
from sgcheck.core.state import GameState
from sgcheck.lang.cards.writer import sgcard_text
from sgcheck.lang.logs.ast import LogItem
from sgcheck.lang.logs.from_actions import Claims
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.scenarios.scenario_loader import load_scenario
from sgcheck.lang.scenarios.writer import scenario_text
from sgcheck.play.loop import GameLog, play, result_line
from sgcheck.play.start import game_ruleset, header, start_game
from sgcheck.project.kinds import LOG_SUFFIX, MANIFEST_NAMES, SCENARIO_SUFFIXES, Kind, row

__all__ = [
    "CARD_FILE",
    "LOG_FILE",
    "MANIFEST",
    "PACK_FOLDER",
    "REFUSED",
    "SCENARIO_FILE",
    "played_actions",
    "proof_log",
    "write_proof",
]

PACK_FOLDER = "pack"
MANIFEST = MANIFEST_NAMES[0]
CARD_FILE = "cards" + row(Kind.CARDS).endings[0]
SCENARIO_FILE = "probe" + SCENARIO_SUFFIXES[0]
LOG_FILE = "proof" + LOG_SUFFIX
EVENT = "Contract proof"
PACK_NAME = "contract-proof"
#: What replay reports, under --allow-violations too, for a card the contract forbids in every game.
REFUSED = "SG-R123"


def played_actions(path: Sequence[Action]) -> int:
    """How many of ``path``'s actions the proof's log writes as statements: every action but the
    phase changes and the ends of turn (the count a break's finding states, R04)."""
    return sum(1 for action in path if not isinstance(action, EnterPhase | EndTurn))


def write_proof(
    folder: Path,
    *,
    cards: Sequence[Card],
    scenario: Scenario,
    hands: tuple[tuple[str, ...], tuple[str, ...]],
    actions: Sequence[Action],
    ruleset: Ruleset = CORE,
    comments: Sequence[str] = (),
    refused: bool = False,
) -> Path:
    """Write the proof that ``actions`` from ``scenario`` with ``cards`` reach what they reach;
    the path of ``proof.sglog``.

    ``hands`` are the card names White and Black kept in the draft; ``actions`` are core actions
    from the start, phase changes and ends of turn included; ``comments`` are written as ``;``
    lines at the top of the log. With ``refused``, the last action is one the core refuses in
    every game (a card whose effect the contract forbids, SG-R123): it is written as the log's
    last statement, without claims, and replay refuses it there. Everything is worked out before
    anything is written: a path the engine rejects (but that last action), a scenario that does
    not place both Kings or cannot be written as it is, a hand naming a card that is not among
    ``cards`` is a ``ValueError`` and leaves ``folder`` as it was. Without cards no pack is
    written and the game is played without one.
    """
    ruleset = game_ruleset(ruleset, scenario)
    scenario_yaml = _scenario_yaml(scenario)
    log = proof_log(
        cards=cards,
        scenario=scenario,
        hands=hands,
        actions=actions,
        ruleset=ruleset,
        comments=comments,
        refused=refused,
    )

    folder.mkdir(parents=True, exist_ok=True)
    if cards:
        pack = folder / PACK_FOLDER
        pack.mkdir(exist_ok=True)
        _write(pack / MANIFEST, _manifest(ruleset, hands))
        _write(pack / CARD_FILE, sgcard_text(cards))
    _write(folder / SCENARIO_FILE, scenario_yaml)
    proof = folder / LOG_FILE
    _write(proof, log)
    return proof


def proof_log(
    *,
    cards: Sequence[Card],
    scenario: Scenario,
    hands: tuple[tuple[str, ...], tuple[str, ...]],
    actions: Sequence[Action],
    ruleset: Ruleset = CORE,
    comments: Sequence[str] = (),
    refused: bool = False,
) -> str:
    """The text of the proof's log, as :func:`write_proof` writes it (nothing is written): the
    line a break is replayed at is read from it before any file is. Its last line is the last
    action of the path (or the end of the turn it closes)."""
    ruleset = game_ruleset(ruleset, scenario)
    _check_hands(cards, hands)
    tags = header(EVENT, ruleset, pack=PACK_FOLDER if cards else None, scenario=SCENARIO_FILE)
    # the scenario places both Kings and says who plays first: no roll-off, no placement
    start = start_game(tags, ruleset, cards=cards if cards else None, hands=hands, scenario=scenario)
    items = [*start.items, *_turns(start.state, actions, refused=refused)]
    return _comment_lines(comments) + format_log(items)


# --- the start --------------------------------------------------------------------------------------


def _scenario_yaml(scenario: Scenario) -> str:
    """The scenario's file, which must place both Kings and read back as the same scenario."""
    missing = [c.title for c in Color if scenario.side(c).king is None]
    if missing:
        raise ValueError(
            f"the scenario {scenario.name!r} does not place the {' and '.join(missing)} King: "
            "a probe position places both Kings"
        )
    text = scenario_text(scenario)
    loaded = load_scenario(text, SCENARIO_FILE)
    errors = [f"{d.code} {d.message}" for d in loaded.diagnostics if d.is_error]
    if errors:
        raise ValueError(f"the scenario {scenario.name!r} cannot be played: " + "; ".join(errors))
    if loaded.scenario != scenario:
        raise ValueError(f"the scenario {scenario.name!r} does not read back as written")
    return text


def _check_hands(cards: Sequence[Card], hands: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
    known = {card.name for card in cards}
    for color, hand in zip(Color, hands, strict=True):
        unknown = [name for name in hand if name not in known]
        if unknown:
            raise ValueError(f"{color.title}'s hand names cards that are not among the cards: {unknown}")
        if len(set(hand)) != len(hand):
            raise ValueError(f"{color.title}'s hand keeps a card twice: {list(hand)}")


# --- the turns --------------------------------------------------------------------------------------


def _turns(state: GameState, actions: Sequence[Action], *, refused: bool = False) -> list[LogItem]:
    """The path's turns, each action applied and written with every claim; the result line if
    the game ended; a turn the path stops in is written as far as it goes. With ``refused``, the
    last action may be one the core refuses in every game (SG-R123): it is written without claims
    and ends the log."""
    log = GameLog(state, Claims.ALL, random.Random(0))  # claims_for draws only to pick some claims: all are written
    items: list[LogItem] = []
    path = list(actions)
    last = path.pop() if refused and path else None
    state = _play_path(log, items, state, path, 0)
    if last is not None:
        outcome = engine.apply(state, last)
        if isinstance(outcome, Rejected) and outcome.first.diagnostic.code == REFUSED:
            items.append(log.write_refused(state, last))
            return items
        state = _play_path(log, items, state, [last], len(path))
    closed = log.close()
    if closed is not None:
        items.append(closed)
    ended = result_line(state)
    if ended is not None:
        items.append(ended)
    return items


def _play_path(
    log: GameLog, items: list[LogItem], state: GameState, actions: Sequence[Action], before: int
) -> GameState:
    """Apply ``actions`` from ``state``, writing each turn they end into ``items``; the state they
    reach. ``before`` actions of the path came earlier (an action is named by its place in it). A
    path the engine rejects, or one that goes on after the game ended, is a ``ValueError``."""
    path = iter(enumerate(actions, before + 1))
    index = before

    def next_action(at: GameState) -> Action | None:
        nonlocal index
        index, action = next(path, (index, None))
        return action

    def rejected(at: GameState, action: Action, outcome: Rejected) -> Exception:
        found = outcome.first.diagnostic
        return ValueError(f"action {index} of the path ({action!r}) is rejected: {found.code} {found.message}")

    for step in play(state, next_action, rejected):
        turn = log.write(step)
        if turn is not None:
            items.append(turn)
        state = step.after
    after_the_end = next_action(state)
    if after_the_end is not None:  # the game ended before the path did: the engine refuses the rest
        outcome = engine.apply(state, after_the_end)
        assert isinstance(outcome, Rejected)
        raise rejected(state, after_the_end, outcome)
    return state


# --- the files --------------------------------------------------------------------------------------


def _manifest(ruleset: Ruleset, hands: tuple[tuple[str, ...], tuple[str, ...]]) -> str:
    """The pack's manifest: R19's draft when both hands fit in it, else one that keeps (and lets a
    hand hold) the larger hand. The ruleset is the game's table choices, without its turn limit,
    which is the scenario's."""
    keep = max(len(hand) for hand in hands)
    if keep <= min(DRAFT_KEEP, HAND_LIMIT):
        draft = f"{{draw: {DRAFT_DRAW}, keep: {DRAFT_KEEP}}}"
    else:
        draft = f"{{draw: {max(DRAFT_DRAW, keep)}, keep: {keep}, hand_limit: {keep}}}"
    return (
        "# The cards of a contract proof, written by sgcheck.\n"
        f"name: {PACK_NAME}\n"
        "version: 1.0.0\n"
        f"ruleset: {replace(ruleset, turn_limit=None).describe()}\n"
        f"draft: {draft}\n"
        "cards:\n"
        f"  - {CARD_FILE}\n"
    )


def _comment_lines(comments: Sequence[str]) -> str:
    lines = [line.rstrip() for comment in comments for line in (comment.splitlines() or [""])]
    return "".join(f"; {line}\n" if line else ";\n" for line in lines)


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")
