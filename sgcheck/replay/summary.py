"""The end-of-replay summary, as text for people and as facts for JSON."""

from __future__ import annotations

from typing import TypedDict

from sgcheck.core import caps
from sgcheck.core.pieces import NON_KING_KINDS, Color, piece
from sgcheck.core.squares import ALL_SQUARES, name
from sgcheck.core.state import GameState
from sgcheck.replay.describe import board_diagram, gem_contents
from sgcheck.replay.interpreter import ReplayResult


def headline(result: ReplayResult) -> str:
    st = result.state
    if not result.ok:
        where = "stopped at the first error" if result.stopped else "found errors"
        return f"illegal game: replay {where}"
    if st is None:
        return "no game to replay"
    if st.result is not None:
        return f"legal game, {st.result.detail}"
    return f"legal so far: the game is unfinished ({st.to_move.title} to play turn {st.turn_number})"


def summary_text(result: ReplayResult) -> str:
    lines = [headline(result)]
    lines.append(f"ruleset: {result.ruleset.describe()}")
    turns = f"{result.turns} turn{'s' if result.turns != 1 else ''}"
    lines.append(f"replayed {turns} and {result.statements} action{'s' if result.statements != 1 else ''}")
    st = result.state
    if st is None:
        return "\n".join(lines) + "\n"
    lines.append("")
    lines.append(board_diagram(st))
    lines.append("")
    for c in Color:
        p = st.player(c)
        gem = "broken" if p.gem_broken else "intact"
        lines.append(
            f"  {c.title:<5}  LP {p.lp:<4} SP {_sp(result, c):<4} King damage {p.king_damage}/{caps.KING_HP}  "
            f"Gem {gem}: {gem_contents(st, c)}"
        )
    if st.cards is not None:
        for c in Color:
            facts = card_facts(st, c)
            in_play = ", ".join(facts["in_play"]) or "none"
            discarded = ", ".join(facts["discarded"]) or "none"
            lines.append(f"  {c.title:<5}  cards: {facts['hand']} in hand · in play {in_play} · discarded {discarded}")
    if result.upkeep_income:
        lines.append(
            f"  (totals as of the last action written; {st.to_move.title}'s turn {st.turn_number} "
            f"starts with {result.upkeep_income} SP of Upkeep income, not counted above)"
        )
    return "\n".join(lines) + "\n"


def _sp(result: ReplayResult, color: Color) -> int:
    """A player's SP as of the last action written: without the Upkeep income of a turn the log
    does not contain, which replay has already added (core §6, R14)."""
    assert result.state is not None
    sp = result.state.player(color).sp
    return sp - result.upkeep_income if color is result.state.to_move else sp


def summary_facts(result: ReplayResult) -> dict[str, object]:
    st = result.state
    facts: dict[str, object] = {
        "legal": result.ok,
        "stopped": result.stopped,
        "ruleset": result.ruleset.describe(),
        "house_rules": [h.setting for h in result.ruleset.house_rules()],
        "turns": result.turns,
        "actions": result.statements,
        "result": None,
        "final": None,
    }
    if st is None:
        return facts
    if st.result is not None:
        facts["result"] = {
            "score": st.result.score,
            "outcome": st.result.outcome.value,
            "winner": st.result.winner.title if st.result.winner is not None else None,
            "turn": st.result.turn_number,
            "detail": st.result.detail,
        }
    facts["final"] = state_facts(st, result.upkeep_income)
    return facts


class CardFacts(TypedDict):
    hand: int
    in_play: list[str]
    discarded: list[str]


def card_facts(st: GameState, color: Color) -> CardFacts:
    """A side's cards: how many in hand (their names are in the draft), Relics in play, Spells cast (R22)."""
    cards = st.cards
    assert cards is not None
    return {
        "hand": len(cards.hand(color)),
        "in_play": [r.card for r in cards.in_play if r.owner is color],
        "discarded": list(cards.discarded[color]),
    }


def state_facts(st: GameState, upkeep_income: int = 0) -> dict[str, object]:
    """The position as data. ``upkeep_income`` is SP that the player to move gained when their turn
    began by itself after the log's last turn (:attr:`ReplayResult.upkeep_income`): the totals
    leave it out, so they are those of the last action written, and ``upkeep_income`` gives it."""

    def player(c: Color) -> dict[str, object]:
        p = st.player(c)
        cards = {} if st.cards is None else {"cards": card_facts(st, c)}
        return cards | {
            "lp": p.lp,
            "sp": p.sp - upkeep_income if c is st.to_move else p.sp,
            "king_damage": p.king_damage,
            "gem_broken": p.gem_broken,
            "gem": {
                f"{owner.title.lower()}_{k.title.lower()}": p.gem[piece(owner, k).index]
                for owner in Color
                for k in NON_KING_KINDS
                if p.gem[piece(owner, k).index]
            },
        }

    board = {
        name(sq): (p.kind.letter if p.color is Color.WHITE else p.kind.letter.lower())
        for sq in ALL_SQUARES
        if (p := st.board[sq]) is not None
    }
    return {
        "turn": st.turn_number,
        "to_move": st.to_move.title,
        "phase": st.turn.phase.title,
        "upkeep_income": upkeep_income,
        "white": player(Color.WHITE),
        "black": player(Color.BLACK),
        "board": board,
    }
