"""The contract checker plays the pack: a bounded search of games with the core engine (core §8).

Judging a card by its wording fails on the next wording; what core §8 forbids is a consequence
in a game. So for each combination of cards that can meet in a game (:func:`combinations`), the
explorer deals them into the players' hands at the probe positions of
:mod:`sgcheck.contract.analysis.probes` and plays: every action comes from the core's own rules
(:func:`sgcheck.core.engine.apply`, the function replay runs), every step goes through the same
watch replay keeps (:func:`sgcheck.core.watch.observe`), and every state reached is swept over the
situations the cards can tell apart (:func:`sgcheck.contract.analysis.probes.sweep`). What it finds is a
path from a probe to a break, which :mod:`sgcheck.contract.proof` writes as a log that replays to it.

The search is bounded, and the bounds are part of every finding (:data:`BOUNDS`):

- **turns**: 6 plies, three turns of each player, so that lasting effects can accumulate over
  several uses and triggers, and a denial can meet the Upkeeps of two consecutive turns;
- **within a turn**: a depth-first search over the actions the combination can matter to
  (card plays and uses always, first; moves only when a card prices, triggers on or grants
  moves, the move back first after a move; attacks when a card changes or triggers on them;
  the Gem attempts when a card touches them; the conversion always, since every exchange is
  judged with the core's own included), with the dice chosen both ways (hit and miss, success
  and failure), positions seen before in the turn dropped, at most :attr:`Bounds.actions`
  actions a turn (and a few of each kind) and :attr:`Bounds.nodes` steps;
- **between turns**: a beam of :attr:`Bounds.beam` ends of turn carried on (the busiest with
  cards first, then the richest, then the first found);
- **past the turns played**: copies that a trigger or a use keeps adding for good are projected
  (:data:`PROJECTED` more, swept), and what that breaks is reported as projected;
- **the witness search** (:mod:`sgcheck.contract.analysis.witness`): for a break the reasoning
  finds and no game played shows, a game directed at the events it needs (:meth:`_Search._direct`,
  :func:`witness_for`, :func:`_directed_show`); what it shows is an error with its path, what it
  does not stays a warning with its bounds.

Findings are errors, except what several cards do only together (a cap passed, a King left
without damage: the R20 warning, as the player chooses to bring them together) and a steep price
(a judgment call).
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import random
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from sgcheck.contract.analysis import reachable, witness
from sgcheck.contract.analysis.meeting import Hands, Topic, combinations, shape, topics
from sgcheck.contract.analysis.probes import PROBES, Probe, Swept, probes_for, start, sweep, sweep_key
from sgcheck.contract.analysis.witness import Goal
from sgcheck.core import caps
from sgcheck.core.actions import (
    Action,
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
from sgcheck.core.cards import model as A
from sgcheck.core.cards.attack_parts import attack_part
from sgcheck.core.cards.semantics import LASTING_ACTIONS, Share, targets, until
from sgcheck.core.cards.table import CardsState, Lasting, ply
from sgcheck.core.engine import apply
from sgcheck.core.legal import attacks, moves_from, summons, teleports
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import PIECE_VALUES, Color, Kind
from sgcheck.core.play.cards import acts_on
from sgcheck.core.record import pickle_by_fields
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.scenario import Scenario
from sgcheck.core.squares import Square
from sgcheck.core.state import GameState
from sgcheck.core.watch import START, Watch, observe, position_key
from sgcheck.core.windows import ACTION_WINDOWS, next_phase
from sgcheck.diagnostics import Severity
from sgcheck.distribute import map_ordered


@dataclass(frozen=True, slots=True)
class Bounds:
    """How far the explorer looks (see the module's docstring)."""

    plies: int = 6
    actions: int = 10
    nodes: int = 30
    beam: int = 2
    partners: int = 2  # cards met per card when forming combinations of two
    thirds: int = 1  # cards added to each pair when forming combinations of three

    def describe(self) -> str:
        return (
            f"explored {self.plies // 2} turns of each player from each probe position, "
            f"at most {self.actions} actions and {self.nodes} steps a turn, {self.beam} ends of turn kept"
        )


BOUNDS = Bounds()

_HIT, _MISS = (0, 1), (0, 0)
_SUCCESS, _FAILURE = (6, 6, 6), (1, 1, 1)


@dataclass(frozen=True, slots=True)
class Found:
    """A break found in play: what, by which cards, where, and the path that leads to it."""

    kind: str  # a watch kind (sgcheck.core.watch.KINDS) or a swept one ("cap", "caps-stacked", "negative-cost")
    cards: tuple[str, ...]
    message: str
    situation: str
    probe: Probe
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    path: tuple[Action, ...]  # from the probe's start, its prelude included
    severity: Severity = Severity.ERROR
    numbers: tuple[tuple[str, int], ...] = ()
    what: str = ""  # for a swept break: "to-hit", "damage", "reroll" or the action priced
    # a break the copies of an effect reach only beyond the turns played: how it was projected
    projected: str = ""

    @property
    def turns(self) -> int:
        return sum(1 for a in self.path if isinstance(a, EndTurn)) + 1


@dataclass(slots=True)
class Exploration:
    """What exploring a pack found, and how much it looked at."""

    findings: list[Found] = field(default_factory=list)
    combinations: int = 0
    states: int = 0
    bounds: Bounds = BOUNDS


# --- the search --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Node:
    state: GameState
    watch: Watch
    path: tuple[Action, ...]
    depth: int = 0


def _moves(state: GameState) -> Iterator[Action]:
    """For each own piece, the cheapest movers first (the King steps for 1): its first and last
    destination (two distances, two directions)."""
    me = state.to_move
    own = [(sq, cell) for sq, cell in enumerate(state.board) if cell is not None and cell.color is me]
    own.sort(key=lambda item: PIECE_VALUES.get(item[1].kind, 0))
    for sq, _ in own:
        found = list(moves_from(state, Square(sq)))
        if found:
            yield found[0]
            if len(found) > 1:
                yield found[-1]


#: The phases each action is tried in: its window (core §2, R03).
_WINDOWS = {action: window.phases for action, window in ACTION_WINDOWS.items()}


def _targets(state: GameState, aims: tuple[A.Target, ...]) -> list[tuple[Square, Kind]]:
    """The pieces a card can be aimed at, as the core reads its ``aims`` (R22): each piece they all
    name, the enemy's before the mover's own, the first of each kind, at most two kinds."""
    me = state.to_move
    found: dict[tuple[Color, Kind], int] = {}
    for side in (me.other, me):
        for sq, cell in enumerate(state.board):
            if cell is None or cell.color is not side or (side, cell.kind) in found:
                continue
            if all(targets(aim, me, cell) for aim in aims):
                found[side, cell.kind] = sq
    return [(Square(sq), kind) for (_, kind), sq in islice(found.items(), 2)]


def _card_actions(state: GameState) -> Iterator[Action]:
    """Card plays and uses (the engine refuses those out of their phase or past the activations),
    each in the form the core accepts (R22): without a target when the card acts on no piece as it
    is played or used, else on up to two pieces of different kinds its effects name (a card's other
    effects, triggers among them, never change how it is played)."""
    cards = state.cards
    if cards is None or state.turn.activations >= caps.ACTIVATIONS_PER_TURN:
        return
    me = state.to_move
    for name in dict.fromkeys(cards.hand(me)):
        aims = acts_on(cards.by_name[name])
        if aims:
            for sq, kind in _targets(state, aims):
                yield Play(name, sq, kind)
        else:
            yield Play(name)
    for relic in cards.in_play:
        card = cards.by_name[relic.card]
        if relic.owner is me and card.mode is A.Mode.ACTIVATED:
            aims = acts_on(card, use=True)
            if aims:
                for sq, kind in _targets(state, aims):
                    yield Activate(relic.card, target=sq, target_kind=kind)
            else:
                yield Activate(relic.card)


#: How many times more actions of a kind, and steps, a turn of a game played on to show a break takes.
_EAGER = 2

#: At most this many actions of a kind along one turn of a search: enough to repeat a cycle
#: (out and back), to stack two uses, to try again after a failed attempt.
_PER_TURN: dict[type, int] = {Move: 3, Attack: 2, Convert: 2, Break: 3, Repair: 3, Summon: 2, Teleport: 2}


def candidates(
    state: GameState,
    wanted: frozenset[Topic],
    taken: dict[type, int] | None = None,
    last: Action | None = None,
    eager: bool = False,
    prey: Color | None = None,
) -> Iterator[Action]:
    """The actions worth trying in ``state`` for cards about ``wanted``: the cards' plays and uses,
    then the way forward (so that a depth-first search plays the cards and reaches the end of the
    turn before it tries anything else), then the actions the cards are about, and no
    more of a kind than :data:`_PER_TURN` allows given ``taken`` (the turn's actions so far)."""
    taken = taken or {}

    def room(kind: type) -> bool:
        return taken.get(kind, 0) < _PER_TURN[kind] * (_EAGER if eager else 1)

    phase = state.turn.phase
    nxt = next_phase(phase)
    yield from _card_actions(state)  # the cards are what is explored: played and used first
    forward = EndTurn() if nxt is None else EnterPhase(nxt)
    if not eager:
        yield forward
    yield from _acting(state, wanted, room, last, eager, prey)
    if eager:  # a game played on: the phase's actions before the way forward, so that events happen
        yield forward


def _acting(
    state: GameState,
    wanted: frozenset[Topic],
    room: Callable[[type], bool],
    last: Action | None,
    eager: bool,
    prey: Color | None,
) -> Iterator[Action]:
    """The actions of the phase the cards are about (see :func:`candidates`)."""
    phase = state.turn.phase
    if phase in _WINDOWS[Break] and (Topic.GEM in wanted or state.mover.gem_broken):
        me, them = state.mover, state.opponent
        if me.gem_broken and room(Repair):
            yield Repair(_FAILURE)
            yield Repair(_SUCCESS)
        if not them.gem_broken and room(Break):
            yield Break(_FAILURE)
            yield Break(_SUCCESS)
    if phase in _WINDOWS[Summon]:
        if Topic.SUMMON in wanted and room(Summon):
            yield from islice(summons(state), 2)
    elif phase in _WINDOWS[Move]:
        if phase in _WINDOWS[Convert] and room(Convert):
            left = min(state.mover.sp, caps.CONVERSION_CAP_SP - state.turn.converted_sp)
            left -= left % caps.CONVERSION_SP_PER_LP
            if left >= caps.CONVERSION_SP_PER_LP:
                yield Convert(left)
                if left > caps.CONVERSION_SP_PER_LP and not state.turn.converted_sp:
                    yield Convert(caps.CONVERSION_SP_PER_LP)
        if Topic.MOVE in wanted and room(Move):
            if isinstance(last, Move):  # back where it came from: the other half of a cycle
                yield Move(last.to, last.frm, last.via)
            yield from islice(_moves(state), 6)
    elif phase in _WINDOWS[Attack]:
        if Topic.ATTACK in wanted and room(Attack):
            # the attacks on the weakest pieces first, the King (20 hit points) last: a capture, and
            # what it fires, comes with one hit; a game played on to show a break keeps the board's
            # order (the King last), so that pieces stay to act in the situation it shows, except
            # on the ``prey``'s pieces, weakest first, when their capture is the event it needs
            some = islice(attacks(state), _ATTACKS_SEEN)
            if eager:
                found = sorted(some, key=lambda a: _hunted(state, a, prey))[:4]
            else:
                found = heapq.nsmallest(4, some, key=lambda a: _weakness(state, a))
            for action in found:
                assert isinstance(action, Attack)
                yield action.replace(roll=_HIT)
                yield action.replace(roll=_MISS)
                if Topic.REROLL in wanted:
                    yield action.replace(roll=_MISS, second=_HIT)
                    yield action.replace(roll=_MISS, second=_HIT, advantage=True)
    elif phase in _WINDOWS[Teleport] and Topic.TELEPORT in wanted and room(Teleport):
        yield from islice(teleports(state), 2)


_KING_WEAKNESS = 99


def _hunted(state: GameState, action: Action, prey: Color | None) -> int:
    """The order of an attack in a game played on: the ``prey``'s pieces, weakest first, then the
    others in the board's order, the King last."""
    assert isinstance(action, Attack)
    weakness = _weakness(state, action)
    cell = state.board[action.to]
    if prey is not None and cell is not None and cell.color is prey and weakness != _KING_WEAKNESS:
        return weakness
    return _KING_WEAKNESS if weakness == _KING_WEAKNESS else _KING_WEAKNESS - 1


#: The attacks of a position looked at to pick the four tried (the weakest targets among them).
_ATTACKS_SEEN = 12


def _weakness(state: GameState, action: Action) -> int:
    """How hard the piece an attack aims at is to capture: its value (a Pawn falls to one hit)."""
    assert isinstance(action, Attack)
    cell = state.board[action.to]
    if cell is None or cell.kind is Kind.KING:  # a King has 20 hit points (core §4.4)
        return _KING_WEAKNESS
    return PIECE_VALUES.get(cell.kind, 0)


class _Search:
    """One exploration of one hand at one probe."""

    def __init__(
        self,
        probe: Probe,
        cards: tuple[A.Card, ...],
        hands: Hands,
        ruleset: Ruleset,
        bounds: Bounds,
        found: dict[tuple[object, ...], Found],
        swept: set[object],
        tried: set[object] | None = None,
        others: dict[tuple[object, ...], list[Found]] | None = None,
    ) -> None:
        self.probe, self.hands, self.bounds, self.found = probe, hands, bounds, found
        self.cards = cards
        self.wanted = frozenset().union(*(topics(c) for c in cards)) if cards else frozenset()
        self.ruleset = ruleset
        self.states = 0
        # whether the last directed game chose an action after the first event of some turn (the
        # game one event a turn differs from it)
        self.paced_apart = False
        self.swept = swept  # sweeps already made, shared by every search of a pack
        # breaks a game was played on to show, shared likewise: each is tried once
        self.tried: set[object] = tried if tried is not None else set()
        self.others: dict[tuple[object, ...], list[Found]] = others if others is not None else {}
        self.eager = False  # a game played on to show a break: every kind of action, events first
        self.prey: Color | None = None  # whose pieces a game played on captures (for ``on captured``)

    def run(self) -> None:
        state = start(self.probe, self.cards, self.hands, self.ruleset)
        node = _Node(state, START, ())
        for action in self.probe.prelude:
            child = self._step(node, action)
            if child is None:
                return
            node = child
        frontier = [node]
        for _ in range(self.bounds.plies):
            ends: list[_Node] = []
            for root in frontier:
                ends.extend(self._turn(root))
            if not ends:
                return
            frontier = self._beam(ends)
        for end in frontier:
            self._decide(end)
        for end in frontier[:1]:
            self._gather(end)

    def _gather(self, node: _Node) -> None:
        """Copies for a while that add up, shown in a game: for each trigger in play whose copies can
        add up while they act (:func:`_recurs_while_acting`) and whose copies, projected, break
        something no game played showed, the witness search plays a game directed at its event
        (:meth:`_direct`), so that the copies are there at once and the break happens in the game."""
        cards = node.state.cards
        if cards is None:
            return
        for goal in _gathering(cards):
            names = {name for name, _, _ in goal.copies}
            keys = [
                key
                for key, kept in self.found.items()
                if kept.projected
                and kept.probe.name == self.probe.name
                and names & set(kept.cards)
                and ("gather", self.probe.name, key) not in self.tried
            ]
            if not keys:
                continue
            self.tried.update(("gather", self.probe.name, key) for key in keys)
            if self._direct(node, goal, keys):
                continue
            for key in keys:  # not shown: the warning says how far the witness search looked
                kept = self.found[key]
                if kept.projected and kept.message.endswith(")"):
                    note = f"; nor {goal.describe()}"
                    message = f"{kept.message[:-1]}{note})"
                    self.found[key] = dataclasses.replace(kept, message=message, projected=kept.projected + note)

    def opening(self, name: str) -> _Node | None:
        """The probe's position, its prelude played, then the card ``name`` played by its holder in
        the first phase that takes it (None: no phase of the first turn does)."""
        node = _Node(start(self.probe, self.cards, self.hands, self.ruleset), START, ())
        for action in self.probe.prelude:
            child = self._step(node, action)
            if child is None:
                return None
            node = child
        while True:
            for action in _card_actions(node.state):
                if isinstance(action, Play) and action.card == name:
                    child = self._step(node, action)
                    if child is not None:
                        return child
            forward = witness.forward(node.state)
            if isinstance(forward, EndTurn):
                return None
            child = self._step(node, forward)
            if child is None:
                return None
            node = child

    def _decide(self, node: _Node) -> None:
        """Copies that accumulate over the whole game: decided, then shown (docs/contract-rules.md,
        "Over the whole game").

        An effect of which a trigger or a use of an activated Relic starts lasting copies that
        never end keeps adding them as long as its event recurs, up to its ``limit`` per game if it
        has one. Every quantity those copies move moves one way with their number (a bonus up, a
        discount down, a price up), so the state with the most copies the game allows decides
        whether any number crosses a bound: :data:`DECIDE` more of an unbounded one (more than the
        distance from any core value to its bound, the 1,000 LP price aside), the copies its limit
        has left of a limited one. Nothing crossed: no game crosses it. Something crossed: the game
        is played on (:meth:`_play_on`, at most :data:`WITNESS_PLIES` more plies, the ends of turn
        with the most copies carried on) until the break happens in it; what no game played on
        reaches is recorded as projected (a warning that says so, with the copies it needs).
        """
        cards = node.state.cards
        if cards is None:
            return
        growing = _growing(cards, self.ruleset)
        if not growing:
            return
        # where the copies' conditions hold: the position as played, and the position brought to
        # what each condition needs (a copy fires and acts whenever a game can make it true)
        breaks: dict[tuple[object, ...], _Aim] = {}
        for aim in _aims(node.state, growing):
            most = _at(self._with_copies(node.state, growing, None), aim)
            decided = ("decided", self.probe.name, sweep_key(most), sweep_key(most.replace(to_move=most.to_move.other)))
            if decided in self.swept:  # the same copies decided from this probe already (a sweep is pure)
                continue
            self.swept.add(decided)
            for key in _breaks(most):
                if not self._played(key):
                    breaks.setdefault(key, aim)
        if not breaks:
            return
        untried = frozenset(key for key in breaks if (self.probe.name, key) not in self.tried)
        self.tried.update((self.probe.name, key) for key in untried)
        if untried:
            self._play_on(node, growing, untried)
        for key, aim in breaks.items():
            if self._played(key):
                continue
            need = self._copies_needed(node.state, growing, key, aim)
            copies = ", ".join(
                f"'{g.card}' ({g.copies} cop{'y' if g.copies == 1 else 'ies'} after "
                f"{node.state.turn_number} turn(s) played"
                + (f", {g.room} more allowed by its limit" if g.room is not None else ", no limit")
                + ")"
                for g in growing
            )
            how = (
                f"{copies}: copies that never end add up over the game, and {need} more of each cross the bound"
                + (f" {_aim_text(node.state, aim)}" if aim is not None else "")
                + f"; no game played on for {WITNESS_PLIES // 2} more turns of each player reached it"
                + "".join(f", nor {_goal(g).describe()}" for g in growing if g.event is not None)
            )
            state = _at(self._with_copies(node.state, growing, need), aim)
            for actor in (state.to_move, state.to_move.other):
                self._sweep(state.replace(to_move=actor), node.path, how)

    def _played(self, key: tuple[object, ...]) -> bool:
        """Whether the break ``key`` was found in a game played (not projected) from this probe."""
        kept = self.found.get(key)
        here = (kept, *self.others.get(key, ())) if kept is not None else ()
        return any(f is not None and not f.projected and f.probe.name == self.probe.name for f in here)

    @staticmethod
    def _with_copies(state: GameState, growing: Sequence[_Growing], copies: int | None) -> GameState:
        """``state`` with ``copies`` more of each growing effect (None: as many as the game allows,
        :data:`DECIDE` at most)."""
        cards = state.cards
        assert cards is not None
        extra: list[Lasting] = []
        for g in growing:
            room = DECIDE if g.room is None else min(g.room, DECIDE)
            extra.extend((g.first,) * (room if copies is None else min(copies, room)))
        return state.replace(cards=cards.with_lasting((*cards.lasting, *extra)))

    def _copies_needed(
        self, state: GameState, growing: Sequence[_Growing], key: tuple[object, ...], aim: _Aim = None
    ) -> int:
        """The fewest more copies of each growing effect with which ``key`` breaks, in the position
        ``aim`` brings about (a binary search: the quantities move one way with the copies)."""
        low, high = 1, DECIDE
        while low < high:
            middle = (low + high) // 2
            if key in _breaks(_at(self._with_copies(state, growing, middle), aim)):
                high = middle
            else:
                low = middle + 1
        return low

    def _play_on(self, node: _Node, growing: Sequence[_Growing], keys: frozenset[tuple[object, ...]]) -> None:
        """Play on from ``node``, one end of turn carried (the one with the most copies of the
        growing effects), until every break of ``keys`` happens in the game or :data:`WITNESS_PLIES`
        more plies are played, or :data:`_STALL` plies in a row add no copy (the game does not make
        the event happen). The breaks are recorded by the steps and sweeps of the game itself."""
        names = {(g.card, g.owner, g.first.effect) for g in growing}
        start_node = node

        def copies(end: _Node) -> tuple[int, int]:
            cards = end.state.cards
            if cards is None:
                return (0, 0)
            count = sum(1 for item in cards.lasting if (item.card, item.owner, item.effect) in names)
            return (count, cards.entered)

        wanted, self.wanted, self.eager = self.wanted, frozenset(Topic), True
        # copies that the opponent's attacks start (``on captured``, ``on attacked``): their holder's
        # pieces are attacked, weakest first, so that the events come
        self.prey = next((g.owner for g in growing if g.event in _SUFFERED), None)
        most, since = copies(node)[0], 0
        try:
            for _ in range(WITNESS_PLIES):
                if all(self._played(key) for key in keys) or since >= _STALL:
                    break
                ends = self._turn(node)
                if not ends:
                    break
                node = max(ends, key=copies)
                count = copies(node)[0]
                most, since = (count, 0) if count > most else (most, since + 1)
        finally:
            self.wanted, self.eager, self.prey = wanted, False, None
        for g in growing:
            if all(self._played(key) for key in keys):
                return
            if g.event is not None:
                self._direct(start_node, _goal(g), keys)

    def _direct(self, node: _Node, goal: Goal, keys: Iterable[tuple[object, ...]]) -> bool:
        """The witness search (:mod:`sgcheck.contract.analysis.witness`): play on from ``node`` a game
        directed at ``goal``'s events, both sides choosing their actions and dice for them, until every
        break of ``keys`` happens in it, :data:`witness.PLIES` more plies are played, or
        :data:`witness.STALL` plies in a row bring neither a copy nor a closer attack. Every step is
        the explorer's own (:meth:`_step`), so the breaks are recorded as any game's are. Whether
        every break of ``keys`` was met."""
        wanted = tuple(keys)
        return any(
            self._directed(node, paced, lambda: all(self._played(key) for key in wanted)) for paced in self._paces(goal)
        )

    def _paces(self, goal: Goal) -> Iterator[Goal]:
        """``goal``, then ``goal`` one event a turn, when the game for ``goal`` (played between the
        two) chose an action after the first event of some turn: a game that never did is the paced
        game already, move for move (the pace only ends a turn at its first event, and takes the
        way forward from there, as this game did; the choices and dice before are the same)."""
        yield goal
        if self.paced_apart:
            yield goal.paced()

    def _directed(self, node: _Node, goal: Goal, done: Callable[[], bool]) -> bool:
        """The game of :meth:`_direct`, played until ``done()``; whether it was."""
        best, since = witness.score(node.state, goal)[1:4], 0
        first = goal.progress(node.state)
        self.paced_apart = False
        for _ in range(witness.PLIES):
            if done():
                return True
            if since >= witness.STALL or node.state.result is not None:
                return False
            if goal.progress(node.state) - first >= DECIDE:  # more events than any bound is away
                return False
            seen = {position_key(node.state)}
            events = 0
            for _ in range(witness.ACTIONS):
                action = witness.choose(node.state, goal)
                # the paced game ends the turn at its first event; it is another game only when
                # this one chooses an action after it (the way forward is what the paced one takes)
                self.paced_apart = self.paced_apart or (events > 0 and action is not None)
                if action is None:
                    action = witness.forward(node.state)
                child = self._step(node, action)
                if child is None or child.state.result is not None:
                    return done()
                events += goal.progress(child.state) > goal.progress(node.state)
                node = child
                if goal.per_turn is not None and events >= goal.per_turn:
                    break
                if isinstance(action, EndTurn):
                    break
                key = position_key(node.state)
                if key in seen and not isinstance(action, EnterPhase):
                    break
                seen.add(key)
            while not isinstance(node.path[-1], EndTurn):  # the rest of the turn: the way forward
                child = self._step(node, witness.forward(node.state))
                if child is None or child.state.result is not None:
                    return done()
                node = child
            now = witness.score(node.state, goal)[1:4]
            best, since = (now, 0) if now > best else (best, since + 1)
        return done()

    def _step(self, node: _Node, action: Action) -> _Node | None:
        step = apply(node.state, action)
        if not isinstance(step, Applied):
            return None
        self.states += 1
        watch, breaches = observe(node.watch, node.state, action, step)
        path = (*node.path, action)
        for breach in breaches:
            numbers = (("sp", breach.sp), ("lp", breach.lp))
            kind, what, severity = breach.kind, breach.what, Severity.ERROR
            if kind == "negative-cost":
                # the same break whether the sweep or the action found it; only several cards
                # together: clamped at 0 (R23), the warning, as caps passed together are (R20)
                what = type(action).__name__.lower()
                if breach.what == "together":
                    kind, severity = "negative-cost-stacked", Severity.WARNING
            self._record(
                Found(
                    kind,
                    breach.cards,
                    breach.diagnostic.message,
                    _where(node.state, action),
                    self.probe,
                    self.hands,
                    path,
                    severity,
                    numbers=numbers,
                    what=what,
                )
            )
        if isinstance(action, Play | Activate | EnterPhase | EndTurn | Attack):  # the effects in play may change
            self._sweep(step.state, path)
            self._project_copies(node.state, step.state, path)
        elif isinstance(action, Break | Repair):
            self._repeated_attempt(node, action, step, path)
        return _Node(step.state, watch, path, node.depth + 1)

    def _repeated_attempt(self, node: _Node, action: Break | Repair, step: Applied, path: tuple[Action, ...]) -> None:
        """A second Break or Repair in one Upkeep at the core's full price (a cheaper one is the
        watch's free attempt): the cards granting it buy a second roll of the 3d6 at the
        threshold, which is a judgment call (docs/contract-rules.md, "Readings"), a warning."""
        kind = type(action)
        since = max((i for i, done in enumerate(node.path) if isinstance(done, EndTurn)), default=-1)
        count = 1 + sum(1 for done in node.path[since + 1 :] if type(done) is kind)
        paid = step.effects.paid
        price = paid.total if paid is not None else 0
        full = caps.BREAK_COST if kind is Break else caps.REPAIR_COST
        cards = node.state.cards
        if count < 2 or price < full or cards is None:
            return
        extra = A.ExtraKind.BREAK if kind is Break else A.ExtraKind.REPAIR
        mover = node.state.to_move
        names = tuple(
            dict.fromkeys(
                item.card
                for item in cards.lasting
                if item.owner is mover
                and isinstance(item.effect.action, A.ExtraAction)
                and item.effect.action.action is extra
            )
        )
        verb = kind.__name__
        threshold = caps.BREAK_THRESHOLD if kind is Break else caps.REPAIR_THRESHOLD
        message = (
            f"a second {verb} attempt in one Upkeep at the core's {full} SP: the cards buy another roll of the 3d6 "
            f"against the {threshold}+ each turn, a judgment call, reported as a warning"
        )
        self._record(
            Found(
                "paid-attempt",
                names,
                message,
                _where(node.state, action),
                self.probe,
                self.hands,
                path,
                Severity.WARNING,
                (("attempts", count), ("price", price)),
                verb.lower(),
            )
        )

    def _project_copies(self, before: GameState, state: GameState, path: tuple[Action, ...]) -> None:
        """Copies for a while that add up, carried on past what the search played (a decision).

        A trigger whose event can come again while the copy it started still acts (an attack, a
        capture, a move: any event but the start of a phase; any duration but ``this attack``),
        with no ``limit`` bounding it, will have as many copies at once as the event recurs
        before the first one ends (``on attacked: damage +1 next turn``: one for each attack the
        opponent makes in a turn). When such a copy starts, the ply where it acts is swept again
        with :data:`PROJECTED` more of it, and what that breaks is reported as projected.
        """
        cards, was = state.cards, before.cards
        if cards is None or was is None or len(cards.lasting) <= len(was.lasting):
            return
        new = [item for item in cards.lasting[len(was.lasting) :] if item.until is not None]
        for item in new:
            if item.effect.trigger is not None or not _recurs_while_acting(cards, item):
                continue
            until = item.until
            assert until is not None
            copies = sum(
                1
                for other in cards.lasting
                if (other.card, other.owner, other.effect) == (item.card, item.owner, item.effect)
            )
            extra = (item.replace(fired_in=-1, fired_turn=0, fired_game=0),) * PROJECTED
            projected = state.replace(cards=cards.with_lasting((*cards.lasting, *extra)))
            how = (
                f"'{item.card}' ({copies} cop{'y' if copies == 1 else 'ies'} at once in the game played): each "
                f"event adds one while the others still act; swept with {PROJECTED} more"
            )
            now = ply(state.turn_number, state.to_move)
            for acting in Color:  # each side's last ply while the copies act: the holder's and the opponent's
                last = until if until % 2 == (acting is Color.BLACK) else until - 1
                if last >= now:
                    self._sweep(projected.replace(to_move=acting, turn_number=last // 2 + 1), path, how)

    def _sweep(self, state: GameState, path: tuple[Action, ...], projected: str = "") -> None:
        key = sweep_key(state)
        if key is None or key in self.swept:
            return
        self.swept.add(key)
        for swept in sweep(state):
            # several cards that only together pass a cap or take a cost below 0 are the R20 warning:
            # the player brings them together and play clamps the sum. Nothing clamps reductions on
            # a King, so a King left without damage is an error however many cards it takes.
            together = swept.kind in ("caps-stacked", "negative-cost-stacked", "steep-price", "king-fogged")
            # a break reasoned possible but reached in no game played is a warning that says so
            severity = Severity.WARNING if together or projected else Severity.ERROR
            if swept.kind == "king-immune":
                shares = _shares_text(swept.shares, negative=True)
                message = (
                    f"no attack can damage this King: reductions of {swept.total} ({shares}) against at most "
                    f"{swept.limit} damage a fully boosted hit deals ({swept.situation})"
                )
            elif swept.kind == "king-fogged":
                shares = _shares_text(swept.shares)
                message = (
                    f"every attack on this King without a bonus is held at the {swept.limit} floor of to-hit by the "
                    f"cards' maluses ({shares}), even {swept.situation}: a judgment call, reported as a warning"
                )
            elif swept.kind in ("priced-out", "steep-price"):
                shares = _shares_text(swept.shares)
                verdict = (
                    "more than any player can hold (a player with 1,000 LP has won), so it can never be taken"
                    if swept.kind == "priced-out"
                    else f"more than the {swept.limit} LP a side starts with: a judgment call, reported as a warning"
                )
                message = (
                    f"the opponent's cards add {swept.total} to every {swept.what} ({shares}): {verdict}; "
                    f"the cheapest is {swept.situation}"
                )
            elif swept.kind == "negative-cost":
                shares = _shares_text(swept.shares)
                message = (
                    f"{swept.situation}: the cards make it cost {swept.total} ({shares}); a cost below 0 pays its taker"
                )
            elif swept.kind == "negative-cost-stacked":
                shares = _shares_text(swept.shares)
                message = (
                    f"{swept.situation}: the cards together make it cost {swept.total} ({shares}), though none "
                    "does alone; play charges 0 (R23)"
                )
            else:
                shares = _shares_text(swept.shares)
                unit = {"to-hit": "to-hit bonus", "damage": "damage bonus per hit", "reroll": "reroll sources"}
                message = (
                    f"{swept.total} {unit[swept.what]} on one attack ({shares}), past the cap of "
                    f"{swept.limit}: {swept.situation}"
                )
            numbers = (("total", swept.total), ("cap", swept.limit))
            if projected:
                message = f"possibly {message} (projected, no game found: {projected})"
            self._record(
                Found(
                    swept.kind,
                    swept.cards,
                    message,
                    swept.situation,
                    self.probe,
                    self.hands,
                    path,
                    severity,
                    numbers,
                    swept.what,
                    projected,
                )
            )

    def _record(self, found: Found) -> None:
        key = (found.kind, frozenset(found.cards), found.what)
        kept = self.found.get(key)
        if kept is None:
            self.found[key] = found
            return
        other = found
        if _better(found, kept):
            self.found[key] = found
            other, kept = kept, found  # the one replaced may still be the one a game can show
        if other.projected or other.kind not in _SWEPT:
            return
        # the same break swept from other probes: a game from one of them may show it where the
        # kept one cannot (a Repair needs its holder's Gem broken)
        others = self.others.setdefault(key, [])
        if len(others) < _OTHERS and all(o.probe.name != other.probe.name for o in (kept, *others)):
            others.append(other)

    def _turn(self, root: _Node) -> list[_Node]:
        """A depth-first search of one turn: each node's actions taken one at a time, the way
        forward first, so every branch soon reaches the end of the turn within the budget."""
        ends: list[_Node] = []
        seen: set[object] = set()
        stack: list[tuple[_Node, Iterator[Action]]] = [
            (root, candidates(root.state, self.wanted, eager=self.eager, prey=self.prey))
        ]
        budget = self.bounds.nodes * (_EAGER if self.eager else 1)
        while stack and budget > 0:
            node, pending = stack[-1]
            action = next(pending, None)
            if action is None:
                stack.pop()
                continue
            child = self._step(node, action)
            if child is None:
                continue
            budget -= 1
            if isinstance(action, EndTurn) or child.state.result is not None:
                if child.state.result is None:
                    ends.append(_Node(child.state, child.watch, child.path, 0))
                continue
            if child.depth - root.depth >= self.bounds.actions * (_EAGER if self.eager else 1) and not isinstance(
                action, EnterPhase
            ):
                continue
            key = (position_key(child.state), child.state.players)
            if key in seen:
                continue
            seen.add(key)
            taken: dict[type, int] = {}
            for done in child.path[len(root.path) :]:
                taken[type(done)] = taken.get(type(done), 0) + 1
            stack.append((child, candidates(child.state, self.wanted, taken, action, self.eager, self.prey)))
        return ends

    def _beam(self, ends: list[_Node]) -> list[_Node]:
        """The ends of turn carried on, as many as the beam holds: the busiest with cards, the
        richest, the first found."""

        def busy(node: _Node) -> tuple[int, int]:
            cards = node.state.cards
            return (0, 0) if cards is None else (cards.entered, len(cards.lasting))

        def rich(node: _Node) -> int:
            mover = node.state.players[node.state.to_move.other]
            return mover.lp + mover.sp

        kept: list[_Node] = []
        for choice in (max(ends, key=busy), max(ends, key=rich), ends[0]):
            if all(choice is not k for k in kept):
                kept.append(choice)
        return kept[: self.bounds.beam]


def _shares_text(shares: Sequence[Share], *, negative: bool = False) -> str:
    """Each card's share, the copies of one counted (``Grudge +1 ×3, Rage +2``)."""
    counted: dict[tuple[str, int], int] = {}
    for share in shares:
        counted[share.card, share.amount] = counted.get((share.card, share.amount), 0) + 1
    parts = []
    for (card, amount), times in counted.items():
        number = f"−{abs(amount)}" if negative else f"{amount:+d}"
        parts.append(f"{card} {number}" + (f" ×{times}" if times > 1 else ""))
    return ", ".join(parts)


#: How many other probes' paths to one swept break are kept, to show it in a game if the first cannot.
_OTHERS = 3

#: How many more copies of an accumulating effect the projection of copies for a while adds.
PROJECTED = 8

#: How many more copies of an effect that accumulates over the game decide whether a bound can be
#: crossed: more than the distance from any core value a card moves to its bound (a to-hit bonus
#: to +25, a damage bonus to +2, one reroll, the dearest action to below 0, a price to past the 20
#: LP a side starts with), each copy moving it by 1 at least.
DECIDE = 40

#: How many more plies a game is played on to show a break that accumulating copies reach.
WITNESS_PLIES = 60

#: Events the opponent's attacks make happen to a holder's pieces.
_SUFFERED = frozenset({A.Event.CAPTURED, A.Event.ATTACKED})

#: A game played on stops after this many plies in a row that add no copy.
_STALL = 8


@dataclass(frozen=True, slots=True)
class _Growing:
    """An effect whose lasting copies never end and keep coming: one copy, how many there are,
    how many more its ``limit`` per game allows (None: no limit)."""

    card: str
    owner: Color
    first: Lasting
    copies: int
    room: int | None
    event: A.Event | None = None  # the event of the trigger that starts the copies (None: a use)


def _growing(cards: CardsState, ruleset: Ruleset = CORE) -> list[_Growing]:
    """The effects in play whose copies never end and can come again: started by a trigger or a use of
    an activated Relic, with room left under a ``limit`` per game if they have one. A trigger waiting
    in play counts before it has fired: the copy it would start is the one the engine starts
    (its effect without the trigger and the limit, R23)."""
    groups: dict[tuple[str, Color, A.Effect], list[Lasting]] = {}
    for item in cards.lasting:
        if item.until is None and item.effect.trigger is None:
            groups.setdefault((item.card, item.owner, item.effect), []).append(item)
    found: list[_Growing] = []
    for (card, owner, effect), items in groups.items():
        source_card = cards.by_name[card]
        for source in source_card.effects:
            if source.action != effect.action or (source.trigger is None and source_card.mode is not A.Mode.ACTIVATED):
                continue
            if reachable.unreachable(source, ruleset) is not None:
                continue  # no game makes its condition true where it is read: no more copies come
            room: int | None = None
            if source.limit is not None and source.limit.period is A.Period.GAME:
                room = source.limit.times - len(items)
                if room <= 0:
                    continue
            event = source.trigger.event if source.trigger is not None else None
            found.append(_Growing(card, owner, items[0], len(items), room, event))
            break
    for item in cards.lasting:  # triggers waiting in play that have not fired yet
        trigger = item.effect.trigger
        if trigger is None or item.until is not None or not isinstance(item.effect.action, LASTING_ACTIONS):
            continue
        copy = dataclasses.replace(item.effect, trigger=None, limit=None)
        if (item.card, item.owner, copy) in groups or until(copy, 0, relic=False)[0] is not None:
            continue
        if reachable.unreachable(item.effect, ruleset) is not None:
            continue  # it never fires: no game makes its condition true where it is read
        limit = item.effect.limit
        room = None
        if limit is not None and limit.period is A.Period.GAME:
            room = limit.times - item.fired_game
            if room <= 0:
                continue
        elif limit is not None and limit.period is not A.Period.GAME and trigger.event is A.Event.PHASE:
            pass  # once a turn at most: one copy a turn, as the phase gives anyway
        first = Lasting(item.card, item.owner, item.order, copy)
        groups[item.card, item.owner, copy] = [first]
        found.append(_Growing(item.card, item.owner, first, 0, room, trigger.event))
    return found


#: A position a condition needs, for the decision: the holder and the condition (None: as played).
_Aim = tuple[Color, A.Condition] | None


def _aims(state: GameState, growing: Sequence[_Growing]) -> list[_Aim]:
    """The positions the decision sweeps for ``growing``'s copies: as played, and for each condition
    of theirs that reads the position (resources, Gems) and does not hold in it, the position
    brought to it (:func:`reachable.brought_about`), then to all of one holder's at once. The
    attack's part of a condition is every situation the sweep tries."""
    aims: list[_Aim] = [None]
    for g in growing:
        condition = g.first.effect.condition
        if condition is None or reachable.gap(state, g.owner, condition) == 0:
            continue
        aim = (g.owner, condition)
        if aim not in aims:
            aims.append(aim)
    # one holder's conditions all at once, when a position meets them together (a card whose two
    # effects each need their own level passes a cap only where both hold)
    for owner in Color:
        mine = [aim[1] for aim in aims if aim is not None and aim[0] is owner]
        if len(mine) > 1:
            joined = A.Condition(tuple(p for c in mine for p in c.predicates), mine[0].span)
            if reachable.reach(joined) is not None:
                aims.append((owner, joined))
    return aims


def _at(state: GameState, aim: _Aim) -> GameState:
    """``state`` brought to the position ``aim`` needs (as it is for None)."""
    if aim is None:
        return state
    brought = reachable.brought_about(state, *aim)
    return state if brought is None else brought


def _aim_text(state: GameState, aim: _Aim) -> str:
    """What the position ``aim`` needs differs in from ``state``, in words."""
    if aim is None:
        return ""
    after = _at(state, aim)
    changes = []
    for color in Color:
        was, now = state.players[color], after.players[color]
        for name, old, new in (("LP", was.lp, now.lp), ("SP", was.sp, now.sp)):
            if old != new:
                changes.append(f"{color.title} at {new} {name}")
        if was.gem_broken != now.gem_broken:
            changes.append(f"{color.title}'s Gem {'broken' if now.gem_broken else 'whole'}")
    reached = ", ".join(changes) or "the position as played"
    return f"in a position a game can reach where their condition holds ({reached})"


def _goal(growing: _Growing) -> Goal:
    """What a witness game for ``growing``'s copies brings about: more of them, by their event."""
    events = frozenset({growing.event}) if growing.event is not None else frozenset()
    copies = frozenset({(growing.card, growing.owner, growing.first.effect)})
    return Goal(copies, events, growing.owner, condition=growing.first.effect.condition)


def _gathering(cards: CardsState) -> list[Goal]:
    """The triggers in play whose copies last a while and can add up while they act (their event
    recurs, no limit bounds them): a witness game for each brings their event about."""
    goals: list[Goal] = []
    for item in cards.lasting:
        trigger = item.effect.trigger
        if trigger is None or item.until is not None or not isinstance(item.effect.action, LASTING_ACTIONS):
            continue
        if item.effect.limit is not None or trigger.event is A.Event.PHASE:
            continue
        copy = dataclasses.replace(item.effect, trigger=None, limit=None)
        if until(copy, 0, relic=False)[0] is None:
            continue  # copies that never end: decided over the whole game (:meth:`_Search._decide`)
        copies = frozenset({(item.card, item.owner, copy)})
        goals.append(Goal(copies, frozenset({trigger.event}), item.owner, condition=item.effect.condition))
    return goals


def _breaks(state: GameState) -> dict[tuple[object, ...], Swept]:
    """The breaks the sweep finds in ``state``, for either player to move, by their key."""
    found: dict[tuple[object, ...], Swept] = {}
    for actor in (state.to_move, state.to_move.other):
        for swept in sweep(state.replace(to_move=actor)):
            found.setdefault((swept.kind, frozenset(swept.cards), swept.what), swept)
    return found


def _recurs_while_acting(cards: CardsState, item: Lasting) -> bool:
    """Whether the trigger that started ``item`` (a copy for a while) can fire again while it acts:
    its event can come more than once in a turn, its copy outlives the attack, no limit bounds it."""
    if item.attack_only:
        return False
    for source in cards.by_name[item.card].effects:
        trigger = source.trigger
        if source.action != item.effect.action or trigger is None or source.limit is not None:
            continue
        if trigger.event is not A.Event.PHASE:
            return True
    return False


def _where(state: GameState, action: Action) -> str:
    """Where a break happened: the turn, the player, the phase and the action."""
    doing = type(action).__name__.lower()
    if isinstance(action, EnterPhase):
        doing = f"the start of {action.phase.title}"
    elif isinstance(action, EndTurn):
        doing = "the end of the turn and the next Upkeep"
    elif isinstance(action, Play | Activate):
        doing = f"{'playing' if isinstance(action, Play) else 'using'} '{action.card}'"
    elif isinstance(action, Convert):
        doing = f"converting {action.sp} SP"
    return f"turn {state.turn_number}, {state.to_move.title}, {state.turn.phase.title}: {doing}"


#: Combinations in one piece of the play. The play is split into pieces of this many combinations,
#: in the order :func:`combinations` lists them; each piece is searched on its own (its sweeps
#: shared within it only), so the findings are the same whether the pieces are searched here one
#: after another or by several processes (``jobs``).
PIECE = 32


@dataclass(frozen=True, slots=True)
class Piece:
    """Some combinations to play, with the cards they deal: one task of :func:`explore`, picklable."""

    cards: tuple[A.Card, ...]
    hands: tuple[Hands, ...]
    ruleset: Ruleset
    bounds: Bounds
    scenario: Scenario | None = None  # the pack's own (R24): its position is a probe too


@dataclass(slots=True)
class PieceResult:
    """What searching one :class:`Piece` found (each break once, by its key), and its size."""

    found: dict[tuple[object, ...], Found]
    combinations: int
    states: int
    others: dict[tuple[object, ...], list[Found]] = field(default_factory=dict)


def explore_piece(piece: Piece) -> PieceResult:
    """Play every combination of ``piece`` from every probe, and gather the breaks (a pure task)."""
    by_name = {card.name: card for card in piece.cards}
    found: dict[tuple[object, ...], Found] = {}
    swept: set[object] = set()
    tried: set[object] = set()
    others: dict[tuple[object, ...], list[Found]] = {}
    states = 0
    for hands in piece.hands:
        dealt = tuple(by_name[name] for name in dict.fromkeys((*hands[0], *hands[1])))
        wanted = frozenset().union(*(topics(card) for card in dealt))
        for probe in probes_for(dealt, piece.scenario):
            if probe.prelude and Topic.GEM not in wanted:
                continue  # the broken Gem matters only to cards about the Gems
            search = _Search(probe, dealt, hands, piece.ruleset, piece.bounds, found, swept, tried, others)
            search.run()
            states += search.states
    return PieceResult(found, len(piece.hands), states, others)


def explore(
    cards: Sequence[A.Card],
    ruleset: Ruleset = CORE,
    hand_limit: int = caps.HAND_LIMIT,
    bounds: Bounds = BOUNDS,
    jobs: int = 1,
    market: tuple[str, ...] = (),
    scenario: Scenario | None = None,
) -> Exploration:
    """Play every combination of ``cards`` that can meet, from every probe, and gather the breaks.

    ``market`` is a market module's deck (R26), whose cards can be before a player beside the
    hand and, copies of one card, before both players; ``scenario`` the pack's own, whose position
    is played from too (R24). The combinations are searched in pieces of :data:`PIECE`, in ``jobs``
    processes when there are several pieces (:func:`sgcheck.distribute.map_ordered`); the findings
    do not depend on ``jobs``."""
    by_name = {card.name: card for card in cards}
    listed = combinations(cards, hand_limit, bounds.partners, bounds.thirds, market)
    pieces = []
    for first in range(0, len(listed), PIECE):
        hands = tuple(listed[first : first + PIECE])
        names = dict.fromkeys(name for hand in hands for side in hand for name in side)
        pieces.append(Piece(tuple(by_name[name] for name in names), hands, ruleset, bounds, scenario))
    result = Exploration(bounds=bounds)
    found: dict[tuple[object, ...], Found] = {}
    others: dict[tuple[object, ...], list[Found]] = {}
    for part in map_ordered(explore_piece, pieces, jobs=jobs if len(pieces) > 1 else 1):
        result.combinations += part.combinations
        result.states += part.states
        for key, item in part.found.items():
            kept = found.get(key)
            if kept is None or _better(item, kept):
                found[key] = item
        for key, items in part.others.items():
            others.setdefault(key, []).extend(items)
    result.findings = []
    for item in _minimal(found.values()):
        steered: set[str] = set()  # the probes a game was steered from toward this situation
        shown = _witnessed(item, by_name, ruleset, steered)
        if shown.projected and not item.projected:  # not shown from there: from another probe
            key = (item.kind, frozenset(item.cards), item.what)
            for other in others.get(key, ()):
                again = _witnessed(dataclasses.replace(other, message=item.message), by_name, ruleset, steered)
                if not again.projected:
                    shown = again
                    break
        result.findings.append(shown)
    return result


def card_goals(card: A.Card, owner: Color, ruleset: Ruleset = CORE) -> list[Goal]:
    """What a witness game for ``card`` held by ``owner`` brings about: for each event its triggers
    wait for, more of the copies they start and more firings."""
    goals: dict[tuple[A.Event, A.Condition | None], set[witness.Copy]] = {}
    for effect in card.effects:
        if effect.trigger is None or effect.trigger.event is A.Event.PHASE:
            continue
        if reachable.unreachable(effect, ruleset) is not None:
            continue  # it never fires: no game brings its event about under its condition
        copies = goals.setdefault((effect.trigger.event, effect.condition), set())
        if isinstance(effect.action, LASTING_ACTIONS):
            copies.add((card.name, owner, dataclasses.replace(effect, trigger=None, limit=None)))
    return [
        Goal(frozenset(copies), frozenset({event}), owner, frozenset({card.name}), condition=condition)
        for (event, condition), copies in goals.items()
    ]


def _games(found: dict[tuple[object, ...], Found], name: str, kinds: frozenset[str]) -> list[Found]:
    """The errors of ``kinds`` in ``found`` played in a game (not projected), with the card ``name``."""
    return [
        f
        for f in found.values()
        if f.kind in kinds and name in f.cards and f.severity is Severity.ERROR and not f.projected
    ]


def _any_game(found: dict[tuple[object, ...], Found], name: str, kinds: frozenset[str]) -> bool:
    return bool(_games(found, name, kinds))


#: Witness games are a function of the card's name and shape, the kinds, the ruleset and the
#: witness's bounds alone: a run that checks one card in several files (a pack and its variants, a
#: folder of drafts) plays them once, wherever the card is written.
WITNESSES_KEPT = 512


@dataclass(frozen=True, slots=True)
class _Played:
    """A card as a witness game plays it: its name and what it does (:func:`meeting.shape`), not
    where it is written (its spans) nor its text; ``card`` is the first one seen."""

    card: A.Card = field(compare=False, hash=False)
    name: str = ""
    # a name the compiled build can resolve (a dataclass field of a compiled module annotated with a
    # builtin such as ``object`` is looked up among the module's globals and not found)
    shape: Hashable = None


def witness_for(card: A.Card, kinds: frozenset[str], ruleset: Ruleset = CORE) -> Found | None:
    """The witness search for a break the card and pack rules read from ``card``'s words (core §8):
    from each of the three probe positions (:data:`PROBES`), the holder plays the card, then a game
    directed at the events its triggers wait for (:func:`card_goals`) is played until a break of one
    of ``kinds`` with the card among its cards happens in it, an error shown in the game (a situation
    the sweep found is carried on to an action that shows it, :func:`_witnessed`). None when no game
    within the witness's bounds shows one: the rule's finding stays the warning that says so. Played
    once for a card of one name and shape (:data:`WITNESSES_KEPT` kept), whether it shows one or not."""
    bounds = (witness.PLIES, witness.STALL, witness.ACTIONS, witness.SITUATION_PLIES, witness.WANDER)
    return _witness(_Played(card, card.name, shape(card)), kinds, ruleset, bounds)


@functools.lru_cache(maxsize=WITNESSES_KEPT)
def _witness(played: _Played, kinds: frozenset[str], ruleset: Ruleset, bounds: tuple[int, ...]) -> Found | None:
    """:func:`witness_for` of ``played``'s card, within the witness's ``bounds`` as they are now."""
    card = played.card
    goals = card_goals(card, Color.WHITE, ruleset)
    if not goals:
        return None
    for probe in PROBES:
        paced: list[Goal] = []
        for goal in goals:
            shown = _witness_game(card, kinds, probe, goal, ruleset)
            if isinstance(shown, Found):
                return shown
            if shown:  # a game that chose nothing after an event of a turn is its paced game already
                paced.append(goal.paced())
        for goal in paced:
            shown = _witness_game(card, kinds, probe, goal, ruleset)
            if isinstance(shown, Found):
                return shown
    return None


def _witness_game(card: A.Card, kinds: frozenset[str], probe: Probe, goal: Goal, ruleset: Ruleset) -> Found | bool:
    """One game of :func:`witness_for` from ``probe``, directed at ``goal``: the break it shows, else
    whether it made an event of the goal in some turn (:meth:`_Search._paces`)."""
    found: dict[tuple[object, ...], Found] = {}
    search = _Search(probe, (card,), ((card.name,), ()), ruleset, BOUNDS, found, set())
    node = search.opening(card.name)
    if node is None:
        return False
    search._directed(node, goal, functools.partial(_any_game, found, card.name, kinds))
    for game in _games(found, card.name, kinds):
        shown = _witnessed(game, {card.name: card}, ruleset)
        if shown.severity is Severity.ERROR and not shown.projected:
            return shown
    return search.paced_apart


def _better(found: Found, kept: Found) -> bool:
    """Whether ``found`` replaces ``kept``, the same break seen earlier: one played rather than
    projected, then a shorter game (the earlier one on a tie)."""
    return (bool(found.projected), len(found.path)) < (bool(kept.projected), len(kept.path))


# --- a witness for what the sweep found -------------------------------------------------------------

_SWEPT = ("negative-cost", "negative-cost-stacked", "cap", "caps-stacked", "king-immune", "king-fogged")
_PRICED: dict[str, tuple[type, ...]] = {
    "move": (Move,),
    "attack": (Attack,),
    "summon": (Summon,),
    "teleport": (Teleport,),
    "break": (Break,),
    "repair": (Repair,),
}


def _shows(found: Found, action: Action, applied: Applied) -> bool:
    """Whether ``applied`` shows the break the sweep found, in a game: the action it priced below 0,
    an attack with the bonuses or sources past the cap, a hit on the King that deals nothing."""
    fx = applied.effects
    if found.kind in ("negative-cost", "negative-cost-stacked"):
        return fx.cost_worked is not None and fx.cost_worked.raw < 0
    if not isinstance(action, Attack) or fx.cards is None:
        return False
    if found.kind == "king-immune":
        return bool(fx.hit) and fx.damage == 0 and fx.king_damage is not None
    if found.kind == "king-fogged":
        return fx.king_damage is not None and fx.threshold == caps.MIN_TO_HIT and fx.cards.raw_to_hit < 0
    if found.what == "to-hit":
        return fx.cards.raw_to_hit > caps.TO_HIT_BONUS_CAP
    if found.what == "damage":
        return fx.cards.raw_damage > caps.DAMAGE_BONUS_CAP and bool(fx.hit)
    return len(fx.cards.rerolls) > caps.REROLL_SOURCES_CAP


def _tries(state: GameState, found: Found) -> Iterator[Action]:
    """The way forward, then the actions that could show ``found`` (the situation's kind of action)."""
    phase = state.turn.phase
    nxt = next_phase(phase)
    yield EndTurn() if nxt is None else EnterPhase(nxt)
    kinds = _PRICED.get(found.what, (Attack,))
    if Attack in kinds and phase in _WINDOWS[Attack]:
        for action in attacks(state):
            assert isinstance(action, Attack)
            yield action.replace(roll=_HIT, second=_HIT if found.what == "reroll" else ())
    if Move in kinds and phase in _WINDOWS[Move]:
        yield from _moves(state)
    if Summon in kinds and phase in _WINDOWS[Summon]:
        yield from summons(state)
    if Teleport in kinds and phase in _WINDOWS[Teleport]:
        yield from teleports(state)
    if phase in _WINDOWS[Break] and (Break in kinds or Repair in kinds):
        yield from (Break(_FAILURE), Repair(_FAILURE))


def _witnessed(found: Found, by_name: dict[str, A.Card], ruleset: Ruleset, steered: set[str] | None = None) -> Found:
    """``found`` with its path carried on to an action that shows the break in a game, when the sweep
    found it (a situation rather than an action): at most two more turns of phases, then the first
    action of the situation's kind that shows it, then a game steered toward it
    (:func:`_directed_show`), once per probe position in ``steered`` (the probes a steered game for
    the same situation was played from already; None: no record kept). Without one an error becomes
    the warning that no game shows it (:func:`_unshown`); a warning keeps its path."""
    if found.kind not in _SWEPT or found.projected:
        return found
    dealt = tuple(by_name[name] for name in dict.fromkeys((*found.hands[0], *found.hands[1])))
    state = start(found.probe, dealt, found.hands, ruleset)
    for action in found.path:
        step = apply(state, action)
        if not isinstance(step, Applied):
            return _unshown(found)
        state = step.state
    extra: list[Action] = []
    for _ in range(12):  # phases of up to two more turns
        forward: Action | None = None
        for action in _tries(state, found):
            step = apply(state, action)
            if not isinstance(step, Applied):
                continue
            if forward is None:
                forward = action
                continue
            if _shows(found, action, step):
                return dataclasses.replace(found, path=(*found.path, *extra, action))
        if forward is None:
            return _unshown(found)
        step = apply(state, forward)
        assert isinstance(step, Applied)
        state = step.state
        extra.append(forward)
    if steered is not None:
        if found.probe.name in steered:
            return _unshown(found)
        steered.add(found.probe.name)
    shown = _directed_show(found, state, (*found.path, *extra), by_name)
    return _unshown(found) if shown is None else dataclasses.replace(found, path=shown)


def _situation_aim(found: Found, by_name: dict[str, A.Card]) -> A.Condition | None:
    """What the attacks of a game steered toward ``found``'s situation must be: the predicates about
    the attack of its cards' modifiers on attacks, all at once when a game can meet them together
    (``attacker in enemy camp`` and ``target in own camp``), else the first such condition (None:
    none reads the attack, every attack serves)."""
    if found.what not in ("to-hit", "damage", "reroll"):
        return None
    parts = [
        (effect, part)
        for name in found.cards
        if name in by_name
        for effect in by_name[name].effects
        if attack_part(effect) is not None and (part := reachable.action_part(effect.condition)) is not None
    ]
    if not parts:
        return None
    first, aim = parts[0]
    together = A.Condition(tuple(p for _, part in parts for p in part.predicates), aim.span)
    joined = dataclasses.replace(first, trigger=None, condition=together)
    return together if reachable.unreachable(joined) is None else aim


def _directed_show(
    found: Found, state: GameState, path: tuple[Action, ...], by_name: dict[str, A.Card] | None = None
) -> tuple[Action, ...] | None:
    """The witness search for a situation the sweep found: a game played on from ``state`` (reached
    by ``path``) in which both sides move their pieces (:func:`witness.wander`: toward more attacks
    of the holder of ``found``'s cards on the opponent's pieces, else a move drawn from a generator
    seeded by the break, so that the game is the same every run), each action of the situation's
    kind tried at each step, until one shows the break in the game; the path to it, or None within
    :data:`witness.SITUATION_PLIES` plies, or once :data:`witness.STALL` plies in a row bring the
    holder no closer attack (the board the game steers to is reached)."""
    holder = Color.WHITE if set(found.cards) & set(found.hands[0]) else Color.BLACK
    aim = _situation_aim(found, by_name) if by_name is not None else None
    goal = Goal(frozenset(), frozenset({A.Event.HIT}), holder, condition=aim)
    rng = random.Random(zlib.crc32(repr((found.kind, found.what, sorted(found.cards), found.probe.name)).encode()))
    best, since = witness.reach(state, goal), 0
    for _ in range(witness.SITUATION_PLIES):
        if since >= witness.STALL:
            return None
        moved = 0
        for _ in range(witness.ACTIONS):
            for action in _tries(state, found):
                if isinstance(action, EnterPhase | EndTurn):
                    continue
                step = apply(state, action)
                if isinstance(step, Applied) and _shows(found, action, step):
                    return (*path, action)
            chosen = witness.wander(state, goal, rng) if moved < witness.WANDER else None
            moved += chosen is not None
            action = chosen if chosen is not None else witness.forward(state)
            step = apply(state, action)
            if not isinstance(step, Applied) or step.state.result is not None:
                return None
            state, path = step.state, (*path, action)
            if isinstance(action, EndTurn):
                break
        else:
            return None
        now = witness.reach(state, goal)
        best, since = (now, 0) if now > best else (best, since + 1)
    return None


def _unshown(found: Found) -> Found:
    """A break the sweep found in a situation that no game played went on to show (a Repair
    discounted while its holder's Gem stands, say): reasoned, not proven, so a warning that says
    so (``SG-C162``), never an error without a game that replays to it. A warning stays as it is."""
    if found.severity is not Severity.ERROR:
        return found
    note = "the sweep found the situation, and no game played on to it within two more turns"
    return dataclasses.replace(
        found,
        severity=Severity.WARNING,
        projected=note,
        message=f"possibly {found.message} (no game found: {note})",
    )


def _covers(kept: Found, item: Found) -> bool:
    """A break kept says this one too: the same break; an exchange's rate for its amount (the cards
    that trade better than 2:1 pass the 20 a turn with the core's conversion as a consequence); a
    Repair denied, or an action priced out, for the same action only called steep."""
    if kept.kind == item.kind:
        return kept.what == item.what or (kept.what, item.what) == ("rate", "amount")
    if item.kind != "steep-price":
        return False
    return (kept.kind == "priced-out" and kept.what == item.what) or (
        kept.kind == "repair-denied" and item.what == "repair"
    )


def _minimal(found: Iterable[Found]) -> list[Found]:
    """Each break once, by the fewest cards: a break two cards make is not reported again with a third."""
    ordered = sorted(found, key=lambda f: (len(f.cards), f.kind == "steep-price", f.what == "amount", len(f.path)))
    kept: list[Found] = []
    for item in ordered:
        names = set(item.cards)
        if any(_covers(k, item) and set(k.cards) <= names for k in kept):
            continue
        kept.append(item)
    return kept


__all__ = ["BOUNDS", "Bounds", "Exploration", "Found", "Topic", "combinations", "explore", "topics"]


pickle_by_fields(globals())
