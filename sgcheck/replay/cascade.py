"""What follows from an error, so that ``--keep-going`` reports every independent error and only those.

With ``--keep-going`` replay skips a refused action: the state stays as it was, as if the action
had not been written. A refused action is no action for the Pass rule (core §2, R04), so a turn
whose only action was refused earns the +6 LP Pass bonus. The log's later lines were written by
players who saw the action happen, so some of them no longer fit the replayed game. Which ones is
decided by a *counterfactual*, never by a guess: each error opens a second game, its
**counterfactual**, that goes on from the error's position as the log's writer saw it:

* **A refused action** is taken as written where the engine can apply it: the engine applies the
  very action in its position with what refused it granted, when that is something the position
  holds (the phase, the turn's once-only actions, LP and SP to pay, a piece in the Gem, an intact
  Gem), and the grant is taken back after (the phase restored, the credit taken back down to
  zero). Where the engine refuses it even so (the geometry, the dice, the piece, the target),
  the action is taken as its **closest legal reading**: the legal action of the same kind on the
  same piece (same from square; a Summon or Teleport of the same kind; an attack on the same
  target; a Break, Repair or card play of the same card) that differs least from it (the fewest
  of the log's claims on it contradicted, then the nearest squares, then the nearest dice), and a
  piece the log moved, summoned or teleported ends on the square the log names when that square is
  free. An action with no legal reading is taken as far as it can be: it is an action of the
  turn (so the turn earns no Pass bonus, R04), with the totals its claims write.
* **A wrong total** the log writes (an LP or SP total, ``SG-R203``, or an income, ``SG-R208``)
  is taken as written: the counterfactual is the game with the player's total as the log claims
  it, since the players go on from their own figure.

Every later step of the log (phase label, statement, end of turn) is replayed in each open
counterfactual as well, by the same code as the replay itself (so by the pure engine,
:func:`sgcheck.core.engine.apply`), from the counterfactual's own position; a step refused there
is taken as its own reading in turn. A later error is counted under an earlier one only if it
*disappears* in that one's counterfactual: the same statement is not refused there (for a refused
action), or the same claim holds there (for a claim). When several counterfactuals clear it, the
most recent error is the one it follows from. The counterfactual's own errors on that step (a
wrong cost on the move a refused capture made possible) are faults of the log as its writer saw
it: they are reported, with the counterfactual's position and a hint that says where they are
found, except a want of LP or SP and a wrong total, which a counterfactual knows only as well as
the log writes its totals. Every other finding is reported.

A counterfactual closes when its position is the replayed game's again (nothing more can follow
from its error), when its game ends, or when more than :data:`OPEN_LIMIT` are open (the oldest
closes), which bounds the work to that many extra applications of each action.

Consequences are not reported; each error that has some gets one note, ``SG-N306``, that counts
them and names their lines in its hint. A consequence on the error's own line (the SP total
claimed on the line of a wrong income) is not a fault of its own: it is said in the error's hint,
not counted. All of this applies only with ``--keep-going``: without it replay stops at the first
error.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import final

from sgcheck.codes import Trait, has
from sgcheck.core import engine
from sgcheck.core.actions import Action, Activate, Attack, Break, Convert, Move, Play, Repair, Summon, Teleport
from sgcheck.core.legal import attacks, card_plays, converts, moves, summons, teleports
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color, piece
from sgcheck.core.state import GameState
from sgcheck.core.windows import ACTION_WINDOWS
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import ClaimKind
from sgcheck.lang.logs.reader import StepClaim
from sgcheck.replay.chain import Link, in_order
from sgcheck.replay.claims import claims_hold

#: At most this many counterfactuals are open at once; past it the oldest closes.
OPEN_LIMIT = 8

#: A roll of a refused action is read as one of at most this many dice, of faces 0 to 9.
_MOST_DICE, _FACES = 3, 10


#: LP and SP lent to the player while an action is applied as written (taken back after, down to
#: zero): none, then LP (spent after the player's own SP), then both. More than any action costs,
#: and far from the LP that wins a game (core §7).
_LOAN = 200
_LOANS = ((0, 0), (_LOAN, 0), (_LOAN, _LOAN))

#: What a finding is, for telling whether it disappears in a counterfactual: its code, and the
#: line and column of its statement (a refused one) or of itself (any other).
Key = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class Refusal:
    """An error later findings may follow from: a refused action, or a wrong total the log carries
    forward."""

    diagnostic: Diagnostic  # the error as reported, with its context
    what: str  # the statement's word ("move", "summon", ...), or the wrong total ("wrong LP total")
    refused: bool = True  # a refused action; False: a wrong total the log carries forward
    index: int = -1  # the error's place among the replay's findings
    within: Span | None = None  # its statement: a finding inside it is no fault of its own


@final
@dataclass(frozen=True, slots=True)
class Counterfactual:
    """The game as the log's writer saw it after refusal ``rid`` (``origin``): its position. A
    value: each step builds one per open counterfactual. (A frozen dataclass, not a core record:
    this module runs interpreted in both builds, and an interpreted class cannot derive from the
    compiled ``Record``.)"""

    rid: int
    state: GameState
    origin: Refusal


@dataclass(slots=True)
class Probe:
    """What one step replayed in a counterfactual found: its errors (by :data:`Key`), those of
    them already reported, and whether the step was refused there for something other than LP or
    SP. Kept for the step only, never in a replay's position."""

    found: dict[Key, Diagnostic] = field(default_factory=dict)
    shown: set[Key] = field(default_factory=set)
    blocked: bool = False


