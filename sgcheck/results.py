"""What a checker returns, independent of how it is rendered.

Replay and the contract checker both produce :class:`FileResult` values and the
renderers in :mod:`sgcheck.report` turn a :class:`Run` of them into text, JSON, SARIF
or annotations. The types live here, below all three, so dependencies point one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar, Generic, Protocol, TypeVar

from sgcheck.codes import CodeInfo
from sgcheck.diagnostics import Diagnostic, Scalar, Span


@dataclass(frozen=True, slots=True)
class Suppressed:
    """A finding an in-source suppression silenced: still reported, with the reason given and
    where the suppression is, so a silenced contract break never disappears without trace."""

    diagnostic: Diagnostic
    reason: str
    at: Span


class SummaryRecord:
    """A file's summary block as a typed record, spelled by the report layer
    (:func:`sgcheck.report.summaries.summary_text`): a pack's :class:`ManifestFacts`, a replayed
    log's ``ReplaySummary`` (``sgcheck/replay/summary.py``, beside the core's records it holds)."""

    __slots__ = ()


class Facts(Protocol):
    """What a checker knows of one input beyond its findings, as a typed record: a replayed log
    (:class:`ReplayFacts`), a pack's manifest (:class:`ManifestFacts`), a card file
    (:class:`CardFileFacts`), a scenario file (:class:`ScenarioFileFacts`). Each says its JSON
    form, the ``facts`` of the JSON report."""

    def as_json(self) -> dict[str, object]: ...


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a replayed game ended (core §7, R11): its score (``1-0``, ``0-1``, ``1/2-1/2``), the
    outcome's name, the winner (None: no winner), the turn it ended on and the words of it."""

    score: str
    outcome: str
    winner: str | None
    turn: int
    detail: str

    def as_json(self) -> dict[str, object]:
        return {
            "score": self.score,
            "outcome": self.outcome,
            "winner": self.winner,
            "turn": self.turn,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class CardsHeld:
    """A side's cards: how many in hand (their names are in the draft), the Relics in play and
    the Spells cast (R22)."""

    hand: int
    in_play: tuple[str, ...]
    discarded: tuple[str, ...]

    def as_json(self) -> dict[str, object]:
        return {"hand": self.hand, "in_play": list(self.in_play), "discarded": list(self.discarded)}


@dataclass(frozen=True, slots=True)
class SideFacts:
    """A side in a position: LP, SP, King damage, whether its Gem is broken, the pieces in its Gem
    by name (``white_pawn``: count, none at 0), and its cards in a game played with cards."""

    lp: int
    sp: int
    king_damage: int
    gem_broken: bool
    gem: Mapping[str, int]
    cards: CardsHeld | None = None

    def as_json(self) -> dict[str, object]:
        cards: dict[str, object] = {} if self.cards is None else {"cards": self.cards.as_json()}
        return cards | {
            "lp": self.lp,
            "sp": self.sp,
            "king_damage": self.king_damage,
            "gem_broken": self.gem_broken,
            "gem": dict(self.gem),
        }


@dataclass(frozen=True, slots=True)
class PositionFacts:
    """A position as a replayed log's facts say it (``final``, the dispute report's positions):
    the turn, the player to move, the phase, the Upkeep income the player to move gained when
    their turn began by itself (left out of their SP), each side, and the board by square
    (upper case White, lower case Black)."""

    turn: int
    to_move: str
    phase: str
    upkeep_income: int
    white: SideFacts
    black: SideFacts
    board: Mapping[str, str]

    def side(self, title: str) -> SideFacts:
        """The side named ``White`` or ``Black``."""
        return self.white if title == "White" else self.black

    def as_json(self) -> dict[str, object]:
        return {
            "turn": self.turn,
            "to_move": self.to_move,
            "phase": self.phase,
            "upkeep_income": self.upkeep_income,
            "white": self.white.as_json(),
            "black": self.black.as_json(),
            "board": dict(self.board),
        }


@dataclass(frozen=True, slots=True)
class MarketFacts:
    """A module's market as the game left it (R26): how its deck is dealt, the deck, the cards
    revealed, how many are left and the next (an ordered deck's), each side's card waiting before
    its turn, the cards discarded, and whether a reveal is due."""

    order: str
    deck: tuple[str, ...]
    revealed: tuple[str, ...]
    left: int
    next: str | None
    before: Mapping[str, str | None]
    discarded: tuple[str, ...]
    reveal_due: bool

    def as_json(self) -> dict[str, object]:
        return {
            "order": self.order,
            "deck": list(self.deck),
            "revealed": list(self.revealed),
            "left": self.left,
            "next": self.next,
            "before": dict(self.before),
            "discarded": list(self.discarded),
            "reveal_due": self.reveal_due,
        }


@dataclass(frozen=True, slots=True)
class ShieldFacts:
    """A module's shields (R26): the kinds they guard, the damage reduction, the shield dice."""

    guard: tuple[str, ...]
    reduce: int
    dice: tuple[int, ...]

    def as_json(self) -> dict[str, object]:
        return {"guard": list(self.guard), "reduce": self.reduce, "dice": list(self.dice)}


@dataclass(frozen=True, slots=True)
class ModuleFacts:
    """A replayed game's module: its name, its market and its shields when it has them."""

    name: str
    market: MarketFacts | None = None
    shields: ShieldFacts | None = None

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {"name": self.name}
        if self.market is not None:
            data["market"] = self.market.as_json()
        if self.shields is not None:
            data["shields"] = self.shields.as_json()
        return data


@dataclass(frozen=True, slots=True)
class MarkerSquare:
    """A square of a scenario's marker set: its owner (None: no one's) and who holds it."""

    square: str
    owner: str | None
    held_by: str | None

    def as_json(self) -> dict[str, object]:
        return {"square": self.square, "owner": self.owner, "held_by": self.held_by}


@dataclass(frozen=True, slots=True)
class ConditionStanding:
    """A side's standing on a scenario's win condition: the condition, its marker set or value,
    when it is judged, whether it is met and the progress in words."""

    condition: str
    side: str
    markers: str | None
    value: int | None
    when: str
    met: bool
    progress: str

    def as_json(self) -> dict[str, object]:
        return {
            "condition": self.condition,
            "side": self.side,
            "markers": self.markers,
            "value": self.value,
            "when": self.when,
            "met": self.met,
            "progress": self.progress,
        }


@dataclass(frozen=True, slots=True)
class ScenarioFacts:
    """A replayed game's scenario: its settings, what each side has done towards it (by side,
    lower case), its markers with their owners and occupants, and each side's standing on each win
    condition."""

    name: str
    source: str
    first: str
    turn_limit: int | None
    core_victory: bool
    broke_enemy_gem: Mapping[str, bool]
    captured_a_piece: Mapping[str, bool]
    markers: Mapping[str, tuple[MarkerSquare, ...]]
    conditions: tuple[ConditionStanding, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "source": self.source,
            "first": self.first,
            "turn_limit": self.turn_limit,
            "core_victory": self.core_victory,
            "broke_enemy_gem": dict(self.broke_enemy_gem),
            "captured_a_piece": dict(self.captured_a_piece),
            "markers": {name: [m.as_json() for m in squares] for name, squares in self.markers.items()},
            "conditions": [c.as_json() for c in self.conditions],
        }


# --- replay --dispute (sgcheck/replay/dispute.py, docs/disputes.md) --------------------------


@dataclass(frozen=True, slots=True)
class DisputedFinding:
    """A finding the dispute report lists: its code, message and line."""

    code: str
    message: str
    line: int | None

    def as_json(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "line": self.line}


@dataclass(frozen=True, slots=True)
class FirstError:
    """The first error of a disputed log: where it is (file, line, column, turn, player, phase),
    its code and kind (``claim``, ``action``, ``setup``, ``input``, ``dice``, ``withheld``,
    ``protocol``), its message and rules, the statement it is on, and its expected and claimed
    values."""

    source: str | None
    line: int | None
    column: int | None
    turn: int | None
    player: str | None
    phase: str | None
    code: str
    kind: str
    message: str
    rules: tuple[str, ...]
    statement: str | None
    expected: Scalar
    claimed: Scalar

    def as_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "player": self.player,
            "phase": self.phase,
            "code": self.code,
            "kind": self.kind,
            "message": self.message,
            "rules": list(self.rules),
            "statement": self.statement,
            "expected": self.expected,
            "claimed": self.claimed,
        }


