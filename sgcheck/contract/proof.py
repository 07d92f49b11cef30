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

and ``sgcheck replay folder/proof.sglog`` plays it. The start is built as the generator builds a
scenario game with a pack (:func:`sgcheck.core.state.initial_state` with the scenario, the drafted
hands dealt, :func:`sgcheck.core.play.victory.scenario_start`); each action is applied with
:func:`sgcheck.core.engine.apply` and written by :mod:`sgcheck.lang.logs.from_actions`, the
generator's own writer, with all its claims, so the replay checks every number the engine worked
out. Nothing here imports the replay layer.

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
from sgcheck.core.cards.table import CardsByName, new_cards
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color
from sgcheck.core.play.victory import scenario_start
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import Scenario
from sgcheck.core.state import GameState, initial_state
from sgcheck.lang.cards.writer import sgcard_text
from sgcheck.lang.logs.ast import CardName, ClaimKind, Draft, Header, LogItem, ResultLine, Tag
from sgcheck.lang.logs.from_actions import NOWHERE, Claims, TurnWriter, claims_for, statement_for
from sgcheck.lang.logs.writer import format_log
from sgcheck.lang.scenarios.scenario_loader import load_scenario
from sgcheck.lang.scenarios.writer import scenario_text

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
MANIFEST = "sgpack.yaml"
CARD_FILE = "cards.sgcard"
SCENARIO_FILE = "probe.scenario.yaml"
LOG_FILE = "proof.sglog"
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
    if scenario.turn_limit is not None:
        ruleset = replace(ruleset, turn_limit=scenario.turn_limit)
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
    if scenario.turn_limit is not None:
        ruleset = replace(ruleset, turn_limit=scenario.turn_limit)
    _check_hands(cards, hands)
    state = _start(scenario, ruleset, cards, hands)
    items = _header(ruleset, cards, hands)
    items.extend(_turns(state, actions, refused=refused))
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


def _start(
    scenario: Scenario, ruleset: Ruleset, cards: Sequence[Card], hands: tuple[tuple[str, ...], tuple[str, ...]]
) -> GameState:
    """The state at the start of play, as the generator and replay build a scenario game's."""
    white, black = scenario.side(Color.WHITE).king, scenario.side(Color.BLACK).king
    assert white is not None and black is not None
    state = initial_state(white, black, ruleset, scenario)
    if cards:
        state = state.replace(cards=new_cards(CardsByName(cards), *hands))
    return scenario_start(state)


def _header(ruleset: Ruleset, cards: Sequence[Card], hands: tuple[tuple[str, ...], tuple[str, ...]]) -> list[LogItem]:
    tags = [Tag("Event", EVENT, NOWHERE), Tag("Ruleset", ruleset.describe(), NOWHERE)]
    if cards:
        tags.append(Tag("Pack", PACK_FOLDER, NOWHERE))
    tags.append(Tag("Scenario", SCENARIO_FILE, NOWHERE))
    items: list[LogItem] = [Header(tuple(tags), NOWHERE)]
    for color, hand in zip(Color, hands, strict=True):
        if hand:  # a side that kept nothing has no draft line (a draft line names one card or more)
            items.append(Draft(color, tuple(CardName(name, NOWHERE) for name in hand), NOWHERE))
    return items


# --- the turns --------------------------------------------------------------------------------------


def _turns(state: GameState, actions: Sequence[Action], *, refused: bool = False) -> list[LogItem]:
    """The path's turns, each action applied and written with every claim; the result line if
    the game ended. With ``refused``, the last action may be one the core refuses in every game
    (SG-R123): it is written without claims and ends the log."""
    rng = random.Random(0)  # claims_for draws only to pick some claims; all of them are written here
    items: list[LogItem] = []
    writer = TurnWriter(state.turn_number, state.to_move)
    started = False  # the current turn has had a step: it is written even if the path stops in it
    for index, action in enumerate(actions, 1):
        step = engine.apply(state, action)
        if (
            not isinstance(step, Applied)
            and refused
            and index == len(actions)
            and step.first.diagnostic.code == REFUSED
        ):
            writer.add(statement_for(state, action, ()))
            items.append(writer.finish(False, ()))
            return items
        if not isinstance(step, Applied):
            found = step.first.diagnostic
            raise ValueError(f"action {index} of the path ({action!r}) is rejected: {found.code} {found.message}")
        actor = state.to_move
        if isinstance(action, EnterPhase):
            writer.enter(action.phase)
            started = True
        elif isinstance(action, EndTurn):
            claims = claims_for(action, step.effects, step.state, actor, Claims.ALL, rng)
            claims = tuple(c for c in claims if c.kind in (ClaimKind.LP, ClaimKind.SP))
            items.append(writer.finish(step.effects.passed, claims))
            writer = TurnWriter(step.state.turn_number, step.state.to_move)
            started = False
        else:
            claims = claims_for(action, step.effects, step.state, actor, Claims.ALL, rng)
            writer.add(statement_for(state, action, claims))
            started = True
            if step.state.result is not None:  # the game ends here: no more steps can follow
                items.append(writer.finish(False, ()))
                started = False
        state = step.state
    if started:
        items.append(writer.finish(False, ()))
    if state.result is not None:
        items.append(ResultLine(state.result.score, state.result.outcome.value, NOWHERE))
    return items


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
