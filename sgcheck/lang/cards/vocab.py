"""The words of the card language, shared by the ``.sgcard`` parser and the YAML loader.

Keeping the vocabulary in one table means both front-ends accept exactly the same
phases, piece classes and core parameters, and produce identical models.
"""

from __future__ import annotations

from sgcheck.core import caps
from sgcheck.core.cards.model import ALL_KINDS, Event, Resource
from sgcheck.core.pieces import Kind, Phase

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
    lowered = word.lower()
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


def resource_event(gain: bool, resource: Resource) -> Event:
    if resource is Resource.SP:
        return Event.GAIN_SP if gain else Event.LOSE_SP
    return Event.GAIN_LP if gain else Event.LOSE_LP


#: Most digits a number in a card may have (the same limit as in logs, core/caps.py).
MAX_NUMBER_DIGITS = caps.MAX_NUMBER_DIGITS
