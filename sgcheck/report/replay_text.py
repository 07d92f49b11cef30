"""A replay's results in words for people: the summary of a replayed log (its verdict, ruleset,
scenario, module, the turns replayed and the position it ended in, drawn as a board with each
side's LP, SP, King damage, Gem, cards, the market and the scenario's standing), and the
explanations of ``replay --explain`` and ``--at``.

Replay computes the typed results (:class:`~sgcheck.replay.summary.ReplaySummary`, the
explanations of :mod:`sgcheck.replay.explain`); this module only spells them, and every format
that writes a summary (text, JSON's ``summary``, JUnit's ``system-out``) reads it through
:func:`sgcheck.report.summaries.summary_text`."""

from __future__ import annotations

from collections.abc import Sequence

from sgcheck.core import caps
from sgcheck.core.cards.table import MarketPlay
from sgcheck.core.module import Module
from sgcheck.core.pieces import NON_KING_KINDS, Color, piece
from sgcheck.core.play.victory import condition_status
from sgcheck.core.scenario import Scenario, describe_markers
from sgcheck.core.squares import name, square
from sgcheck.core.state import GameState
from sgcheck.diagnostics import plural
from sgcheck.replay.describe import turn_label
from sgcheck.replay.explain import END_OF_TURN
from sgcheck.replay.summary import ReplaySummary, card_facts, headline, market_order
from sgcheck.results import Explanation
from sgcheck.visible import visible


def summary_text(summary: ReplaySummary) -> str:
    """The summary block of a replayed log."""
    lines = [headline(summary)]
    lines.append(f"ruleset: {summary.ruleset}")
    if summary.scenario is not None:
        lines.append(f"scenario: {scenario_line(summary.scenario)}")
    if summary.module is not None:
        lines.append(f"module: {module_line(summary.module)}")
    lines.append(f"replayed {turns_played(summary)} and {plural(summary.actions, 'action')}")
    st = summary.state
    if st is None:
        return "\n".join(lines) + "\n"
    income = summary.upkeep_income
    lines.extend(position_lines(st, income))
    if income:
        lines.append(
            f"  (totals as of the last action written; {st.to_move.title}'s turn {st.turn_number} "
            f"starts with {income} SP of Upkeep income, not counted above)"
        )
    return "\n".join(lines) + "\n"


def turns_played(summary: ReplaySummary) -> str:
    """``239 turns (1. to 120.)``: the players' turns replayed, each player's turn counting one,
    and the first and last of them as the log numbers them (``N.`` White's turn N, ``N...``
    Black's, core §2)."""
    first, last = summary.first_turn, summary.last_turn
    if first is None or last is None:
        return plural(summary.turns, "turn")
    span = first if first == last else f"{first} to {last}"
    return f"{plural(summary.turns, 'turn')} ({span})"


def position_lines(st: GameState, upkeep_income: int = 0) -> list[str]:
    """A position as the summary shows it: a blank line, the board, a blank line, then each side's
    LP, SP, King damage and Gem, the cards, the market and the scenario. ``upkeep_income``: SP of
    the player to move left out of their total (:func:`sgcheck.replay.summary.state_facts`)."""
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
            in_play = ", ".join(facts.in_play) or "none"
            discarded = ", ".join(facts.discarded) or "none"
            lines.append(f"  {c.title:<5}  cards: {facts.hand} in hand · in play {in_play} · discarded {discarded}")
    if st.cards is not None and st.cards.market is not None:
        lines.append(market_line(st.cards.market))
    if st.scenario is not None:
        lines.extend(scenario_lines(st))
    return lines


def board_diagram(st: GameState) -> str:
    """The board as text, White at the bottom: upper case White, lower case Black, '.' empty."""
    rows = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            p = st.board[square(file, rank)]
            if p is None:
                cells.append(".")
            else:
                letter = p.kind.letter
                cells.append(letter if p.color is Color.WHITE else letter.lower())
        rows.append(f"  {rank + 1} " + " ".join(cells))
    rows.append("    a b c d e f g h")
    return "\n".join(rows)


def gem_contents(st: GameState, color: Color) -> str:
    """``own: 8P 2N 2B 1R 1Q · captured: 1P`` for a player's Gem."""
    gem = st.player(color).gem

    def listing(owner: Color) -> str:
        items = [f"{gem[piece(owner, k).index]}{k.letter}" for k in NON_KING_KINDS if gem[piece(owner, k).index]]
        return " ".join(items) if items else "none"

    return f"own {listing(color)} · captured {listing(color.other)}"


def module_line(module: Module) -> str:
    """``Spell Chess market · market of 5 cards, order committed`` (R26)."""
    parts = [module.name]
    if module.market is not None:
        size = len(module.market.deck)
        parts.append(f"market of {plural(size, 'card')}, order {market_order(module.market)}")
    if module.shields is not None and module.shields.reduce:
        kinds = " or ".join(kind.title for kind in sorted(module.shields.guard))
        parts.append(f"shields: each hit on a {kinds} deals {module.shields.reduce} less damage, both sides")
    return " · ".join(parts)


