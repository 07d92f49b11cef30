"""The end-of-replay summary, as text for people and as typed facts (:class:`ReplayFacts`) for the reports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from sgcheck.core import caps
from sgcheck.core.cards.table import MarketPlay
from sgcheck.core.module import Market, Module
from sgcheck.core.pieces import NON_KING_KINDS, Color, piece
from sgcheck.core.play.victory import condition_status
from sgcheck.core.scenario import Scenario, describe_markers
from sgcheck.core.squares import ALL_SQUARES, name
from sgcheck.core.state import GameState
from sgcheck.diagnostics import plural
from sgcheck.replay.describe import board_diagram, gem_contents, turn_label
from sgcheck.replay.explain import END_OF_TURN
from sgcheck.replay.interpreter import ReplayResult
from sgcheck.results import ReplayFacts
from sgcheck.visible import visible


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
    scenario = result.scenario.scenario if result.scenario is not None else None
    if scenario is not None:
        lines.append(f"scenario: {scenario_line(scenario)}")
    module = result.pack.module if result.pack is not None else None
    if module is not None:
        lines.append(f"module: {module_line(module)}")
    lines.append(f"replayed {turns_played(result)} and {plural(result.statements, 'action')}")
    st = result.state
    if st is None:
        return "\n".join(lines) + "\n"
    lines.extend(position_lines(st, result.upkeep_income))
    if result.upkeep_income:
        lines.append(
            f"  (totals as of the last action written; {st.to_move.title}'s turn {st.turn_number} "
            f"starts with {result.upkeep_income} SP of Upkeep income, not counted above)"
        )
    return "\n".join(lines) + "\n"


def position_lines(st: GameState, upkeep_income: int = 0) -> list[str]:
    """A position as the summary shows it: a blank line, the board, a blank line, then each side's
    LP, SP, King damage and Gem, the cards, the market and the scenario. ``upkeep_income``: SP of
    the player to move left out of their total (see :func:`state_facts`)."""
    lines = ["", board_diagram(st), ""]
    for c in Color:
        p = st.player(c)
        gem = "broken" if p.gem_broken else "intact"
        sp = p.sp - upkeep_income if c is st.to_move else p.sp
        lines.append(
            f"  {c.title:<5}  LP {p.lp:<4} SP {sp:<4} King damage {p.king_damage}/{caps.KING_HP}  "
            f"Gem {gem}: {gem_contents(st, c)}"
        )
    if st.cards is not None:
        for c in Color:
            facts = card_facts(st, c)
            in_play = ", ".join(facts["in_play"]) or "none"
            discarded = ", ".join(facts["discarded"]) or "none"
            lines.append(f"  {c.title:<5}  cards: {facts['hand']} in hand · in play {in_play} · discarded {discarded}")
    if st.cards is not None and st.cards.market is not None:
        lines.append(market_line(st.cards.market))
    if st.scenario is not None:
        lines.extend(scenario_lines(st))
    return lines


def turns_played(result: ReplayResult) -> str:
    """``239 turns (1. to 120.)``: the players' turns replayed, each player's turn counting one,
    and the first and last of them as the log numbers them (``N.`` White's turn N, ``N...``
    Black's, core §2)."""
    first, last = turn_labels(result)
    if first is None or last is None:
        return plural(result.turns, "turn")
    span = first if first == last else f"{first} to {last}"
    return f"{plural(result.turns, 'turn')} ({span})"


def turn_labels(result: ReplayResult) -> tuple[str | None, str | None]:
    """The labels of the first and the last turn replayed (``1.``, ``120.``), or None."""
    first = turn_label(*result.first_turn) if result.first_turn is not None else None
    last = turn_label(*result.last_turn) if result.last_turn is not None else None
    return first, last


def summary_facts(result: ReplayResult) -> ReplayFacts:
    st = result.state
    first, last = turn_labels(result)
    module = result.pack.module if result.pack is not None else None
    return ReplayFacts(
        legal=result.ok,
        stopped=result.stopped,
        ruleset=result.ruleset.describe(),
        house_rules=tuple(h.setting for h in result.ruleset.house_rules()),
        turns=result.turns,
        first_turn=first,
        last_turn=last,
        actions=result.statements,
        result=None
        if st is None or st.result is None
        else {
            "score": st.result.score,
            "outcome": st.result.outcome.value,
            "winner": st.result.winner.title if st.result.winner is not None else None,
            "turn": st.result.turn_number,
            "detail": st.result.detail,
        },
        final=None if st is None else state_facts(st, result.upkeep_income),
        scenario=None if st is None or st.scenario is None else scenario_facts(st),
        module=None if st is None or module is None else module_facts(module, st),
        timeline=result.timeline,
    )


def module_line(module: Module) -> str:
    """``Spell Chess market · market of 5 cards, order committed`` (R26)."""
    parts = [module.name]
    if module.market is not None:
        size = len(module.market.deck)
        parts.append(f"market of {plural(size, 'card')}, order {_order(module.market)}")
    if module.shields is not None and module.shields.reduce:
        kinds = " or ".join(kind.title for kind in sorted(module.shields.guard))
        parts.append(f"shields: each hit on a {kinds} deals {module.shields.reduce} less damage, both sides")
    return " · ".join(parts)


def _order(market: Market) -> str:
    return "committed" if market.ordered else "unordered"


def market_line(play: MarketPlay) -> str:
    """The market now: the deck left, the card before each player, the cards discarded (R26)."""
    left = play.market.remaining(play.revealed)
    top = play.market.next_card(play.revealed) if play.market.ordered else None
    deck = f"{left} of {plural(len(play.market.deck), 'card')} left" + (f" (next: {top})" if top is not None else "")
    before = " · ".join(f"before {c.title}: {play.card_before(c) or 'none'}" for c in Color)
    return f"  market: {deck} · {before} · discarded {', '.join(play.discarded) or 'none'}"


def module_facts(module: Module, st: GameState) -> dict[str, object]:
    """The module as data: its name, its market's state, its shields (R26)."""
    facts: dict[str, object] = {"name": module.name}
    play = st.cards.market if st.cards is not None else None
    if module.market is not None and play is not None:
        facts["market"] = {
            "order": _order(module.market),
            "deck": list(module.market.deck),
            "revealed": list(play.revealed),
            "left": module.market.remaining(play.revealed),
            "next": module.market.next_card(play.revealed) if module.market.ordered else None,
            "before": {c.title: play.card_before(c) for c in Color},
            "discarded": list(play.discarded),
            "reveal_due": play.due,
        }
    if module.shields is not None:
        facts["shields"] = {
            "guard": [kind.title for kind in sorted(module.shields.guard)],
            "reduce": module.shields.reduce,
            "dice": list(module.shields.dice),
        }
    return facts


def scenario_line(scenario: Scenario) -> str:
    """``Gem Siege (gem-siege.scenario.yaml) · Black plays first · turn limit 30 · core wins off``."""
    parts = [f"{scenario.name} ({scenario.source})" if scenario.source else scenario.name]
    if scenario.first is not Color.WHITE:
        parts.append(f"{scenario.first.title} plays first")
    if scenario.turn_limit is not None:
        parts.append(f"turn limit {scenario.turn_limit}")
    if not scenario.core_victory:
        parts.append("the core's win conditions off")
    return " · ".join(parts)


def scenario_lines(st: GameState) -> list[str]:
    """The scenario's markers, who stands on them, and where each side stands on each win condition."""
    play = st.scenario
    assert play is not None
    lines = []
    for markers in play.scenario.markers:
        held = ", ".join(f"{name(sq)} {p.color.title}" for sq in markers.squares if (p := st.board[sq]) is not None)
        lines.append(f"  markers {markers.name}: {describe_markers(markers)} · occupied: {held or 'none'}")
    for status in condition_status(st):
        met = " · met" if status.met else ""
        how = status.condition.describe(status.side)
        lines.append(f"  {status.side.title:<5}  wins by {how}: {status.progress}{met}")
    return lines


def scenario_facts(st: GameState) -> dict[str, object]:
    """The scenario as data: its settings, its markers with their owners and occupants, and each
    side's standing on each win condition."""
    play = st.scenario
    assert play is not None
    scenario = play.scenario

    def title(color: Color | None) -> str | None:
        return color.title if color is not None else None

    markers = {
        m.name: [
            {"square": name(sq), "owner": title(owner), "held_by": title(p.color) if (p := st.board[sq]) else None}
            for sq, owner in zip(m.squares, m.owners, strict=True)
        ]
        for m in scenario.markers
    }
    conditions = [
        {
            "condition": status.condition.kind.value,
            "side": status.side.title,
            "markers": status.condition.markers,
            "value": status.condition.value,
            "when": status.condition.timing.value,
            "met": status.met,
            "progress": status.progress,
        }
        for status in condition_status(st)
    ]
    return {
        "name": scenario.name,
        "source": scenario.source,
        "first": scenario.first.title,
        "turn_limit": scenario.turn_limit,
        "core_victory": scenario.core_victory,
        "broke_enemy_gem": {c.title.lower(): play.broke[c] for c in Color},
        "captured_a_piece": {c.title.lower(): play.captured[c] for c in Color},
        "markers": markers,
        "conditions": conditions,
    }


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


_PHASE_TITLES = {"upkeep": "Upkeep", "main1": "Main 1", "battle": "Battle", "main2": "Main 2", "end": "End"}


def explanation_lines(explained: Mapping[str, object]) -> list[str]:
    """One explanation (:mod:`sgcheck.replay.explain`) as text: where, the statement, each fact
    with its parts and rules, and the totals after it."""
    turn = explained["turn"]
    side = str(explained["side"])
    mark = "." if side == "white" else "..."
    legal = "" if explained["legal"] else " · refused"
    head = f"line {explained['line']} · turn {turn}{mark} · {side.title()} · {_PHASE_TITLES[str(explained['phase'])]}"
    lines = [head + legal, f"  {explained['statement']}"]
    facts = explained["facts"]
    assert isinstance(facts, list)
    if not facts:
        lines.append("  (nothing worked out: no cost, roll or gain)")
    width = max((len(str(fact["label"])) for fact in facts), default=0)
    for fact in facts:
        rules = fact["rules"]
        cited = f"  ({', '.join(rules)})" if rules else ""
        label = str(fact["label"])
        if fact["key"] == "refused":
            lines.append(f"  {label:<{width}}  {fact['value']} {fact['text']}{cited}")
        else:
            lines.append(f"  {label:<{width}}  {fact['text']}{cited}")
        parts = fact["parts"]
        if parts and fact["key"] not in ("paid", "gain", "reward", "pass", "income"):
            shown = ", ".join(f"{part['label']} {part['value']}" for part in parts)
            lines.append(f"  {'':<{width}}  [{shown}]")
    after = explained["after"]
    assert isinstance(after, Mapping)
    totals = " · ".join(
        f"{c.title} LP {after[c.title.lower()]['lp']} SP {after[c.title.lower()]['sp']} "
        f"King damage {after[c.title.lower()]['king_damage']}/{caps.KING_HP}"
        for c in Color
    )
    lines.append(f"  after: {totals}")
    return lines


def explained_text(kept: Sequence[tuple[Mapping[str, object], GameState]], what: str) -> str:
    """``sgcheck replay --explain`` and ``--at``: each explanation kept, then the position after the
    last of them (``what`` names it: ``line 22``, ``turn 4...``), as the summary draws it."""
    lines: list[str] = []
    for explained, _ in kept:
        lines.extend(explanation_lines(explained))
        lines.append("")
    explained, st = kept[-1]
    if explained["kind"] == "turn_end":
        where = "after the end of the turn, with the next Upkeep's income"
    else:
        where = "after the action" if explained["legal"] else "the action was refused: as it was before"
    lines.append(f"position after {what} ({where}):")
    lines.extend(position_lines(st)[1:])
    return visible("\n".join(lines)) + "\n"


def turn_text(turn: tuple[int, int] | None) -> str:
    """A turn asked for by ``--at`` (number, 0 White / 1 Black) as the log writes it: ``4.``, ``4...``."""
    assert turn is not None
    return turn_label(turn[0], Color.WHITE if turn[1] == 0 else Color.BLACK)


def nothing_to_explain(
    line: int | None, turn: tuple[int, int] | None, explanations: list[Mapping[str, object]], stopped: bool
) -> str:
    """Why --explain or --at has nothing to show, naming the nearest lines or turns that have."""
    stop = " (replay stopped at the log's first error; --keep-going replays past it)" if stopped else ""
    if line is not None:
        lines = sorted(
            {int(str(e["line"])) for e in explanations if e["kind"] == "statement" or e["statement"] != END_OF_TURN}
        )
        if not lines:
            return f"line {line} has no statement to explain: the log has none that replay reached{stop}"
        before = [n for n in lines if n < line]
        after = [n for n in lines if n > line]
        near = " and ".join(str(n) for n in (before[-1:] + after[:1]))
        return f"line {line} has no statement to explain; the nearest lines with one: {near}{stop}"
    turns = list(dict.fromkeys((int(str(e["turn"])), 0 if e["side"] == "white" else 1) for e in explanations))
    if not turns:
        return f"turn {turn_text(turn)} has nothing to explain: the log has no turn that replay reached{stop}"
    return (
        f"turn {turn_text(turn)} has nothing to explain; the log's turns run from "
        f"{turn_text(turns[0])} to {turn_text(turns[-1])}{stop}"
    )