@final
@dataclass(frozen=True, slots=True)
class Cascade:
    """The errors of one replay, the findings that follow from them and their open
    counterfactuals; see the module's docstring. A value (frozen, as :class:`Counterfactual`):
    each change returns a new cascade, in constant time (the errors and the followers are chains
    each one extends), so a replay's position keeps the one it had."""

    errors: Link[Refusal] | None = None
    follows: Link[tuple[int, Diagnostic]] | None = None  # (error number, finding), in order
    open: tuple[Counterfactual, ...] = ()  # oldest first

    def __bool__(self) -> bool:
        return self.errors is not None

    def add(self, diag: Diagnostic, what: str, index: int, within: Span | None, *, refused: bool) -> Cascade:
        """With a reported error later findings may follow from; its number is the number of
        errors before it."""
        refusal = Refusal(diag, what, refused, index=index, within=within)
        return Cascade(Link(refusal, self.errors), self.follows, self.open)

    def branch(self, state: GameState | None) -> tuple[Cascade, Counterfactual | None]:
        """With the counterfactual of the error added last opened at ``state`` (None: it has none)."""
        errors = self.errors
        if errors is None or state is None or state.result is not None:
            return self, None
        opened = Counterfactual(errors.count - 1, state, errors.value)
        now = (*self.open, opened)
        return Cascade(errors, self.follows, now[1:] if len(now) > OPEN_LIMIT else now), opened

    def moved(self, states: Sequence[GameState]) -> Cascade:
        """With each open counterfactual's game moved on to its state of ``states`` (in order)."""
        moved = tuple(Counterfactual(cf.rid, state, cf.origin) for cf, state in zip(self.open, states, strict=True))
        return Cascade(self.errors, self.follows, moved)

    def moved_one(self, rid: int, state: GameState) -> Cascade:
        """With counterfactual ``rid``'s game moved on to ``state``."""
        return self.moved([state if cf.rid == rid else cf.state for cf in self.open])

    def origin(self, key: Key, probes: dict[int, Probe]) -> Counterfactual | None:
        """The counterfactual of the error a finding of the step just replayed follows from: the
        most recent one probed on this step (``probes``, by error number) that does not have it
        (None: it is independent)."""
        for cf in reversed(self.open):
            probe = probes.get(cf.rid)
            if probe is not None and key not in probe.found:
                return cf
        return None

    def surfaced(self, cf: Counterfactual, probe: Probe, key: Key) -> Iterator[Diagnostic]:
        """The errors ``cf`` has on the step (``probe``) whose finding ``key`` follows from its
        error: faults of the log as its writer saw it, reported (each once, with a hint saying
        where they are found), except a want of LP or SP and a wrong total, which a
        counterfactual knows only as well as the log writes its totals."""
        origin = cf.origin
        line = origin.diagnostic.span.line if origin.diagnostic.span is not None else 0
        where = (
            f"found in the game where the {origin.what} of line {line} is played as the log wrote it"
            if origin.refused
            else f"found in the game with the {origin.what} of line {line} as the log wrote it"
        )
        for own, diag in probe.found.items():
            kept_out = has(diag.code, Trait.SHORT_OF_FUNDS) or has(diag.code, Trait.TOTAL_CLAIM)
            if own == key or own in probe.shown or kept_out:
                continue
            probe.shown.add(own)
            yield replace(diag, hint=f"{diag.hint}; {where}" if diag.hint else where)

    def follow(self, rid: int, diag: Diagnostic) -> Cascade:
        """With ``diag`` following from error ``rid``: it is counted, not reported."""
        return Cascade(self.errors, Link((rid, diag), self.follows), self.open)

    def refusals(self) -> list[tuple[Refusal, list[Diagnostic]]]:
        """Each error, in order, with the findings that follow from it, in order."""
        followers: list[list[Diagnostic]] = [[] for _ in range(self.errors.count if self.errors else 0)]
        for rid, diag in in_order(self.follows):
            followers[rid].append(diag)
        return list(zip(in_order(self.errors), followers, strict=True))

    def settle(self, state: GameState | None, clean: bool, probes: dict[int, Probe]) -> Cascade:
        """After a step: without the counterfactuals whose game ended or that agree with
        ``state``, and, if the step was ``clean`` in the game, those that refused it for anything
        but LP or SP (``probes``): there the log contradicts them (its writer did not see the board
        they hold; the totals are the log's own, and a counterfactual's may be off where the log
        writes none)."""
        if not self.open:
            return self
        kept = tuple(
            cf
            for cf in self.open
            if cf.state.result is None and cf.state != state and not (clean and _blocked(probes, cf.rid))
        )
        return self if len(kept) == len(self.open) else Cascade(self.errors, self.follows, kept)