def market_line(play: MarketPlay) -> str:
    """The market now: the deck left, the card before each player, the cards discarded (R26)."""
    left = play.market.remaining(play.revealed)
    top = play.market.next_card(play.revealed) if play.market.ordered else None
    deck = f"{left} of {plural(len(play.market.deck), 'card')} left" + (f" (next: {top})" if top is not None else "")
    before = " · ".join(f"before {c.title}: {play.card_before(c) or 'none'}" for c in Color)
    return f"  market: {deck} · {before} · discarded {', '.join(play.discarded) or 'none'}"


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


_PHASE_TITLES = {"upkeep": "Upkeep", "main1": "Main 1", "battle": "Battle", "main2": "Main 2", "end": "End"}


def explanation_lines(explained: Explanation) -> list[str]:
    """One explanation (:mod:`sgcheck.replay.explain`) as text: where, the statement, each fact
    with its parts and rules, and the totals after it."""
    side = explained.side
    mark = "." if side == "white" else "..."
    legal = "" if explained.legal else " · refused"
    head = f"line {explained.line} · turn {explained.turn}{mark} · {side.title()} · {_PHASE_TITLES[explained.phase]}"
    lines = [head + legal, f"  {explained.statement}"]
    facts = explained.facts
    if not facts:
        lines.append("  (nothing worked out: no cost, roll or gain)")
    width = max((len(fact.label) for fact in facts), default=0)
    for fact in facts:
        cited = f"  ({', '.join(fact.rules)})" if fact.rules else ""
        if fact.key == "refused":
            lines.append(f"  {fact.label:<{width}}  {fact.value} {fact.text}{cited}")
        else:
            lines.append(f"  {fact.label:<{width}}  {fact.text}{cited}")
        if fact.parts and fact.key not in ("paid", "gain", "reward", "pass", "income"):
            shown = ", ".join(f"{part.label} {part.value}" for part in fact.parts)
            lines.append(f"  {'':<{width}}  [{shown}]")
    after = explained.after
    totals = " · ".join(
        f"{c.title} LP {t.lp} SP {t.sp} King damage {t.king_damage}/{caps.KING_HP}"
        for c, t in zip(Color, (after.white, after.black), strict=True)
    )
    lines.append(f"  after: {totals}")
    return lines


def explained_text(kept: Sequence[tuple[Explanation, GameState]], what: str) -> str:
    """``sgcheck replay --explain`` and ``--at``: each explanation kept, then the position after the
    last of them (``what`` names it: ``line 22``, ``turn 4...``), as the summary draws it."""
    lines: list[str] = []
    for explained, _ in kept:
        lines.extend(explanation_lines(explained))
        lines.append("")
    explained, st = kept[-1]
    if explained.kind == "turn_end":
        where = "after the end of the turn, with the next Upkeep's income"
    else:
        where = "after the action" if explained.legal else "the action was refused: as it was before"
    lines.append(f"position after {what} ({where}):")
    lines.extend(position_lines(st)[1:])
    return visible("\n".join(lines)) + "\n"


def turn_text(turn: tuple[int, int] | None) -> str:
    """A turn asked for by ``--at`` (number, 0 White / 1 Black) as the log writes it: ``4.``, ``4...``."""
    assert turn is not None
    return turn_label(turn[0], Color.WHITE if turn[1] == 0 else Color.BLACK)


def nothing_to_explain(
    line: int | None, turn: tuple[int, int] | None, explanations: Sequence[Explanation], stopped: bool
) -> str:
    """Why --explain or --at has nothing to show, naming the nearest lines or turns that have."""
    stop = " (replay stopped at the log's first error; --keep-going replays past it)" if stopped else ""
    if line is not None:
        lines = sorted({e.line for e in explanations if e.kind == "statement" or e.statement != END_OF_TURN})
        if not lines:
            return f"line {line} has no statement to explain: the log has none that replay reached{stop}"
        before = [n for n in lines if n < line]
        after = [n for n in lines if n > line]
        near = " and ".join(str(n) for n in (before[-1:] + after[:1]))
        return f"line {line} has no statement to explain; the nearest lines with one: {near}{stop}"
    turns = list(dict.fromkeys((e.turn, 0 if e.side == "white" else 1) for e in explanations))
    if not turns:
        return f"turn {turn_text(turn)} has nothing to explain: the log has no turn that replay reached{stop}"
    return (
        f"turn {turn_text(turn)} has nothing to explain; the log's turns run from "
        f"{turn_text(turns[0])} to {turn_text(turns[-1])}{stop}"
    )