@dataclass(frozen=True, slots=True)
class DisputedPosition:
    """The position had the first error not been written, and when it is taken (``before``,
    ``after``, ``derived``, ``end``, ``stopped``); ``state`` is the position's data, as a replayed
    log's ``final``."""

    when: str
    state: PositionFacts

    def as_json(self) -> dict[str, object]:
        return {"when": self.when, "state": self.state.as_json()}


@dataclass(frozen=True, slots=True)
class DisputedResult:
    """A result a ruling's replay ends on: its score, winner (None: no winner) and words."""

    score: str
    winner: str | None
    detail: str

    def as_json(self) -> dict[str, object]:
        return {"score": self.score, "winner": self.winner, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class DisputedEnd:
    """How a replay of the dispute ended: its headline, the result and the final position."""

    headline: str
    result: DisputedResult | None
    final: PositionFacts | None

    def as_json(self) -> dict[str, object]:
        return {
            "headline": self.headline,
            "result": self.result.as_json() if self.result is not None else None,
            "final": self.final.as_json() if self.final is not None else None,
        }


@dataclass(frozen=True, slots=True)
class FigureDiffers:
    """A later LP, SP or income figure the log wrote that the game no longer has."""

    line: int
    player: str
    figure: str
    written: int
    game: int

    def as_json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "player": self.player,
            "figure": self.figure,
            "written": self.written,
            "game": self.game,
        }


