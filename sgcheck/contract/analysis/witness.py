"""The witness search: a game directed at the events a reasoned break needs (core §8).

The explorer's reasoning says which quantity crosses which bound, and through which events: the
copies of an effect that a trigger starts, one each time its event happens (``on captured: to_hit
+10 permanently`` needs three captures of its holder's pieces; ``on attacked: damage +1 next turn``
three attacks on them in one turn). When the games the explorer plays do not make those events
often enough, the witness search plays one that does: a goal-directed game in which both sides
choose their actions and dice to bring the events about.

- **The goal** (:class:`Goal`): the copies to add (a card, its holder, the effect each copy is),
  and the events that add them. The events tell the roles: for an event the holder *suffers*
  (``captured``, ``attacked``) the opponent is the aggressor and the holder's pieces the prey; for
  one the holder *makes* (``capture``, ``hit``, ``miss``) the holder attacks the opponent's.
  The effect's condition is part of the goal (:attr:`Goal.condition`): the game steers to the
  position it needs (:func:`sgcheck.contract.analysis.reachable.gap`: LP paid down as prices or
  raised by the conversion, a Gem broken) and counts only the attacks it holds on (its pieces,
  distance, camps, as the engine reads them).
- **The choice** (:func:`choose`): at each step, every candidate action of the phase
  (:data:`sgcheck.core.legal.CATEGORIES`), an attack with the dice of a hit and of a miss, a Break
  or a Repair with a success and a failure, is applied with :func:`sgcheck.core.engine.apply` (which
  refuses what the rules forbid), and the one whose position scores best is taken (:func:`score`):
  the game still going, then more copies and firings, then more attacks the aggressor could make
  on the prey (the aggressor closes in, the prey is fed to it: a piece moved or summoned into
  reach), then the aggressor's pieces kept. When no action scores above the position as it is, the
  phase moves on. The prey's side never attacks when its own losses are the event, and no side
  takes an action that leaves it less than a Repair's price (:data:`RESERVE`).
- **The pace**: as many events a turn as can be paid, then, if that finds nothing, one a turn
  (:meth:`Goal.paced`), so that what must recur turn after turn is not all spent in one turn; a
  game in which no turn brought an event is not played again paced (it would be the same game).
- **The judge** is the core engine: every step of the game is an action it took, the dice are
  faces the rules allow, and the watch replay keeps judges each step, so a break met in this game
  is a break of a game that replays (the proof log states its dice).

A fixed number of plies (:data:`PLIES`) bounds the search for a witness, and it stops when the
goal has come 40 more times than at its start (more than any bound is away, as the explorer's
decision counts); it never decides that a pack is clean: a break no witness game reaches stays
the warning that says so, with these bounds.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from sgcheck.contract.analysis import reachable
from sgcheck.contract.facts.matchups import role_kinds
from sgcheck.core import caps
from sgcheck.core.actions import Action, Attack, Break, Convert, EndTurn, EnterPhase, Move, Repair, Summon, Teleport
from sgcheck.core.cards import model as A
from sgcheck.core.cards.parts import Resource
from sgcheck.core.cards.semantics import Situation, holds
from sgcheck.core.engine import apply
from sgcheck.core.formulas import value_of
from sgcheck.core.geometry import KING_STEPS, KNIGHT_JUMPS, SLIDE_DIRS, attack_targets
from sgcheck.core.legal import CATEGORIES, moves, summons
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, Kind, Piece, piece
from sgcheck.core.squares import ALL_SQUARES, Square, file_of, on_board, rank_of, square
from sgcheck.core.state import Board, GameState, Payment
from sgcheck.core.windows import next_phase

#: How many plies a witness game is played, at most: 50 turns of each player.
PLIES = 100

#: A witness game stops after this many plies in a row in which neither the copies nor the
#: aggressor's reach grew: the game does not bring the events about.
STALL = 12

#: At most this many actions a turn (the way forward aside).
ACTIONS = 16

#: How many plies a game played on toward a situation the sweep found is played, at most, and how
#: many pieces each side moves or summons a turn in it.
SITUATION_PLIES = 40
WANDER = 3

#: The dice of a hit and of a miss (an accuracy roll), of a success and of a failure (3d6).
HIT, MISS = (0, 1), (0, 0)
SUCCESS, FAILURE = (6, 6, 6), (1, 1, 1)

#: Events the holder suffers from the opponent's attacks, and events the holder's own attacks make.
SUFFERED = frozenset({A.Event.CAPTURED, A.Event.ATTACKED})
MADE = frozenset({A.Event.CAPTURE, A.Event.HIT, A.Event.MISS})

#: The copies of one effect: its card, its holder and the effect each copy is.
Copy = tuple[str, Color, A.Effect]


@dataclass(frozen=True, slots=True)
class Goal:
    """What a witness game brings about: more of the ``copies``, by their ``events``."""

    copies: frozenset[Copy]
    events: frozenset[A.Event]
    owner: Color
    # cards whose triggers on the events count each time they fire (effects that start no copy)
    fired: frozenset[str] = frozenset()
    # at most this many actions a turn that add copies or firings (None: as many as can be paid), so
    # that what must recur turn after turn is not all spent in one turn
    per_turn: int | None = None
    # the condition the effect fires and acts under, for the holder: the game steers to a position
    # where it holds (:func:`reachable.gap`) and to attacks it holds on (:func:`reach`)
    condition: A.Condition | None = None

    @property
    def aim(self) -> A.Condition | None:
        """The part of :attr:`condition` about the attack (its pieces, distance, camps), or None."""
        return reachable.action_part(self.condition)

    def gap(self, state: GameState) -> int:
        """How far ``state`` is from the position :attr:`condition` needs (0: none needed)."""
        return 0 if self.condition is None else reachable.gap(state, self.owner, self.condition)

    @property
    def aggressor(self) -> Color | None:
        """The side whose attacks make the events (None: the events are not attacks)."""
        if self.events & SUFFERED:
            return self.owner.other
        if self.events & MADE:
            return self.owner
        return None

    def progress(self, state: GameState) -> int:
        """How many of the copies are in play in ``state``, or started and waiting for their turn, and
        how often the triggers of the ``fired`` cards fired on the events."""
        cards = state.cards
        if cards is None:
            return 0
        waiting = (item for _, item in cards.pending)
        copies = sum(1 for item in (*cards.lasting, *waiting) if (item.card, item.owner, item.effect) in self.copies)
        if not self.fired:
            return copies
        firings = sum(
            item.fired_game
            for item in cards.lasting
            if item.card in self.fired
            and item.owner is self.owner
            and item.effect.trigger is not None
            and item.effect.trigger.event in self.events
        )
        return copies + firings

    def describe(self) -> str:
        events = ", ".join(sorted(str(event) for event in self.events)) or "none"
        aimed = " under the effect's condition (steered to it)" if self.condition is not None else ""
        return (
            f"a witness game directed at the events ({events}){aimed} for up to {PLIES // 2} turns of each player, "
            f"as many events a turn as can be paid, then one a turn, each stopped after {STALL} plies "
            "without a copy or a closer attack"
        )

    def paced(self) -> Goal:
        """The same goal, one event a turn."""
        return dataclasses.replace(self, per_turn=1)


def reach(state: GameState, goal: Goal) -> int:
    """How many attacks the aggressor's pieces could make on the prey's pieces other than the King
    (the King's 20 hit points end the game, not feed it), whoever is to move."""
    aggressor = goal.aggressor
    if aggressor is None:
        return 0
    aim = goal.aim
    if aim is not None:
        return _aimed(state, aggressor, goal.owner, aim)
    return _reach(state.board, aggressor)


def _aimed(state: GameState, aggressor: Color, owner: Color, aim: A.Condition) -> int:
    """How many attacks the aggressor's pieces could make on which ``aim``, the attack's part of a
    condition of ``owner``'s card, holds as the engine reads it (the King a target when it does)."""
    return len(_aimed_attacks(state, aggressor, owner, aim))


def _aimed_attacks(state: GameState, aggressor: Color, owner: Color, aim: A.Condition) -> list[Square]:
    """The target square of each attack :func:`_aimed` counts."""
    board = state.board
    found: list[Square] = []
    for sq in ALL_SQUARES:
        cell = board[sq]
        if cell is None or cell.color is not aggressor:
            continue
        for to, route in attack_targets(board, sq, cell):
            target = board[to]
            assert target is not None
            if holds(aim, owner, state, Situation(aggressor, cell.kind, target.kind, route.distance, sq, to)):
                found.append(to)
    return found


def _reach(board: Board, aggressor: Color) -> int:
    return sum(_reaches(board, aggressor))


def _attacks(board: Board, sq: Square, cell: Piece) -> int:
    """How many attacks the piece ``cell`` on ``sq`` could make on pieces other than the King."""
    count = 0
    for to, _ in attack_targets(board, sq, cell):
        target = board[to]
        if target is not None and target.kind is not Kind.KING:
            count += 1
    return count


@lru_cache(maxsize=4096)
def _reaches(board: Board, aggressor: Color) -> tuple[int, ...]:
    """:func:`_attacks` of each of the aggressor's pieces, by square (0 elsewhere)."""
    return tuple(
        _attacks(board, sq, cell) if (cell := board[sq]) is not None and cell.color is aggressor else 0
        for sq in ALL_SQUARES
    )


def _sight(board: Board, sq: Square, cell: Piece) -> frozenset[Square]:
    """The squares whose occupants can change what the piece ``cell`` on ``sq`` attacks (R08): its
    own; a sliding piece's lines up to the first occupied square of each, which blocks the rest; a
    Knight's jumps and the jumps on from them; the steps around a King's or a Pawn's square."""
    kind = cell.kind
    if kind is Kind.KNIGHT:
        return frozenset({sq, *KNIGHT_JUMPS[sq], *(to for mid in KNIGHT_JUMPS[sq] for to in KNIGHT_JUMPS[mid])})
    if kind in SLIDE_DIRS:
        lines = {sq}
        for df, dr in SLIDE_DIRS[kind]:
            f, r = file_of(sq) + df, rank_of(sq) + dr
            while on_board(f, r):
                lines.add(to := square(f, r))
                if board[to] is not None:
                    break
                f, r = f + df, r + dr
        return frozenset(lines)
    return frozenset({sq, *KING_STEPS[sq]})


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the aggressor's pieces attack on one board: each piece's count by square
    (:func:`_reaches`), their sum, and for each square the pieces whose :func:`_sight` holds it."""

    reaches: tuple[int, ...]
    total: int
    seers: tuple[tuple[Square, ...], ...]


@lru_cache(maxsize=1024)
def _seen(board: Board, aggressor: Color) -> _Seen:
    reaches = _reaches(board, aggressor)
    seers: list[list[Square]] = [[] for _ in ALL_SQUARES]
    for sq in ALL_SQUARES:
        cell = board[sq]
        if cell is not None and cell.color is aggressor:
            for at in _sight(board, sq, cell):
                seers[at].append(sq)
    return _Seen(reaches, sum(reaches), tuple(tuple(squares) for squares in seers))


def _reach_after(
    board: Board, after: Board, changed: tuple[Square, ...], aggressor: Color, seen: _Seen | None = None
) -> int:
    """:func:`_reach` of ``after``, ``board`` with only the ``changed`` squares changed: the attacks
    of the pieces on the changed squares, and of those that see one (:func:`_sight`), are counted
    afresh; every other piece attacks what it attacks on ``board``. ``seen`` is :func:`_seen` of
    ``board``, when the caller holds it."""
    if seen is None:
        seen = _seen(board, aggressor)
    afresh = {sq for at in changed for sq in (at, *seen.seers[at])}
    count = seen.total - sum(seen.reaches[sq] for sq in afresh)
    for sq in afresh:
        cell = after[sq]
        if cell is not None and cell.color is aggressor:
            count += _attacks(after, sq, cell)
    return count


def _pieces(state: GameState, color: Color) -> int:
    return sum(1 for cell in state.board if cell is not None and cell.color is color)


#: A position's score toward a goal (:func:`score`), compared as a tuple: the first that differs decides.
Score = tuple[int, int, int, int, int, int, int]


def score(state: GameState, goal: Goal) -> Score:
    """How far ``state`` is toward the goal: the game going on, the position nearer what the
    effect's condition needs, the copies, the aggressor's reach, the damage dealt this turn toward
    a capture when the condition names the attack (a piece worth 3 falls to 3 hits in a turn, core
    §4.3), the prey's pieces of the kinds the condition names as targets (the prey's side summons
    them), and the pieces the aggressor keeps (the prey's side does not take away what attacks it)."""
    aggressor = goal.aggressor
    kept = _pieces(state, aggressor) if aggressor is not None else 0
    dealt = _toward_capture(state, goal) if state.turn.damage else 0
    going = int(state.result is None)
    return (going, -goal.gap(state), goal.progress(state), reach(state, goal), dealt, _supply(state, goal), kept)


def _supply(state: GameState, goal: Goal) -> int:
    """The prey's pieces, the King aside, of the kinds the goal's condition names as targets (0
    when it names none)."""
    aim, aggressor = goal.aim, goal.aggressor
    if aim is None or aggressor is None:
        return 0
    kinds = role_kinds(aim, A.Role.TARGET, A.ALL_KINDS)
    if kinds == A.ALL_KINDS:
        return 0
    prey = aggressor.other
    return sum(
        1 for cell in state.board if cell is not None and cell.color is prey and cell.kind in kinds - {Kind.KING}
    )


#: Damage this turn counts toward a capture on a piece that falls to at most this many hits in a
#: turn (a Pawn, a Knight, a Bishop: core §4.3), what one turn of a witness game can pay for.
_HITS_TO_CAPTURE = 3


def _toward_capture(state: GameState, goal: Goal) -> int:
    """The damage dealt this turn toward capturing pieces the goal's condition holds on, attacked as
    it names (:func:`_aimed_attacks`), that fall to a few hits (:data:`_HITS_TO_CAPTURE`); 0 for a
    goal whose condition names no attack."""
    aim, aggressor = goal.aim, goal.aggressor
    if aim is None or aggressor is None:
        return 0
    aimed = set(_aimed_attacks(state, aggressor, goal.owner, aim))
    total = 0
    for sq, dealt in state.turn.damage:
        cell = state.board[sq]
        if sq in aimed and cell is not None and value_of(cell.kind, state.ruleset) <= _HITS_TO_CAPTURE:
            total += dealt
    return total


def options(state: GameState, goal: Goal, skip: tuple[type, ...] = ()) -> Iterator[Action]:
    """The actions a witness game weighs in ``state``: every one the core accepts but the phase
    changes, with the dice both ways; the prey's side makes no attack when its losses are the event,
    and no side converts or teleports unless a teleport is the event (a Move or a Summon brings a
    piece within reach as well, and a Teleport has a destination for every free camp square). The
    Moves and Summons are not listed when ``skip`` holds their kind."""
    prey_side = goal.owner if goal.events & SUFFERED else None
    teleports = A.Event.TELEPORT in goal.events
    # the conversion raises the mover's LP when the condition wants it higher
    converts = (state.to_move, Resource.LP) in reachable.raises(goal.condition, goal.owner)
    if state.result is not None:
        return
    # the core's candidates of the phase; the engine refuses what is not legal when it is applied
    left = {_LISTED[kind] for kind in skip}
    listed = (category for category in CATEGORIES[state.turn.phase] if category not in left)
    for action in (action for category in listed for action in category(state)):
        if isinstance(action, EnterPhase | EndTurn) or (isinstance(action, Convert) and not converts):
            continue
        if isinstance(action, Teleport) and not teleports:
            continue
        if isinstance(action, Attack):
            if state.to_move is prey_side:
                continue
            yield action.replace(roll=HIT)
            yield action.replace(roll=MISS)
        elif isinstance(action, Break | Repair):
            yield action.replace(roll=SUCCESS)
            yield action.replace(roll=FAILURE)
        else:
            yield action


#: The core's listing of each kind of action :func:`options` may leave out.
_LISTED = {Move: moves, Summon: summons}


def forward(state: GameState) -> Action:
    """The way forward: the next phase, or the end of the turn."""
    nxt = next_phase(state.turn.phase)
    return EndTurn() if nxt is None else EnterPhase(nxt)


def wander(state: GameState, goal: Goal, rng: random.Random) -> Action | None:
    """A Move or a Summon of the mover, toward a situation: the one that gives the aggressor the
    most attacks on the prey's pieces when one gives more than now (judged on the board the action
    leaves, the piece moved or placed), else one drawn by ``rng`` (None: the mover has none). The
    core accepts every action returned."""
    found = (*moves(state), *summons(state))
    if not found:
        return None
    aggressor = goal.aggressor
    if aggressor is None:
        closer: tuple[Action, ...] = ()
    elif goal.aim is not None:  # attacks the condition holds on, on the board the action leaves
        closer = _aimed_closer(state, goal, aggressor, found)
    else:
        closer = _closer(state.board, aggressor, state.to_move, found)
    for action in closer:
        if isinstance(apply(state, action), Applied):
            return action
    action = rng.choice(found)
    return action if isinstance(apply(state, action), Applied) else None


def _placed(board: Board, action: Action, mover: Color) -> tuple[Board, tuple[Square, ...]]:
    """``board`` after ``mover``'s Move or Summon ``action``, the piece moved or placed (nothing else
    judged), and the squares it changed (none for another action)."""
    after = list(board)
    if isinstance(action, Move):
        after[action.to], after[action.frm] = after[action.frm], None
        return tuple(after), (action.frm, action.to)
    if isinstance(action, Summon):
        after[action.to] = piece(mover, action.kind)
        return tuple(after), (action.to,)
    return board, ()


@lru_cache(maxsize=4096)
def _closer(board: Board, aggressor: Color, mover: Color, found: tuple[Action, ...]) -> tuple[Action, ...]:
    """The Moves and Summons of ``found`` (``mover``'s, on ``board``) that give the ``aggressor`` more
    attacks than ``board`` does, the most first (the first found on a tie): a function of the board
    and the actions alone, so games that pass through one position rank its actions once."""
    seen = _seen(board, aggressor)
    ranked: list[tuple[int, int, Action]] = []
    for index, action in enumerate(found):
        after, changed = _placed(board, action, mover)
        value = _reach_after(board, after, changed, aggressor, seen)
        if value > seen.total:
            ranked.append((-value, index, action))
    return tuple(action for _, _, action in sorted(ranked))


def _aimed_closer(state: GameState, goal: Goal, aggressor: Color, found: tuple[Action, ...]) -> tuple[Action, ...]:
    """The Moves and Summons of ``found`` that give the ``aggressor`` more attacks the goal's
    condition holds on (:func:`_aimed`, :attr:`Goal.aim`) than ``state`` does, on the board each
    leaves, the most first (the first found on a tie)."""
    aim = goal.aim
    assert aim is not None
    base = _aimed(state, aggressor, goal.owner, aim)
    ranked: list[tuple[int, int, Action]] = []
    for index, action in enumerate(found):
        board, _ = _placed(state.board, action, state.to_move)
        value = _aimed(state.replace(board=board), aggressor, goal.owner, aim)
        if value > base:
            ranked.append((-value, index, action))
    return tuple(action for _, _, action in sorted(ranked))


#: What each side of a witness game keeps in LP and SP together: a Repair at the core's price, so
#: that a denial of a Repair the player could pay (core §6, R15) stays in reach.
RESERVE = caps.REPAIR_COST


def choose(state: GameState, goal: Goal) -> Action | None:
    """The action that brings ``state`` furthest toward ``goal`` (:func:`score`), None when none
    scores above ``state`` itself (the phase should move on). The first found wins a tie. No action
    is taken that leaves its taker with less than :data:`RESERVE` in LP and SP together.

    A Move or a Summon that no card in play waits for (:func:`_quiet`) changes only the board and
    what its taker pays, so, when the goal's condition reads neither LP nor SP and names no attack
    (:func:`_bounded`), its score is known before it is played (:func:`_bound`); one that cannot
    score above the best so far is not played at all, and the choice is the same as if every
    candidate had been played."""
    base = score(state, goal)
    best: tuple[Score, Action | None] = (base, None)
    mover = state.to_move
    in_lp = (mover, Resource.LP) in reachable.lowers(goal.condition, goal.owner)
    # the bounds hold while a quiet action leaves the gap to the condition as it is (it reads no LP
    # or SP, which a price moves) and the reach is counted on the board alone (no attack named)
    quiet = _quiet(state) if _bounded(goal) else ()
    seen = _seen(state.board, goal.aggressor) if quiet and goal.aggressor is not None else None
    # without an aggressor a position scores its copies alone (and the gap to a condition that
    # reads no position): a Move or a Summon adds at most one firing, and one copy, for each
    # trigger in play that counts toward the goal
    fixed = goal.aggressor is None and reachable.position_part(goal.condition) is None
    most = (1, base[1], base[2] + _waiting(state, goal), 0, 0, 0, 0) if fixed else None
    # without an aggressor a quiet action scores as the position does: none is listed
    for action in options(state, goal, quiet if goal.aggressor is None else ()):
        # a quiet action keeps the copies: it cannot pass a best that has more, whatever the board
        if isinstance(action, quiet) and (
            best[0][:3] > base[:3] or _bound(state, action, base, goal.aggressor, seen) <= best[0]
        ):
            continue
        if most is not None and isinstance(action, Move | Summon) and most <= best[0]:
            continue
        step = apply(state, action)
        if not isinstance(step, Applied):
            continue
        if in_lp:  # the condition wants the mover's LP lower: the price paid from LP first (R05)
            action, step = _paid_in_lp(state, action, step)
        after = step.state.players[mover]
        if after.lp + after.sp < RESERVE:
            continue
        value = score(step.state, goal)
        if value > best[0]:
            best = (value, action)
    return best[1]


def _quiet(state: GameState) -> tuple[type, ...]:
    """The kinds of action (Move, Summon) that no card in ``state`` waits for: played, such an action
    moves or places one piece and charges its taker, and fires nothing (what a player pays for an
    action is no loss that ``on lose SP`` hears, and a cost modifier changes the price, not the
    position; the game may still end on it, as a scenario's condition is met, which only lowers its
    score)."""
    cards = state.cards
    if cards is None:
        return ()
    events = cards.lasting_index.events
    return tuple(kind for kind, event in _HEARD if event not in events)


def _waiting(state: GameState, goal: Goal) -> int:
    """How much one Move or one Summon can add to ``goal``'s progress in ``state``: each trigger in
    play fires at most once for the action and once for each kind of gain or loss it brings (R23),
    and its trigger waits for one event, so it fires once at most; a firing counts once when its card
    is one the goal counts the firings of, and once more when the copy it starts is one of the
    goal's copies. A Move or a Summon plays no card, so no other trigger enters play with it."""
    cards = state.cards
    if cards is None:
        return 0
    kinds = {effect for _, _, effect in goal.copies}
    count = 0
    for item in cards.lasting:
        trigger = item.effect.trigger
        if trigger is None or trigger.event is A.Event.PHASE:
            continue
        count += item.card in goal.fired and item.owner is goal.owner and trigger.event in goal.events
        count += dataclasses.replace(item.effect, trigger=None, limit=None) in kinds
    return count


#: The kinds of action a witness game plays without firing a card when no trigger waits for their event.
_HEARD: tuple[tuple[type, A.Event], ...] = ((Move, A.Event.MOVE), (Summon, A.Event.SUMMON))


def _bounded(goal: Goal) -> bool:
    """Whether a quiet action's score in a game for ``goal`` is known before it is played
    (:func:`_bound`): the goal's condition reads no player's LP or SP (a price paid moves them, and
    with them the gap to its level) and, when the events are attacks, names no attack (the reach is
    then the board's alone, and no damage or target counts toward a capture)."""
    condition = goal.condition
    if condition is None:
        return True
    if any(isinstance(p, A.ResourceIs) for p in condition.predicates):
        return False
    return goal.aggressor is None or goal.aim is None


def _bound(state: GameState, action: Action, base: Score, aggressor: Color | None, seen: _Seen | None) -> Score:
    """The score a quiet ``action`` (:func:`_quiet`) reaches in ``state`` (scored ``base``) if the core
    accepts it, for a goal :func:`_bounded` holds for: the game goes on, the gap to the condition
    (LP and SP aside, a Gem broken or whole) and the copies are those of ``state``, the
    ``aggressor``'s reach is that of the board it leaves (``seen`` is :func:`_seen` of ``state``'s),
    no damage nor target counts (no attack named), and the aggressor keeps its pieces, one more when
    it summons."""
    if aggressor is None or seen is None:
        return (1, *base[1:])
    board, changed = _placed(state.board, action, state.to_move)
    kept = base[6] + (isinstance(action, Summon) and state.to_move is aggressor)
    reached = _reach_after(state.board, board, changed, aggressor, seen)
    return (1, base[1], base[2], reached, 0, 0, kept)


#: The actions whose log line states how their price is paid (R05).
_PAYS = (Summon, Move, Attack, Teleport, Break, Repair)


def _paid_in_lp(state: GameState, action: Action, step: Applied) -> tuple[Action, Applied]:
    """``action`` with its price paid from the mover's LP as far as they go (R05: a log states how a
    cost is paid), and what the engine makes of it; ``action`` and ``step`` when that cannot be."""
    paid = step.effects.paid
    if paid is None or paid.sp == 0 or not isinstance(action, _PAYS):
        return action, step
    lp = min(paid.total, state.players[state.to_move].lp)
    if lp <= paid.lp:
        return action, step
    priced: Action = action.replace(pay=Payment(paid.total - lp, lp))
    again = apply(state, priced)
    return (priced, again) if isinstance(again, Applied) else (action, step)


__all__ = [
    "ACTIONS",
    "PLIES",
    "SITUATION_PLIES",
    "STALL",
    "WANDER",
    "Goal",
    "choose",
    "forward",
    "options",
    "reach",
    "score",
    "wander",
]
