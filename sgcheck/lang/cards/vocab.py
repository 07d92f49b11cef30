"""The words of the card language, shared by the ``.sgcard`` parser and the YAML loader.

Keeping the vocabulary in one table means both front-ends accept exactly the same
phases, piece classes and core parameters, and produce identical models.
"""

from __future__ import annotations

from sgcheck.core import caps
from sgcheck.core.cards.model import ALL_KINDS, Countable, Event, Resource, Side
from sgcheck.core.pieces import Kind, Phase
from sgcheck.letters import ascii_lower

#: Phase words. ``main`` is either Main phase (relics are played "in your Main Phase").
PHASE_WORDS: dict[str, tuple[Phase, ...]] = {
    "upkeep": (Phase.UPKEEP,),
    "main1": (Phase.MAIN1,),
    "main2": (Phase.MAIN2,),
    "main": (Phase.MAIN1, Phase.MAIN2),
    "battle": (Phase.BATTLE,),
    "end": (Phase.END,),
}

_KIND_WORDS: dict[str, Kind] = {kind.title.lower(): kind for kind in Kind}


def piece_class(word: str) -> frozenset[Kind] | None:
    """``King`` -> {KING}; ``pieces``/``piece`` -> every kind; plural forms accepted."""
    lowered = ascii_lower(word)
    if lowered in ("piece", "pieces"):
        return ALL_KINDS
    singular = lowered[:-1] if lowered.endswith("s") else lowered
    kind = _KIND_WORDS.get(lowered) or _KIND_WORDS.get(singular)
    return frozenset((kind,)) if kind is not None else None


PIECE_CLASS_WORDS: tuple[str, ...] = ("King", "Queen", "Rook", "Bishop", "Knight", "Pawn", "pieces")

EVENT_WORDS: dict[str, Event] = {
    "capture": Event.CAPTURE,
    "captured": Event.CAPTURED,
    "hit": Event.HIT,
    "miss": Event.MISS,
    "attacked": Event.ATTACKED,
    "summon": Event.SUMMON,
    "teleport": Event.TELEPORT,
    "move": Event.MOVE,
}


#: Side words: ``opponent`` is another name for ``enemy`` wherever a side is written.
SIDE_WORDS: dict[str, Side] = {"own": Side.OWN, "enemy": Side.ENEMY, "opponent": Side.ENEMY}

#: What a ``per`` amount counts, in every wording: ``piece in opponent gem``, ``own pieces on board``.
COUNTABLE_WORDS: dict[str, Countable] = {
    **{
        f"piece in {word} gem": Countable.OWN_GEM if side is Side.OWN else Countable.ENEMY_GEM
        for word, side in SIDE_WORDS.items()
    },
    **{
        f"{word} {pieces} on board": Countable.OWN_BOARD if side is Side.OWN else Countable.ENEMY_BOARD
        for word, side in SIDE_WORDS.items()
        for pieces in ("piece", "pieces")
    },
}


def resource_event(gain: bool, resource: Resource) -> Event:
    if resource is Resource.SP:
        return Event.GAIN_SP if gain else Event.LOSE_SP
    return Event.GAIN_LP if gain else Event.LOSE_LP


#: Most digits a number in a card may have (the same limit as in logs, core/caps.py).
MAX_NUMBER_DIGITS = caps.MAX_NUMBER_DIGITS

#: The longest card name and printed text, in both front-ends (the YAML schema's ``maxLength``
#: says the same; a test ties them). Text fits on one line of a card file even fully escaped.
MAX_NAME_LENGTH = 200
MAX_TEXT_LENGTH = 4000