@dataclass(frozen=True, slots=True)
class FigureTotal:
    """A player's LP or SP at the end of a ruling's replay, and the last the log wrote (None: never)."""

    player: str
    figure: str
    game: int
    written: int | None
    written_line: int | None

    def as_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "figure": self.figure,
            "game": self.game,
            "written": self.written,
            "written_line": self.written_line,
        }


@dataclass(frozen=True, slots=True)
class ResultWritten:
    """A result the log wrote that a ruling's replay no longer reaches."""

    line: int | None
    written: Scalar

    def as_json(self) -> dict[str, object]:
        return {"line": self.line, "written": self.written}


@dataclass(frozen=True, slots=True)
class PlayedOn:
    """A changed log replayed with its claims not checked: the later actions now illegal, the
    later figures that no longer hold (of how many checked), the totals, the results written that
    no longer hold, and how it ends."""

    later_illegal: tuple[DisputedFinding, ...]
    figures_checked: int
    figures_differ: tuple[FigureDiffers, ...]
    totals: tuple[FigureTotal, ...]
    result_written: tuple[ResultWritten, ...]
    end: DisputedEnd

    def as_json(self) -> dict[str, object]:
        return {
            "later_illegal": [f.as_json() for f in self.later_illegal],
            "figures_checked": self.figures_checked,
            "figures_differ": [f.as_json() for f in self.figures_differ],
            "totals": [t.as_json() for t in self.totals],
            "result_written": [r.as_json() for r in self.result_written],
            **self.end.as_json(),
        }


@dataclass(frozen=True, slots=True)
class NotApplying:
    """A ruling that does not apply to the first error, and why."""

    ruling: str
    why: str
    applies: ClassVar[bool] = False
    default: ClassVar[bool] = False

    def as_json(self) -> dict[str, object]:
        return {"ruling": self.ruling, "applies": False, "default": False, "why": self.why}


@dataclass(frozen=True, slots=True)
class ClaimCorrected:
    """``claim-corrected``: the wrong claim on ``line`` replaced by the core's number (None:
    removed), the later findings with it corrected, those that disappear and appear with it, and
    how the game ends."""

    line: int
    corrected_to: Scalar
    later: tuple[DisputedFinding, ...]
    disappear: tuple[DisputedFinding, ...]
    appear: tuple[DisputedFinding, ...]
    end: DisputedEnd
    ruling: ClassVar[str] = "claim-corrected"
    applies: ClassVar[bool] = True
    default: ClassVar[bool] = True

    def as_json(self) -> dict[str, object]:
        return {
            "ruling": self.ruling,
            "applies": True,
            "default": True,
            "line": self.line,
            "corrected_to": self.corrected_to,
            "later": [f.as_json() for f in self.later],
            "disappear": [f.as_json() for f in self.disappear],
            "appear": [f.as_json() for f in self.appear],
            **self.end.as_json(),
        }


@dataclass(frozen=True, slots=True)
class ActionUndone:
    """``action-undone``: the illegal statement on ``line`` (a ``removed`` word) taken out, and
    the game played on without it."""

    line: int
    removed: str
    played: PlayedOn
    ruling: ClassVar[str] = "action-undone"
    applies: ClassVar[bool] = True
    default: ClassVar[bool] = True

    def as_json(self) -> dict[str, object]:
        head = {"ruling": self.ruling, "applies": True, "default": True, "line": self.line, "removed": self.removed}
        return head | self.played.as_json()


@dataclass(frozen=True, slots=True)
class DiceCorrected:
    """``dice-corrected`` (DR4): the action on ``line`` played with the derived ``dice`` in place
    of the ``written_dice``, what they decide, and the game played on from there."""

    line: int
    removed: str
    dice: Scalar
    written_dice: Scalar
    decided: str | None
    played: PlayedOn
    ruling: ClassVar[str] = "dice-corrected"
    applies: ClassVar[bool] = True
    default: ClassVar[bool] = True

    def as_json(self) -> dict[str, object]:
        head: dict[str, object] = {"ruling": self.ruling, "applies": True, "default": True, "line": self.line}
        head |= {"removed": self.removed, "dice": self.dice, "written_dice": self.written_dice, "decided": self.decided}
        return head | self.played.as_json()


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``forfeit``: the ``loser`` loses and the ``winner`` wins by ``score``; ``why_lost`` says
    why when it is not the error written on the loser's turn (a commitment not opened, DR1)."""

    loser: str
    winner: str
    score: str
    default: bool
    why_lost: str | None = None
    ruling: ClassVar[str] = "forfeit"
    applies: ClassVar[bool] = True

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {"ruling": self.ruling, "applies": True, "default": self.default}
        data |= {"loser": self.loser, "winner": self.winner, "score": self.score}
        if self.why_lost is not None:
            data["why_lost"] = self.why_lost
        return data


@dataclass(frozen=True, slots=True)
class GameVoid:
    """``game-void``: the game has no result and no winner."""

    default: bool
    ruling: ClassVar[str] = "game-void"
    applies: ClassVar[bool] = True

    def as_json(self) -> dict[str, object]:
        return {"ruling": self.ruling, "applies": True, "default": self.default, "score": None}


