"""What follows from a refused action, so that ``--keep-going`` reports only independent errors.

With ``--keep-going`` replay skips a refused action: the state stays as it was, as if the action
had not been written. A refused action is no action for the Pass rule (core §2, R04), so a turn
whose only action was refused earns the +6 LP Pass bonus. The log's later lines were written by
players who saw the action happen, so some of them no longer fit the replayed game; those
findings are *consequences* of the refusal, not errors of their own. Two things mark them:

* **Squares.** A refused action taints the squares it names or crosses (its from and to squares,
  a move's ``via``, the squares between). A later finding on an action that names or crosses a
  tainted square follows from the refusal: a refused move's piece moved again ("no piece
  there"), an attack from a square a refused summon would have filled, a move onto a square a
  refused capture would have emptied. A refused action that is itself a consequence taints its
  squares too, for the same refusal. An action that names a tainted square and is replayed
  without any finding clears the squares it names: there the log and the game agree again.
* **Totals.** A refused action leaves its player's LP, SP and income, and the enemy King's
  damage, where the log's later claims no longer assume them (a cost not paid, a capture reward
  not gained, a Pass bonus paid). Each such total is *re-based*: the first later claim of it that
  disagrees with the game fixes the offset the refusal introduced, and that claim is a
  consequence; from then on a claim off by exactly that offset is a consequence too, one off by
  anything else is an independent error, reported as usual, and a claim that agrees with the game
  puts the log back in step. A player who cannot afford an action (``SG-R106``, ``SG-R115``, or
  too little SP for a conversion, ``SG-R113``) while the log's figures for them run above the
  game's (a fixed offset above zero, or before the offset is fixed, a refused action whose own
  claims gain LP or SP) is refused as a consequence too.

A wrong total the log writes (``SG-R203``) is carried forward the same way: the players go on
from their own figure, so a later claim of that total off by the same difference follows from
the first wrong one, and one off by another difference is reported (and carried in its turn).

Consequences are not reported; each error that has some gets one note, ``SG-N306``, that counts
them and names their lines in its hint. All of this applies only with ``--keep-going``: without
it replay stops at the first error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sgcheck.core.actions import Action, Attack, Convert, Move, Summon, Teleport
from sgcheck.core.pieces import Color
from sgcheck.core.squares import square
from sgcheck.core.state import GameState
from sgcheck.diagnostics import Diagnostic

#: The totals a refusal re-bases (keys of :attr:`Cascade.drift` with a colour).
LP, SP, INCOME, KING = "LP", "SP", "income", "King damage"

#: Refusals that a drift of the player's own totals explains: they could not pay.
_FUNDS = frozenset({"SG-R106", "SG-R115"})


def touched(action: Action | None) -> frozenset[int]:
    """The squares an action names or crosses: from, to, a move's ``via``, and the squares between
    (along a rank, file or diagonal; else, within two Knight's jumps, every square of the
    rectangle the two span, which holds any Knight's route)."""
    match action:
        case Move() | Attack():
            squares = {int(action.frm), int(action.to)} | _between(int(action.frm), int(action.to))
            if isinstance(action, Move) and action.via is not None:
                squares.add(int(action.via))
            return frozenset(squares)
        case Teleport():
            return frozenset({int(action.frm), int(action.to)})
        case Summon():
            return frozenset({int(action.to)})
        case _:
            target = getattr(action, "target", None)
            return frozenset({int(target)}) if target is not None else frozenset()


def _between(frm: int, to: int) -> set[int]:
    f0, r0, f1, r1 = frm & 7, frm >> 3, to & 7, to >> 3  # files and ranks
    df, dr = f1 - f0, r1 - r0
    if df == 0 or dr == 0 or abs(df) == abs(dr):
        n = max(abs(df), abs(dr))
        sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        return {int(square(f0 + sf * i, r0 + sr * i)) for i in range(1, n)}
    if max(abs(df), abs(dr)) > 4:
        return set()  # out of any reach: only the squares it names
    files = range(min(f0, f1), max(f0, f1) + 1)
    ranks = range(min(r0, r1), max(r0, r1) + 1)
    return {int(square(f, r)) for f in files for r in ranks} - {frm, to}


@dataclass(slots=True)
class Refusal:
    """An error later findings may follow from (a refused action, or a wrong total the log carries
    forward), and the lines of those findings."""

    diagnostic: Diagnostic  # the error as reported, with its context
    what: str  # the statement's word ("move", "summon", ...), or the wrong total ("wrong lp total")
    refused: bool = True  # a refused action; False: a wrong total the log carries forward
    richer: bool = False  # the log's claims on the refused action leave its player richer than the game
    followers: list[int] = field(default_factory=list)  # source lines, in order (0: no line)


@dataclass(slots=True)
class Cascade:
    """The refusals of one replay and what they taint; see the module's docstring."""

    refusals: list[Refusal] = field(default_factory=list)
    tainted: dict[int, int] = field(default_factory=dict)  # square -> the refusal it follows from
    # (colour, total) -> (the refusal, the offset of the log's claims; None: not fixed yet)
    drift: dict[tuple[Color, str], tuple[int, int | None]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.refusals)

    def copy(self) -> Cascade:
        """A copy that changes apart from this one (a replay's checkpoint, sgcheck.replay.resume)."""
        refusals = [Refusal(r.diagnostic, r.what, r.refused, r.richer, list(r.followers)) for r in self.refusals]
        return Cascade(refusals, dict(self.tainted), dict(self.drift))

    # --- refused actions ----------------------------------------------------------------------

    def origin(self, squares: frozenset[int]) -> int | None:
        """The refusal a finding on an action touching ``squares`` follows from, if any."""
        for sq in squares:
            rid = self.tainted.get(sq)
            if rid is not None:
                return rid
        return None

    def short_of_funds(self, code: str, action: Action, before: GameState) -> int | None:
        """The refusal that explains the player to move being refused for want of LP or SP (a cost
        or payment, ``SG-R106``, ``SG-R115``, or SP to convert, ``SG-R113``), if any."""
        actor = before.to_move
        short = code in _FUNDS or (isinstance(action, Convert) and action.sp > before.players[actor].sp)
        if not short:
            return None
        for total in (SP, LP):
            entry = self.drift.get((actor, total))
            if entry is None:
                continue
            rid, offset = entry
            if (offset is None and self.refusals[rid].richer) or (offset is not None and offset > 0):
                return rid
        return None

    def refuse(self, diag: Diagnostic, what: str, action: Action | None, actor: Color, *, richer: bool) -> None:
        """An independent refusal: taint what it touches and unsettle its player's totals.
        ``richer``: the log's claims on it leave the player with more than the game does."""
        rid = len(self.refusals)
        self.refusals.append(Refusal(diag, what, richer=richer))
        self.taint(rid, action)
        for key in ((actor, LP), (actor, SP), (actor, INCOME)):
            self.drift[key] = (rid, None)
        if isinstance(action, Attack):
            self.drift[(actor.other, KING)] = (rid, None)

    def carry(self, diag: Diagnostic, what: str, key: tuple[Color, str], offset: int) -> None:
        """A wrong total was reported: later claims of it off by the same ``offset`` follow from it."""
        self.drift[key] = (len(self.refusals), offset)
        self.refusals.append(Refusal(diag, what, refused=False))

    def taint(self, rid: int, action: Action | None) -> None:
        for sq in touched(action):
            self.tainted[sq] = rid

    def follow(self, rid: int, line: int) -> None:
        """A finding on ``line`` follows from refusal ``rid``: it is counted, not reported."""
        self.refusals[rid].followers.append(line)

    def clear(self, action: Action | None) -> None:
        """An action replayed without findings: the squares it names agree with the log again."""
        if self.tainted:
            for sq in touched(action):
                self.tainted.pop(sq, None)

    # --- totals ---------------------------------------------------------------------------------

    def judge(self, key: tuple[Color, str], claimed: int, actual: int, line: int) -> bool:
        """Whether to report a claimed total that may be off: False when it agrees allowing for the
        offset, or is the first claim after a refusal (which fixes the offset); either way a claim
        that disagrees with the game is counted as a consequence. A claim that agrees with the game
        puts the log back in step: the offset is dropped."""
        entry = self.drift.get(key)
        if entry is None:
            return claimed != actual
        rid, offset = entry
        if offset is None:
            self.drift[key] = (rid, claimed - actual)
            if claimed != actual:
                self.follow(rid, line)
            return False
        if claimed == actual:
            del self.drift[key]  # the log is back in step with the game
            return False
        if claimed - offset != actual:
            return True
        if claimed != actual:
            self.follow(rid, line)  # off by the offset: the log carries the difference
        return False
