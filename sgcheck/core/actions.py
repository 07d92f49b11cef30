"""The actions a player can take (core §2-§6), as immutable values.

Dice-bearing actions carry the dice exactly as rolled; :func:`sgcheck.core.legal.legal_actions`
yields them with ``roll=()`` for the caller to fill. ``pay`` is the LP/SP split the players
stated (R05); ``None`` means "SP first, then LP". ``kind`` fields are what the log says
stands on a square; ``None`` means the log did not say.

Each action is a :class:`~sgcheck.core.record.Record` (compared, hashed, shown and pickled by its
fields; compiled, a native class whose constructor is compiled too): the reader builds one for
nearly every statement of a log. ``action.replace(roll=...)`` is a copy with fields changed.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, final

from sgcheck.core.pieces import Color, Kind, Phase
from sgcheck.core.record import Record
from sgcheck.core.squares import Square
from sgcheck.core.state import Payment


class Part(StrEnum):
    """Which part of an action a violation is about, so callers can point at it."""

    ACTION = "action"
    PIECE = "piece"
    TARGET = "target"
    VIA = "via"
    ROLL = "roll"
    REROLL = "reroll"
    AMOUNT = "amount"
    PAY = "pay"


@final
class Summon(Record):
    __match_args__ = ("kind", "to", "pay")
    __slots__ = __match_args__

    kind: Final[Kind]
    to: Final[Square]
    pay: Final[Payment | None]

    def __init__(self, kind: Kind, to: Square, pay: Payment | None = None) -> None:
        self.kind = kind
        self.to = to
        self.pay = pay


@final
class Move(Record):
    __match_args__ = ("frm", "to", "via", "kind", "pay")
    __slots__ = __match_args__

    frm: Final[Square]
    to: Final[Square]
    via: Final[Square | None]
    kind: Final[Kind | None]
    pay: Final[Payment | None]

    def __init__(
        self, frm: Square, to: Square, via: Square | None = None, kind: Kind | None = None, pay: Payment | None = None
    ) -> None:
        self.frm = frm
        self.to = to
        self.via = via
        self.kind = kind
        self.pay = pay


@final
class Attack(Record):
    """``second``: the dice of a card's reroll (it counts) or advantage (the better roll counts)."""

    __match_args__ = ("frm", "to", "roll", "kind", "target_kind", "pay", "second", "advantage")
    __slots__ = __match_args__

    frm: Final[Square]
    to: Final[Square]
    roll: Final[tuple[int, ...]]
    kind: Final[Kind | None]
    target_kind: Final[Kind | None]
    pay: Final[Payment | None]
    second: Final[tuple[int, ...]]
    advantage: Final[bool]

    def __init__(
        self,
        frm: Square,
        to: Square,
        roll: tuple[int, ...],
        kind: Kind | None = None,
        target_kind: Kind | None = None,
        pay: Payment | None = None,
        second: tuple[int, ...] = (),
        advantage: bool = False,
    ) -> None:
        self.frm = frm
        self.to = to
        self.roll = roll
        self.kind = kind
        self.target_kind = target_kind
        self.pay = pay
        self.second = second
        self.advantage = advantage


@final
class Convert(Record):
    __match_args__ = ("sp",)
    __slots__ = __match_args__

    sp: Final[int]

    def __init__(self, sp: int) -> None:
        self.sp = sp


@final
class Teleport(Record):
    __match_args__ = ("frm", "to", "kind", "pay")
    __slots__ = __match_args__

    frm: Final[Square]
    to: Final[Square]
    kind: Final[Kind | None]
    pay: Final[Payment | None]

    def __init__(self, frm: Square, to: Square, kind: Kind | None = None, pay: Payment | None = None) -> None:
        self.frm = frm
        self.to = to
        self.kind = kind
        self.pay = pay


@final
class Break(Record):
    __match_args__ = ("roll", "pay")
    __slots__ = __match_args__

    roll: Final[tuple[int, ...]]
    pay: Final[Payment | None]

    def __init__(self, roll: tuple[int, ...], pay: Payment | None = None) -> None:
        self.roll = roll
        self.pay = pay


@final
class Repair(Record):
    __match_args__ = ("roll", "pay")
    __slots__ = __match_args__

    roll: Final[tuple[int, ...]]
    pay: Final[Payment | None]

    def __init__(self, roll: tuple[int, ...], pay: Payment | None = None) -> None:
        self.roll = roll
        self.pay = pay


@final
class Activate(Record):
    """A use of an activated Relic in play (R17, R22); ``target`` is the piece it acts on, if any.

    In a game without a pack (no cards known) only the activation is counted and the stated
    payment applied.
    """

    __match_args__ = ("card", "pay", "target", "target_kind")
    __slots__ = __match_args__

    card: Final[str]
    pay: Final[Payment | None]
    target: Final[Square | None]
    target_kind: Final[Kind | None]

    def __init__(
        self, card: str, pay: Payment | None = None, target: Square | None = None, target_kind: Kind | None = None
    ) -> None:
        self.card = card
        self.pay = pay
        self.target = target
        self.target_kind = target_kind


@final
class Play(Record):
    """A card played from hand: a Spell cast or a Relic put into play (R22)."""

    __match_args__ = ("card", "target", "target_kind", "pay")
    __slots__ = __match_args__

    card: Final[str]
    target: Final[Square | None]
    target_kind: Final[Kind | None]
    pay: Final[Payment | None]

    def __init__(
        self, card: str, target: Square | None = None, target_kind: Kind | None = None, pay: Payment | None = None
    ) -> None:
        self.card = card
        self.target = target
        self.target_kind = target_kind
        self.pay = pay


@final
class Reveal(Record):
    """A market module's reveal after a capture (R26): the card turned up, and who it is placed before."""

    __match_args__ = ("card", "to")
    __slots__ = __match_args__

    card: Final[str]
    to: Final[Color]

    def __init__(self, card: str, to: Color) -> None:
        self.card = card
        self.to = to


@final
class EnterPhase(Record):
    __match_args__ = ("phase",)
    __slots__ = __match_args__

    phase: Final[Phase]

    def __init__(self, phase: Phase) -> None:
        self.phase = phase


@final
class EndTurn(Record):
    """Finish the turn: End-phase clean-up, Pass bonus, then the next player's Upkeep income."""

    __match_args__ = ()
    __slots__ = __match_args__


Action = Summon | Move | Attack | Convert | Teleport | Break | Repair | Activate | Play | Reveal | EnterPhase | EndTurn