#: What a ruling of the dispute profile makes of the game.
Ruling = NotApplying | ClaimCorrected | ActionUndone | DiceCorrected | Forfeit | GameVoid


@dataclass(frozen=True, slots=True)
class DisputeReport:
    """The dispute report of a log (``replay --dispute``, docs/disputes.md): the house-rule
    profile, whether the log is legal, its first error, the position had it not been written and
    each ruling (in the profile's order), or for a legal log how it ends."""

    profile: str
    legal: bool
    first: FirstError | None
    position: DisputedPosition | None
    rulings: tuple[Ruling, ...]
    end: DisputedEnd | None

    def as_json(self) -> dict[str, object]:
        """The report as JSON-compatible data: the JSON report's ``dispute``."""
        return {
            "profile": self.profile,
            "legal": self.legal,
            "first": self.first.as_json() if self.first is not None else None,
            "position": self.position.as_json() if self.position is not None else None,
            "rulings": [r.as_json() for r in self.rulings],
            "end": self.end.as_json() if self.end is not None else None,
        }


# --- replay's timeline (sgcheck/replay/timeline.py, sgcheck/replay/explain.py) ----------------


@dataclass(frozen=True, slots=True)
class FactPart:
    """One part of an explained fact: a card's share of a bonus, a die, the SP and LP paid..."""

    label: str
    value: int | str

    def as_json(self) -> dict[str, object]:
        return {"label": self.label, "value": self.value}


@dataclass(frozen=True, slots=True)
class ExplainedFact:
    """One number the core worked out for a statement (``sgcheck/replay/explain.py`` lists the
    keys): what it is (``key``, and the ``label`` shown for it), its value, the words of it, the
    rules it follows and its parts."""

    key: str
    label: str
    value: bool | int | str  # a number, a flag (hit, success, converted), or a code, score or piece
    text: str
    rules: tuple[str, ...] = ()
    parts: tuple[FactPart, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "label": self.label,
            "value": self.value,
            "text": self.text,
            "rules": list(self.rules),
            "parts": [part.as_json() for part in self.parts],
        }


@dataclass(frozen=True, slots=True)
class SideTotals:
    """A side's LP, SP and King damage."""

    lp: int
    sp: int
    king_damage: int

    def as_json(self) -> dict[str, object]:
        return {"lp": self.lp, "sp": self.sp, "king_damage": self.king_damage}


@dataclass(frozen=True, slots=True)
class Totals:
    """Both sides' totals after an explained statement."""

    white: SideTotals
    black: SideTotals

    def as_json(self) -> dict[str, object]:
        return {"white": self.white.as_json(), "black": self.black.as_json()}


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why a statement or an end of turn came out as it did: where it is (line, turn, side,
    phase), the statement as written, whether it was legal, its kind (``statement`` or
    ``turn_end``), the facts the core worked out, in order, and the totals after it."""

    line: int
    turn: int
    side: str  # white, black
    phase: str  # upkeep, main1, battle, main2, end
    statement: str
    legal: bool
    kind: str
    facts: tuple[ExplainedFact, ...]
    after: Totals

    def as_json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "turn": self.turn,
            "side": self.side,
            "phase": self.phase,
            "statement": self.statement,
            "legal": self.legal,
            "kind": self.kind,
            "facts": [fact.as_json() for fact in self.facts],
            "after": self.after.as_json(),
        }


class Unchanged(Enum):
    """A frame's Gems or cards, unchanged since the previous frame (written ``0``)."""

    UNCHANGED = 0


UNCHANGED = Unchanged.UNCHANGED


@dataclass(frozen=True, slots=True)
class CardsShown:
    """Both sides' cards at a frame: the Relics in play, the Spells cast and the hand sizes."""

    white_in_play: tuple[str, ...]
    black_in_play: tuple[str, ...]
    white_cast: tuple[str, ...]
    black_cast: tuple[str, ...]
    white_hand: int
    black_hand: int

    def as_json(self) -> list[object]:
        return [
            list(self.white_in_play),
            list(self.black_in_play),
            list(self.white_cast),
            list(self.black_cast),
            self.white_hand,
            self.black_hand,
        ]


@dataclass(frozen=True, slots=True)
class Frame:
    """The position after a phase label, a statement or an end of turn, compactly (the fields of
    ``sgcheck/replay/timeline.py``, in their order): its line and kind, the turn, side and
    phase, the squares that changed, the damage dealt this turn, the totals, the Gems and cards
    (:data:`UNCHANGED` when they are as at the frame before; cards None in a game without
    them), the squares the statement names and why it came out as it did."""

    line: int
    kind: int
    turn: int
    side: int
    phase: int
    board: str
    damage: tuple[int, ...]
    totals: tuple[int, int, int, int, int, int]
    gems: str | Unchanged
    cards: CardsShown | Unchanged | None
    squares: tuple[int, int]
    explained: Explanation | None

    def as_json(self) -> list[object]:
        """The frame as JSON-compatible data: a list, field by field."""
        explained = self.explained.as_json() if self.explained is not None else None
        return [*self.position_json(), explained]

    def position_json(self) -> list[object]:
        """Fields 0 to 10 of :meth:`as_json`: the position, without the explanation."""
        return [
            self.line,
            self.kind,
            self.turn,
            self.side,
            self.phase,
            self.board,
            list(self.damage),
            list(self.totals),
            self.gems if isinstance(self.gems, str) else 0,
            self.cards.as_json() if isinstance(self.cards, CardsShown) else None if self.cards is None else 0,
            list(self.squares),
        ]