def _blocked(probes: dict[int, Probe], rid: int) -> bool:
    probe = probes.get(rid)
    return probe is not None and probe.blocked


# --- readings of a refused action -------------------------------------------------------------


def reading(state: GameState, action: Action, claims: Sequence[StepClaim], word: str) -> GameState:
    """The position after ``action`` as the log wrote it: applied with what refused it granted,
    else its closest legal reading, else only counted as the turn's action (see the module's
    docstring); with the totals its claims write."""
    for lp, sp in _LOANS:  # what it costs granted too, lent as LP (paid after the player's SP), then SP
        granted = _granted(state, action, lp, sp)
        step = engine.apply(granted, action)
        if isinstance(step, Applied):
            return written_totals(_taken_back(state, granted, step.state, action), state.to_move, claims)
    for lp, sp in _LOANS:
        granted = _granted(state, action, lp, sp)
        best: tuple[tuple[int, int, int], Action, GameState] | None = None
        for candidate in _candidates(granted, action):
            applied = engine.apply(granted, candidate)
            if not isinstance(applied, Applied):
                continue
            player = applied.state.players[state.to_move]
            wrong = sum(not claims_hold((claim,), applied.effects, player, word) for claim in claims)
            rank = (wrong, *_distance(action, candidate))
            if best is None or rank < best[0]:
                best = (rank, candidate, applied.state)
        if best is not None:
            _, chosen, after = best
            taken = _taken_back(state, granted, _placed(after, action, chosen), action)
            return written_totals(taken, state.to_move, claims)
    # no legal reading: the log's writer still took an action this turn (no Pass bonus, R04)
    counted = state.with_turn(state.turn.replace(actions=state.turn.actions + 1))
    return written_totals(counted, state.to_move, claims)


def written_totals(state: GameState, actor: Color, claims: Sequence[StepClaim]) -> GameState:
    """``state`` with the actor's LP and SP as the log's claims write them, if they do: the
    players go on from their own figures."""
    player = state.players[actor]
    for kind, value in claims:
        if value is not None and kind is ClaimKind.LP:
            player = player.replace(lp=value)
        elif value is not None and kind is ClaimKind.SP:
            player = player.replace(sp=value)
    return state if player is state.players[actor] else state.with_player(actor, player)


def _granted(state: GameState, action: Action, lp: int, sp: int) -> GameState:
    """``state`` with what the position can hold granted for ``action``: its phase, the turn's
    once-only actions not taken yet, ``lp`` and ``sp`` lent, a piece in the Gem and an intact Gem for a Summon."""
    turn = state.turn
    window = ACTION_WINDOWS.get(type(action))
    phase = turn.phase if window is None or turn.phase in window.phases else window.phases[0]
    turn = turn.replace(phase=phase, summoned=False, broke=False, repaired=False, teleported=False, converted_sp=0)
    me = state.mover
    gem, broken = me.gem, me.gem_broken
    if isinstance(action, Summon):
        own = piece(state.to_move, action.kind).index
        gem = tuple(n + (i == own and n == 0) for i, n in enumerate(gem))
        broken = False
    player = me.replace(lp=me.lp + lp, sp=me.sp + sp, gem=gem, gem_broken=broken)
    return state.with_turn(turn).with_player(state.to_move, player)


