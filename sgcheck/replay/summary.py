"""What a replay says of a log once it is replayed, as typed records: the summary
(:class:`ReplaySummary`, which the report layer spells as text, ``sgcheck/report/replay_text.py``)
and the facts (:class:`ReplayFacts`, which the JSON report writes)."""

from __future__ import annotations

from dataclasses import dataclass

from sgcheck.core.module import Market, Module
from sgcheck.core.pieces import NON_KING_KINDS, Color, piece
from sgcheck.core.play.victory import condition_status
from sgcheck.core.scenario import Scenario
from sgcheck.core.squares import ALL_SQUARES, name
from sgcheck.core.state import GameState
from sgcheck.replay.describe import turn_label
from sgcheck.replay.interpreter import ReplayResult
from sgcheck.results import (
    CardsHeld,
    ConditionStanding,
    GameEnd,
    MarkerSquare,
    MarketFacts,
    ModuleFacts,
    PositionFacts,
    ReplayFacts,
    ScenarioFacts,
    ShieldFacts,
    SideFacts,
    SummaryRecord,
)


@dataclass(frozen=True, slots=True)
class ReplaySummary(SummaryRecord):
    """What the summary of a replayed log says, as data: whether the game is legal and whether
    replay stopped, its ruleset (as its ``describe`` words it), scenario and module, the turns
    and actions replayed with the first and last turn's labels, and the position replay ended
    in (None: no game was set up) with the Upkeep income left out of its totals
    (:attr:`ReplayResult.upkeep_income`). The core's records are kept as they are: the report
    draws the board, the Gems, the cards, the market and the scenario's standing from them."""

    legal: bool
    stopped: bool
    ruleset: str
    turns: int
    first_turn: str | None
    last_turn: str | None
    actions: int
    state: GameState | None
    upkeep_income: int = 0
    scenario: Scenario | None = None
    module: Module | None = None


def replay_summary(result: ReplayResult) -> ReplaySummary:
    """The summary of a replay, as data."""
    first, last = turn_labels(result)
    return ReplaySummary(
        legal=result.ok,
        stopped=result.stopped,
        ruleset=result.ruleset.describe(),
        turns=result.turns,
        first_turn=first,
        last_turn=last,
        actions=result.statements,
        state=result.state,
        upkeep_income=result.upkeep_income,
        scenario=result.scenario.scenario if result.scenario is not None else None,
        module=result.pack.module if result.pack is not None else None,
    )


def headline(summary: ReplaySummary) -> str:
    """The replay's verdict in one line (the summary's first, the dispute report's ``headline``)."""
    st = summary.state
    if not summary.legal:
        where = "stopped at the first error" if summary.stopped else "found errors"
        return f"illegal game: replay {where}"
    if st is None:
        return "no game to replay"
    if st.result is not None:
        return f"legal game, {st.result.detail}"
    return f"legal so far: the game is unfinished ({st.to_move.title} to play turn {st.turn_number})"


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
        else GameEnd(
            score=st.result.score,
            outcome=st.result.outcome.value,
            winner=st.result.winner.title if st.result.winner is not None else None,
            turn=st.result.turn_number,
            detail=st.result.detail,
        ),
        final=None if st is None else state_facts(st, result.upkeep_income),
        scenario=None if st is None or st.scenario is None else scenario_facts(st),
        module=None if st is None or module is None else module_facts(module, st),
        timeline=result.timeline,
    )


def market_order(market: Market) -> str:
    """How a market's deck is dealt: ``committed`` (in the order its manifest commits to) or ``unordered``."""
    return "committed" if market.ordered else "unordered"


def module_facts(module: Module, st: GameState) -> ModuleFacts:
    """The module as a typed record: its name, its market's state, its shields (R26)."""
    play = st.cards.market if st.cards is not None else None
    market = None
    if module.market is not None and play is not None:
        market = MarketFacts(
            order=market_order(module.market),
            deck=tuple(module.market.deck),
            revealed=tuple(play.revealed),
            left=module.market.remaining(play.revealed),
            next=module.market.next_card(play.revealed) if module.market.ordered else None,
            before={c.title: play.card_before(c) for c in Color},
            discarded=tuple(play.discarded),
            reveal_due=play.due,
        )
    shields = None
    if module.shields is not None:
        shields = ShieldFacts(
            guard=tuple(kind.title for kind in sorted(module.shields.guard)),
            reduce=module.shields.reduce,
            dice=tuple(module.shields.dice),
        )
    return ModuleFacts(module.name, market, shields)


def scenario_facts(st: GameState) -> ScenarioFacts:
    """The scenario as a typed record: its settings, its markers with their owners and occupants,
    and each side's standing on each win condition."""
    play = st.scenario
    assert play is not None
    scenario = play.scenario

    def title(color: Color | None) -> str | None:
        return color.title if color is not None else None

    markers = {
        m.name: tuple(
            MarkerSquare(name(sq), title(owner), title(p.color) if (p := st.board[sq]) else None)
            for sq, owner in zip(m.squares, m.owners, strict=True)
        )
        for m in scenario.markers
    }
    conditions = tuple(
        ConditionStanding(
            condition=status.condition.kind.value,
            side=status.side.title,
            markers=status.condition.markers,
            value=status.condition.value,
            when=status.condition.timing.value,
            met=status.met,
            progress=status.progress,
        )
        for status in condition_status(st)
    )
    return ScenarioFacts(
        name=scenario.name,
        source=scenario.source,
        first=scenario.first.title,
        turn_limit=scenario.turn_limit,
        core_victory=scenario.core_victory,
        broke_enemy_gem={c.title.lower(): play.broke[c] for c in Color},
        captured_a_piece={c.title.lower(): play.captured[c] for c in Color},
        markers=markers,
        conditions=conditions,
    )


def card_facts(st: GameState, color: Color) -> CardsHeld:
    """A side's cards: how many in hand (their names are in the draft), Relics in play, Spells cast (R22)."""
    cards = st.cards
    assert cards is not None
    return CardsHeld(
        hand=len(cards.hand(color)),
        in_play=tuple(r.card for r in cards.in_play if r.owner is color),
        discarded=tuple(cards.discarded[color]),
    )


def state_facts(st: GameState, upkeep_income: int = 0) -> PositionFacts:
    """The position as a typed record. ``upkeep_income`` is SP that the player to move gained when their turn
    began by itself after the log's last turn (:attr:`ReplayResult.upkeep_income`): the totals
    leave it out, so they are those of the last action written, and ``upkeep_income`` gives it."""

    def player(c: Color) -> SideFacts:
        p = st.player(c)
        return SideFacts(
            lp=p.lp,
            sp=p.sp - upkeep_income if c is st.to_move else p.sp,
            king_damage=p.king_damage,
            gem_broken=p.gem_broken,
            gem={
                f"{owner.title.lower()}_{k.title.lower()}": p.gem[piece(owner, k).index]
                for owner in Color
                for k in NON_KING_KINDS
                if p.gem[piece(owner, k).index]
            },
            cards=None if st.cards is None else card_facts(st, c),
        )

    board = {
        name(sq): (p.kind.letter if p.color is Color.WHITE else p.kind.letter.lower())
        for sq in ALL_SQUARES
        if (p := st.board[sq]) is not None
    }
    return PositionFacts(
        turn=st.turn_number,
        to_move=st.to_move.title,
        phase=st.turn.phase.title,
        upkeep_income=upkeep_income,
        white=player(Color.WHITE),
        black=player(Color.BLACK),
        board=board,
    )