@dataclass(frozen=True, slots=True)
class TimelineMarker:
    """A scenario's named markers and their squares (0 = a1 … 63 = h8)."""

    name: str
    squares: tuple[int, ...]

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "squares": list(self.squares)}


@dataclass(frozen=True, slots=True)
class TimelineResult:
    """How the game ended, as the page shows it: its score and the words of it."""

    score: str
    detail: str

    def as_json(self) -> dict[str, object]:
        return {"score": self.score, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Timeline:
    """A replay's positions (``ReplayOptions(timeline=True)``): the log's source name, the frames,
    the frame each finding is shown at (``marks``: its index in the findings, the frame), the
    game's result and the first frame at which it is over (None: it never ends), the scenario's
    markers, the log's header tags as written, and the explanations of the frames, in order.
    Once a log's part of the HTML page is drawn, only the explanations are kept
    (:meth:`explanations_only`)."""

    source: str
    frames: tuple[Frame, ...]
    marks: tuple[tuple[int, int], ...]
    result: TimelineResult | None
    ended: int | None
    markers: tuple[TimelineMarker, ...]
    header: tuple[tuple[str, str], ...]
    explanations: tuple[Explanation, ...]

    def explanations_only(self) -> Timeline:
        """The timeline without its positions: what the JSON report's ``timeline`` lists."""
        return Timeline(self.source, (), (), self.result, self.ended, (), (), self.explanations)

    def as_json(self) -> dict[str, object]:
        """The timeline as JSON-compatible data, the fields by name (each frame a list)."""
        return {
            "source": self.source,
            "frames": [frame.as_json() for frame in self.frames],
            "marks": [list(mark) for mark in self.marks],
            "result": self.result.as_json() if self.result is not None else None,
            "ended": self.ended,
            "markers": [marker.as_json() for marker in self.markers],
            "header": [list(tag) for tag in self.header],
            "explanations": [explained.as_json() for explained in self.explanations],
        }


@dataclass(frozen=True, slots=True)
class ReplayFacts:
    """A replayed log: what its summary says, as data (``replay/summary.py`` builds it).

    ``result`` is the game's result (score, outcome, winner, turn, detail) and ``final`` the
    position after the last action written, both None when there is none; ``scenario`` and
    ``module`` are said only for a game that has them. ``timeline`` holds the HTML page's
    positions and each statement's explanation (``replay --format html``, ``--timeline``),
    ``dispute`` the ruling of ``replay --dispute``: neither is part of ``as_json``, the JSON report
    writes each as a section of its own.
    """

    legal: bool
    stopped: bool
    ruleset: str
    house_rules: tuple[str, ...]
    turns: int
    first_turn: str | None
    last_turn: str | None
    actions: int
    result: GameEnd | None = None
    final: PositionFacts | None = None
    scenario: ScenarioFacts | None = None
    module: ModuleFacts | None = None
    timeline: Timeline | None = None
    dispute: DisputeReport | None = None

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "legal": self.legal,
            "stopped": self.stopped,
            "ruleset": self.ruleset,
            "house_rules": list(self.house_rules),
            "turns": self.turns,
            "first_turn": self.first_turn,
            "last_turn": self.last_turn,
            "actions": self.actions,
            "result": self.result.as_json() if self.result is not None else None,
            "final": self.final.as_json() if self.final is not None else None,
        }
        if self.scenario is not None:
            data["scenario"] = self.scenario.as_json()
        if self.module is not None:
            data["module"] = self.module.as_json()
        return data


@dataclass(frozen=True, slots=True)
class ManifestFacts(SummaryRecord):
    """A pack's manifest: the pack's name and version, its ruleset, scenario and module when it
    names them (None: a manifest that does not say, or could not be read), its cards and files."""

    cards: int
    files: int
    pack: str | None = None
    version: str | None = None
    ruleset: str | None = None
    scenario: str | None = None
    module: str | None = None

    def as_json(self) -> dict[str, object]:
        named = {"pack": self.pack, "version": self.version, "ruleset": self.ruleset}
        named |= {"scenario": self.scenario, "module": self.module}
        return {key: value for key, value in named.items() if value is not None} | {
            "cards": self.cards,
            "files": self.files,
        }


@dataclass(frozen=True, slots=True)
class CardFileFacts:
    """A card file: how many cards it holds."""

    cards: int

    def as_json(self) -> dict[str, object]:
        return {"cards": self.cards}