def _taken_back(before: GameState, granted: GameState, after: GameState, action: Action) -> GameState:
    """The grants of :func:`_granted` taken back from ``after``: the phase, the turn's once-only
    actions this one did not take, the credit (down to zero), the Gem's grants."""
    turn, was = after.turn, before.turn
    turn = turn.replace(
        phase=was.phase,
        summoned=was.summoned or turn.summoned,
        broke=was.broke or turn.broke,
        repaired=was.repaired or turn.repaired,
        teleported=was.teleported or turn.teleported,
        converted_sp=was.converted_sp + turn.converted_sp,
    )
    me, mine = after.players[before.to_move], before.mover
    gem = tuple(max(0, m + a - g) for m, a, g in zip(mine.gem, me.gem, granted.mover.gem, strict=True))
    broken = mine.gem_broken if isinstance(action, Summon) else me.gem_broken
    # the loan taken back, down to zero: what the log's writer paid that the player had not is forgiven
    lp, sp = max(0, me.lp - (granted.mover.lp - mine.lp)), max(0, me.sp - (granted.mover.sp - mine.sp))
    player = me.replace(lp=lp, sp=sp, gem=gem, gem_broken=broken)
    return after.with_turn(turn).with_player(before.to_move, player)


def _candidates(state: GameState, action: Action) -> Iterator[Action]:
    """The legal actions of the same kind on the same piece as ``action`` (an attack's dice taken
    from its own, cut or padded to the count the engine asks for)."""
    match action:
        case Move():
            for m in moves(state):
                if isinstance(m, Move) and (
                    m.frm == action.frm or (m.to == action.to and _same_kind(state, m, action))
                ):
                    yield m.replace(pay=action.pay)
        case Teleport():
            yield from (t for t in teleports(state) if isinstance(t, Teleport) and t.frm == action.frm)
        case Summon():
            yield from (s for s in summons(state) if isinstance(s, Summon) and s.kind is action.kind)
        case Attack():
            if any(isinstance(a, Attack) and a.frm == action.frm and a.to == action.to for a in attacks(state)):
                for roll in _rolls(state, action.replace(second=(), advantage=False)):
                    yield action.replace(roll=roll, second=(), advantage=False)
        case Break() | Repair():
            for roll in _rolls(state, action):
                yield action.replace(roll=roll)
        case Convert():
            yield from converts(state)
        case Play() | Activate():
            for card in card_plays(state):
                if isinstance(card, type(action)) and card.card == action.card:
                    yield card
        case _:
            return


def _same_kind(state: GameState, legal: Move, written: Move) -> bool:
    """A legal move of a piece of the kind the log names (any kind, if it names none)."""
    on = state.board[legal.frm]
    return on is not None and (written.kind is None or on.kind is written.kind)


def _rolls(state: GameState, action: Attack | Break | Repair) -> Iterator[tuple[int, ...]]:
    """The written dice; else every roll of the count the engine takes (found by cutting or
    padding the written ones), nearest first by :func:`_distance`."""
    roll = action.roll
    yield roll
    pad = roll[-1] if roll else 1
    for count in range(1, _MOST_DICE + 1):
        if count == len(roll):
            continue
        trial = roll[:count] + (pad,) * max(0, count - len(roll))
        if isinstance(engine.apply(state, action.replace(roll=trial)), Applied):
            yield from itertools.product(range(_FACES), repeat=count)
            return


def _distance(written: Action, candidate: Action) -> tuple[int, int]:
    """How far a legal reading is from the written action: its squares, then its numbers."""
    squares = 0
    for name in ("frm", "to", "target"):
        a, b = getattr(written, name, None), getattr(candidate, name, None)
        if a is not None and b is not None:
            squares += max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))
        elif a != b:
            squares += 8
    numbers = abs(written.sp - candidate.sp) if isinstance(written, Convert) and isinstance(candidate, Convert) else 0
    roll_a, roll_b = getattr(written, "roll", None), getattr(candidate, "roll", None)
    if roll_a is not None and roll_b is not None:
        numbers += sum(abs(a - b) for a, b in itertools.zip_longest(roll_a, roll_b, fillvalue=0))
    return squares, numbers


def _placed(state: GameState, written: Action, chosen: Action) -> GameState:
    """The piece a reading moved, summoned or teleported put on the square the log names, if free."""
    if not isinstance(written, Move | Teleport | Summon) or not isinstance(chosen, Move | Teleport | Summon):
        return state
    if chosen.to == written.to or state.board[written.to] is not None:
        return state
    board = list(state.board)
    board[written.to], board[chosen.to] = board[chosen.to], None
    return state.with_board(tuple(board))
