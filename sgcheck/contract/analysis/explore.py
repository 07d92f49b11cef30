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
  (:data:`PROJECTED` more, swept), and what that breaks is reported as projected.

Findings are errors, except what several cards do only together (a cap passed, a King left
without damage: the R20 warning, as the player chooses to bring them together) and a steep price
(a judgment call).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice

from sgcheck.contract.analysis.meeting import Hands, Topic, combinations, topics
from sgcheck.contract.analysis.probes import Probe, probes_for, start, sweep, sweep_key
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
from sgcheck.core.cards.semantics import Share, targets
from sgcheck.core.cards.table import CardsState, Lasting, ply
from sgcheck.core.engine import apply
from sgcheck.core.legal import attacks, moves_from, summons, teleports
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import PIECE_VALUES, Color, Kind
from sgcheck.core.play.cards import acts_on
from sgcheck.core.record import pickle_by_fields
from sgcheck.core.ruleset import CORE, Ruleset
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


#: At most this many actions of a kind along one turn of a search: enough to repeat a cycle
#: (out and back), to stack two uses, to try again after a failed attempt.
_PER_TURN: dict[type, int] = {Move: 3, Attack: 2, Convert: 2, Break: 3, Repair: 3, Summon: 2, Teleport: 2}


def candidates(
    state: GameState, wanted: frozenset[Topic], taken: dict[type, int] | None = None, last: Action | None = None
) -> Iterator[Action]:
    """The actions worth trying in ``state`` for cards about ``wanted``: the cards' plays and uses,
    then the way forward (so that a depth-first search plays the cards and reaches the end of the
    turn before it tries anything else), then the actions the cards are about, and no
    more of a kind than :data:`_PER_TURN` allows given ``taken`` (the turn's actions so far)."""
    taken = taken or {}

    def room(kind: type) -> bool:
        return taken.get(kind, 0) < _PER_TURN[kind]

    phase = state.turn.phase
    nxt = next_phase(phase)
    yield from _card_actions(state)  # the cards are what is explored: played and used first
    yield EndTurn() if nxt is None else EnterPhase(nxt)
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
            for action in islice(attacks(state), 4):
                assert isinstance(action, Attack)
                yield dataclasses.replace(action, roll=_HIT)
                yield dataclasses.replace(action, roll=_MISS)
                if Topic.REROLL in wanted:
                    yield dataclasses.replace(action, roll=_MISS, second=_HIT)
                    yield dataclasses.replace(action, roll=_MISS, second=_HIT, advantage=True)
    elif phase in _WINDOWS[Teleport] and Topic.TELEPORT in wanted and room(Teleport):
        yield from islice(teleports(state), 2)


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
    ) -> None:
        self.probe, self.hands, self.bounds, self.found = probe, hands, bounds, found
        self.cards = cards
        self.wanted = frozenset().union(*(topics(c) for c in cards)) if cards else frozenset()
        self.ruleset = ruleset
        self.states = 0
        self.swept = swept  # sweeps already made, shared by every search of a pack

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
            self._project(end)

    def _project(self, node: _Node) -> None:
        """Copies that accumulate, carried on past the turns played (a decision, not a search).

        An effect of which a trigger or a use of an activated Relic has started a lasting copy
        that never ends, with nothing bounding how often (a ``limit`` per game), will have as many
        more as its event recurs or the Relic is used: the state is swept again with
        :data:`PROJECTED` more copies of each, and what that breaks is reported as projected.
        """
        cards = node.state.cards
        if cards is None:
            return
        groups: dict[tuple[str, Color, A.Effect], int] = {}
        first: dict[tuple[str, Color, A.Effect], Lasting] = {}
        for item in cards.lasting:
            if item.until is None and item.effect.trigger is None:
                key = (item.card, item.owner, item.effect)
                groups[key] = groups.get(key, 0) + 1
                first.setdefault(key, item)
        growing = [key for key in groups if _accumulates(cards, key[0], key[2])]
        if not growing:
            return
        extra = tuple(first[key] for key in growing for _ in range(PROJECTED))
        state = node.state.replace(cards=cards.with_lasting((*cards.lasting, *extra)))
        names = ", ".join(
            f"'{key[0]}' ({groups[key]} cop{'y' if groups[key] == 1 else 'ies'} after {self.bounds.plies // 2} turns)"
            for key in growing
        )
        how = f"{names}: each turn adds copies that never end; swept with {PROJECTED} more"
        for actor in (state.to_move, state.to_move.other):
            self._sweep(state.replace(to_move=actor), node.path, how)

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
            copies = sum(1 for other in cards.lasting if (other.card, other.owner, other.effect) == (
                item.card, item.owner, item.effect))
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
            severity = Severity.WARNING if together else Severity.ERROR
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
                message = f"{message} (projected: {projected})"
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
        if kept is None or _better(found, kept):
            self.found[key] = found

    def _turn(self, root: _Node) -> list[_Node]:
        """A depth-first search of one turn: each node's actions taken one at a time, the way
        forward first, so every branch soon reaches the end of the turn within the budget."""
        ends: list[_Node] = []
        seen: set[object] = set()
        stack: list[tuple[_Node, Iterator[Action]]] = [(root, candidates(root.state, self.wanted))]
        budget = self.bounds.nodes
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
            if child.depth - root.depth >= self.bounds.actions and not isinstance(action, EnterPhase):
                continue
            key = (position_key(child.state), child.state.players)
            if key in seen:
                continue
            seen.add(key)
            taken: dict[type, int] = {}
            for done in child.path[len(root.path) :]:
                taken[type(done)] = taken.get(type(done), 0) + 1
            stack.append((child, candidates(child.state, self.wanted, taken, action)))
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