@dataclass(frozen=True, slots=True)
class ScenarioFileFacts:
    """A scenario file that loads: its scenario's name."""

    scenario: str

    def as_json(self) -> dict[str, object]:
        return {"scenario": self.scenario}


@dataclass(frozen=True, slots=True)
class FileResult:
    """The outcome of checking one input (a game log, a card file or a pack).

    ``summary`` is the block printed after the diagnostics in text output (the final board of a
    replay, a pack's name and size), as a typed record the report layer spells (or text already
    spelled); ``facts`` is its machine-readable form, a typed
    record (:class:`Facts`; None: nothing to say), whose JSON form the JSON output writes.
    ``suppressed`` are the findings an in-source suppression silenced: listed, counted, never an
    error of the run. ``hidden`` are the codes of the findings the run's selection (a
    configuration, or the command line) left out: counted in the report's summary, so that no
    finding disappears unsaid.
    """

    path: str
    diagnostics: tuple[Diagnostic, ...]
    summary: str | SummaryRecord | None = None
    facts: Facts | None = None
    suppressed: tuple[Suppressed, ...] = ()
    hidden: tuple[str, ...] = ()

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


@dataclass(frozen=True, slots=True)
class Run:
    """Everything one command invocation reports.

    ``sources`` maps a span's ``source`` name to the text it points into, so the
    text renderer can show the offending line. ``rules`` is the metadata of every
    code that may appear (used by SARIF's rule table).
    """

    command: str
    files: tuple[FileResult, ...]
    sources: Mapping[str, str] = field(default_factory=dict)
    rules: Mapping[str, CodeInfo] = field(default_factory=dict)
    tool_version: str = ""
    #: where the run's configuration came from and what it hid (None: not said)
    configuration: Mapping[str, object] | None = None

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return tuple(d for f in self.files for d in f.diagnostics)

    @property
    def has_errors(self) -> bool:
        return any(f.has_errors for f in self.files)

    @property
    def suppressed(self) -> tuple[Suppressed, ...]:
        return tuple(s for f in self.files for s in f.suppressed)


# The results of ``sgcheck simulate`` (docs/simulate.md): a run's report and a gauntlet's, each a
# tree of frozen records whose root says its JSON document (``as_json``, schemas/simulate.schema.json).


def _interval(interval: tuple[float, float] | None) -> list[float] | None:
    return list(interval) if interval is not None else None


@dataclass(frozen=True, slots=True)
class WinRate:
    """A side's win rate over some games: its counts, the rate and its 95% Wilson interval (both
    None without games: 0 of 0 is unknown), and whether the interval is too wide to lean on."""

    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float | None
    interval: tuple[float, float] | None
    small_sample: bool

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "interval": _interval(self.interval),
            "small_sample": self.small_sample,
        }


@dataclass(frozen=True, slots=True)
class FirstPlayerRate(WinRate):
    """How often the first player wins, and its edge: the share of decided games it wins minus
    one half (None: no game decided)."""

    advantage: float | None

    def as_json(self) -> dict[str, object]:
        return WinRate.as_json(self) | {"advantage": self.advantage}


@dataclass(frozen=True, slots=True)
class SeatRates:
    """A side's win rate in the games it played first and in those it played second."""

    first: WinRate
    second: WinRate

    def as_json(self) -> dict[str, object]:
        return {"first": self.first.as_json(), "second": self.second.as_json()}


class _Record(Protocol):
    def as_json(self) -> dict[str, object]: ...


_Part = TypeVar("_Part", bound=_Record)


@dataclass(frozen=True, slots=True)
class BySide(Generic[_Part]):
    """One record per side of a run: the pack's and the other side's (a win rate, a side's seats)."""

    pack: _Part
    against: _Part

    def of(self, role: str) -> _Part:
        """The record of ``role`` (``pack`` or ``against``)."""
        return self.pack if role == "pack" else self.against

    def as_json(self) -> dict[str, object]:
        return {"pack": self.pack.as_json(), "against": self.against.as_json()}


@dataclass(frozen=True, slots=True)
class RunSettings:
    """What a run was played with: the policy, the seed, the games (per side and in all), the
    scenario's label (None: the core start), the turn limit (None: none), the most rounds a game
    may last, and who moves first."""

    policy: str
    seed: int
    games_per_side: int
    games: int
    scenario: str | None
    turn_limit: int | None
    max_turns: int
    first_player: str

    def settings_json(self) -> dict[str, object]:
        """Everything but the policy, in the order the reports write them."""
        return {
            "seed": self.seed,
            "games_per_side": self.games_per_side,
            "games": self.games,
            "scenario": self.scenario,
            "turn_limit": self.turn_limit,
            "max_turns": self.max_turns,
            "first_player": self.first_player,
        }

    def as_json(self) -> dict[str, object]:
        return {"policy": self.policy} | self.settings_json()


@dataclass(frozen=True, slots=True)
class SimulationRun:
    """A run of one pack against another: the two sides' labels, the other side's policy (the
    same as the pack's unless said), and the run's settings."""

    pack: str
    against: str
    against_policy: str
    settings: RunSettings

    def label(self, role: str) -> str:
        """The label of ``role`` (``pack`` or ``against``)."""
        return self.pack if role == "pack" else self.against

    def as_json(self) -> dict[str, object]:
        return {
            "pack": self.pack,
            "against": self.against,
            "policy": self.settings.policy,
            "against_policy": self.against_policy,
        } | self.settings.settings_json()


@dataclass(frozen=True, slots=True)
class LengthBar:
    """How many games lasted so many turns."""

    turns: int
    games: int

    def as_json(self) -> dict[str, object]:
        return {"turns": self.turns, "games": self.games}


@dataclass(frozen=True, slots=True)
class GameLength:
    """How long the games lasted, in turns (None: no game), and the histogram of lengths."""

    mean: float | None
    median: float | None
    min: int | None
    max: int | None
    histogram: tuple[LengthBar, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "mean": self.mean,
            "median": self.median,
            "min": self.min,
            "max": self.max,
            "histogram": [bar.as_json() for bar in self.histogram],
        }


@dataclass(frozen=True, slots=True)
class Endings:
    """How many games ended each way (core §7, R18, R24): King conversion, the tiebreak at the
    turn limit, 1000 LP, a scenario's conditions, or no rule at all (unfinished: a draw)."""

    #: The kinds of ending, in the order the reports list them.
    KINDS: ClassVar[tuple[str, ...]] = ("conversion", "turn-limit", "lp1000", "scenario", "unfinished")

    conversion: int
    turn_limit: int
    lp1000: int
    scenario: int
    unfinished: int

    @classmethod
    def counted(cls, kinds: Mapping[str, int]) -> Endings:
        """The endings from a count per kind (a kind not counted: 0)."""
        conversion, turn_limit, lp1000, scenario, unfinished = (kinds.get(kind, 0) for kind in cls.KINDS)
        return cls(conversion, turn_limit, lp1000, scenario, unfinished)

    def counts(self) -> tuple[tuple[str, int], ...]:
        """Each kind and its count, in the order of :attr:`KINDS`."""
        found = (self.conversion, self.turn_limit, self.lp1000, self.scenario, self.unfinished)
        return tuple(zip(self.KINDS, found, strict=True))

    def as_json(self) -> dict[str, object]:
        return dict(self.counts())


@dataclass(frozen=True, slots=True)
class Captures:
    """The pieces captured over a run, and in how many of its games."""

    total: int
    games: int

    def as_json(self) -> dict[str, object]:
        return {"total": self.total, "games": self.games}


@dataclass(frozen=True, slots=True)
class Impact:
    """The impact of taking cards out of the pack, on the same games: the pack side's win rate
    with them and without, the mean paired difference and its 95% interval (None: no game), how
    many results changed each way, and McNemar's exact p-value and verdict."""

    cards: tuple[str, ...]
    games: int
    with_cards: WinRate
    without_cards: WinRate
    impact: float | None
    interval: tuple[float, float] | None
    better_with: int
    worse_with: int
    p_value: float
    significant: bool
    small_sample: bool

    def as_json(self) -> dict[str, object]:
        return {
            "cards": list(self.cards),
            "games": self.games,
            "with": self.with_cards.as_json(),
            "without": self.without_cards.as_json(),
            "impact": self.impact,
            "interval": _interval(self.interval),
            "better_with": self.better_with,
            "worse_with": self.worse_with,
            "p_value": self.p_value,
            "significant": self.significant,
            "small_sample": self.small_sample,
        }


@dataclass(frozen=True, slots=True)
class CardRecord:
    """A card of one side's pack over a run: how often drafted and played (rates None without
    games), its side's win rate with it played and not, the margin between them, its status
    (``played``, ``drafted, never played``, ``never drafted``), whether it dominates, and its
    impact when ``--impact`` measured it (None: not measured)."""

    card: str
    side: str
    kind: str
    status: str
    drafted: int
    drafted_rate: float | None
    played: int
    played_rate: float | None
    when_played: WinRate
    when_not_played: WinRate
    margin: float | None
    small_sample: bool
    dominant: bool
    impact: Impact | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "side": self.side,
            "kind": self.kind,
            "status": self.status,
            "drafted": self.drafted,
            "drafted_rate": self.drafted_rate,
            "played": self.played,
            "played_rate": self.played_rate,
            "when_played": self.when_played.as_json(),
            "when_not_played": self.when_not_played.as_json(),
            "margin": self.margin,
            "small_sample": self.small_sample,
            "dominant": self.dominant,
            "impact": self.impact.as_json() if self.impact is not None else None,
        }


@dataclass(frozen=True, slots=True)
class EconomyPoint:
    """A side's mean LP and SP after its own turn ``turn``, over the games still going then."""

    turn: int
    games: int
    lp: float
    sp: float

    def as_json(self) -> dict[str, object]:
        return {"turn": self.turn, "games": self.games, "lp": self.lp, "sp": self.sp}