#: How many more copies of an accumulating effect the projection adds (about as many more turns).
PROJECTED = 8


def _accumulates(cards: CardsState, card: str, effect: A.Effect) -> bool:
    """Whether lasting copies of ``effect`` keep coming: the effect of ``card`` that starts them is a
    trigger, or a use of an activated Relic, and no ``limit`` per game bounds it."""
    source_card = cards.by_name[card]
    for source in source_card.effects:
        if source.action != effect.action:
            continue
        if source.limit is not None and source.limit.period is A.Period.GAME:
            continue
        if source.trigger is not None or source_card.mode is A.Mode.ACTIVATED:
            return True
    return False


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


@dataclass(slots=True)
class PieceResult:
    """What searching one :class:`Piece` found (each break once, by its key), and its size."""

    found: dict[tuple[object, ...], Found]
    combinations: int
    states: int


def explore_piece(piece: Piece) -> PieceResult:
    """Play every combination of ``piece`` from every probe, and gather the breaks (a pure task)."""
    by_name = {card.name: card for card in piece.cards}
    found: dict[tuple[object, ...], Found] = {}
    swept: set[object] = set()
    states = 0
    for hands in piece.hands:
        dealt = tuple(by_name[name] for name in dict.fromkeys((*hands[0], *hands[1])))
        wanted = frozenset().union(*(topics(card) for card in dealt))
        for probe in probes_for(dealt):
            if probe.prelude and Topic.GEM not in wanted:
                continue  # the broken Gem matters only to cards about the Gems
            search = _Search(probe, dealt, hands, piece.ruleset, piece.bounds, found, swept)
            search.run()
            states += search.states
    return PieceResult(found, len(piece.hands), states)


def explore(
    cards: Sequence[A.Card],
    ruleset: Ruleset = CORE,
    hand_limit: int = caps.HAND_LIMIT,
    bounds: Bounds = BOUNDS,
    jobs: int = 1,
) -> Exploration:
    """Play every combination of ``cards`` that can meet, from every probe, and gather the breaks.

    The combinations are searched in pieces of :data:`PIECE`, in ``jobs`` processes when there are
    several pieces (:func:`sgcheck.distribute.map_ordered`); the findings do not depend on ``jobs``."""
    by_name = {card.name: card for card in cards}
    listed = combinations(cards, hand_limit, bounds.partners, bounds.thirds)
    pieces = []
    for first in range(0, len(listed), PIECE):
        hands = tuple(listed[first : first + PIECE])
        names = dict.fromkeys(name for hand in hands for side in hand for name in side)
        pieces.append(Piece(tuple(by_name[name] for name in names), hands, ruleset, bounds))
    result = Exploration(bounds=bounds)
    found: dict[tuple[object, ...], Found] = {}
    for part in map_ordered(explore_piece, pieces, jobs=jobs if len(pieces) > 1 else 1):
        result.combinations += part.combinations
        result.states += part.states
        for key, item in part.found.items():
            kept = found.get(key)
            if kept is None or _better(item, kept):
                found[key] = item
    result.findings = [_witnessed(item, by_name, ruleset) for item in _minimal(found.values())]
    return result


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
            yield dataclasses.replace(action, roll=_HIT, second=_HIT if found.what == "reroll" else ())
    if Move in kinds and phase in _WINDOWS[Move]:
        yield from _moves(state)
    if Summon in kinds and phase in _WINDOWS[Summon]:
        yield from summons(state)
    if Teleport in kinds and phase in _WINDOWS[Teleport]:
        yield from teleports(state)
    if phase in _WINDOWS[Break] and (Break in kinds or Repair in kinds):
        yield from (Break(_FAILURE), Repair(_FAILURE))


def _witnessed(found: Found, by_name: dict[str, A.Card], ruleset: Ruleset) -> Found:
    """``found`` with its path carried on to an action that shows the break in a game, when the sweep
    found it (a situation rather than an action): at most two more turns of phases, then the first
    action of the situation's kind that shows it. Without one the path is left as it was."""
    if found.kind not in _SWEPT:
        return found
    dealt = tuple(by_name[name] for name in dict.fromkeys((*found.hands[0], *found.hands[1])))
    state = start(found.probe, dealt, found.hands, ruleset)
    for action in found.path:
        step = apply(state, action)
        if not isinstance(step, Applied):
            return found
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
            return found
        step = apply(state, forward)
        assert isinstance(step, Applied)
        state = step.state
        extra.append(forward)
    return found


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