@dataclass(frozen=True, slots=True)
class Economy:
    """Each side's economy curve, one point per own turn."""

    pack: tuple[EconomyPoint, ...]
    against: tuple[EconomyPoint, ...]

    def of(self, role: str) -> tuple[EconomyPoint, ...]:
        """The curve of ``role`` (``pack`` or ``against``)."""
        return self.pack if role == "pack" else self.against

    def as_json(self) -> dict[str, object]:
        return {"pack": [p.as_json() for p in self.pack], "against": [p.as_json() for p in self.against]}


#: The version of the JSON document of a simulation and of a gauntlet (schemas/simulate.schema.json).
SIMULATION_VERSION = 2


class _LegacyData:
    """The deprecated ``data`` of a simulation's and a gauntlet's report: their JSON document."""

    __slots__ = ()

    def as_json(self) -> dict[str, object]:
        raise NotImplementedError

    @property
    def data(self) -> dict[str, object]:
        """Deprecated: the report's JSON document; read the record's fields, or ``as_json()``."""
        import warnings

        warnings.warn(
            f"{type(self).__name__}.data is deprecated: read its fields, or as_json() for the JSON document",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.as_json()


@dataclass(frozen=True, slots=True)
class SimulationReport(_LegacyData):
    """What ``sgcheck simulate`` reports of one pack against another (docs/simulate.md): the run's
    settings, win rates, the first player's edge, game length, endings, each card's record,
    economy curves, the impact of taking cards out, the dominant cards and the warnings, as
    :mod:`sgcheck.simulate.stats` summarises the games. ``as_json`` is its JSON document."""

    run: SimulationRun
    sides: BySide[WinRate]
    seats: BySide[SeatRates]
    first_player: FirstPlayerRate
    length: GameLength
    endings: Endings
    captures: Captures
    cards: tuple[CardRecord, ...]
    economy: Economy
    impact: tuple[Impact, ...]
    dominant: tuple[str, ...]
    warnings: tuple[str, ...]

    def card(self, name: str) -> CardRecord:
        """The first record of the card ``name``; KeyError when the report has none."""
        for card in self.cards:
            if card.card == name:
                return card
        raise KeyError(name)

    def as_json(self) -> dict[str, object]:
        """The report's JSON document (``--format json``)."""
        return {
            "version": SIMULATION_VERSION,
            "run": self.run.as_json(),
            "sides": self.sides.as_json(),
            "seats": self.seats.as_json(),
            "first_player": self.first_player.as_json(),
            "length": self.length.as_json(),
            "endings": self.endings.as_json(),
            "captures": self.captures.as_json(),
            "cards": [card.as_json() for card in self.cards],
            "economy": self.economy.as_json(),
            "impact": [item.as_json() for item in self.impact],
            "dominant": list(self.dominant),
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True, slots=True)
class Match:
    """One match of a gauntlet: its two packs, its games, each side's wins and the draws, the
    first pack's win rate and how the games ended."""

    pack: str
    against: str
    games: int
    pack_wins: int
    against_wins: int
    draws: int
    pack_rate: WinRate
    endings: Endings

    def as_json(self) -> dict[str, object]:
        return {
            "pack": self.pack,
            "against": self.against,
            "games": self.games,
            "pack_wins": self.pack_wins,
            "against_wins": self.against_wins,
            "draws": self.draws,
            "pack_rate": self.pack_rate.as_json(),
            "endings": self.endings.as_json(),
        }


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's standing over all its games: wins, draws and losses, its score (wins and half
    the draws, a share; None: no game) and its 95% interval."""

    entrant: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float | None
    interval: tuple[float, float] | None
    small_sample: bool

    def as_json(self) -> dict[str, object]:
        return {
            "entrant": self.entrant,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "interval": _interval(self.interval),
            "small_sample": self.small_sample,
        }


@dataclass(frozen=True, slots=True)
class GauntletReport(_LegacyData):
    """What ``sgcheck simulate`` reports of several packs, each against every other: the run's
    settings, the entrants, each match, the standings (best first), the endings and captures over
    every game, and the warnings (:mod:`sgcheck.simulate.gauntlet`). ``as_json`` is its JSON
    document."""

    run: RunSettings
    entrants: tuple[str, ...]
    matches: tuple[Match, ...]
    standings: tuple[Standing, ...]
    endings: Endings
    captures: int
    warnings: tuple[str, ...]

    def as_json(self) -> dict[str, object]:
        """The report's JSON document (``--format json``)."""
        return {
            "version": SIMULATION_VERSION,
            "kind": "gauntlet",
            "run": self.run.as_json(),
            "entrants": list(self.entrants),
            "matches": [match.as_json() for match in self.matches],
            "standings": [standing.as_json() for standing in self.standings],
            "endings": self.endings.as_json(),
            "captures": self.captures,
            "warnings": list(self.warnings),
        }
