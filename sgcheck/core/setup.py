"""Setup checks: roll-off, King placement, draft (core §1, R01, R02, R19)."""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.core import caps
from sgcheck.core.actions import Part
from sgcheck.core.outcome import Violation
from sgcheck.core.pieces import Color
from sgcheck.core.play.predicates import dice_faces, violation
from sgcheck.core.rolls import ROLL_OFF
from sgcheck.core.squares import Square, in_camp, name
from sgcheck.diagnostics import LISTED_NAMES, NameIndex, plural


def check_rolloff(white: tuple[int, ...], black: tuple[int, ...]) -> Iterator[Violation]:
    """Each roll-off is 3d6 per player (core §1)."""
    for roll in (white, black):
        if (v := dice_faces(roll, ROLL_OFF)) is not None:
            yield v
            return


def rolloff_winner(white: tuple[int, ...], black: tuple[int, ...]) -> Color | None:
    """Who rolled higher (and so chose a colour); None for a tie, which is rerolled (R01)."""
    w, b = sum(white), sum(black)
    if w == b:
        return None
    return Color.WHITE if w > b else Color.BLACK


def check_colour_choice(white: tuple[int, ...], black: tuple[int, ...], chosen: Color) -> Iterator[Violation]:
    """The roll-off winner chooses (core §1, R01). Each player's dice are written under the colour
    that player ended up with, so the chosen colour must be the one with the higher total."""
    winner = rolloff_winner(white, black)
    if winner is not None and winner is not chosen:
        yield violation(
            "SG-S102",
            f"White's dice total {sum(white)}, Black's {sum(black)}: the winner plays {winner.title}, "
            f"so the log cannot have them choose {chosen.title}",
            hint="write each player's dice under the colour that player ended up with",
        )


def check_king_placement(color: Color, sq: Square) -> Iterator[Violation]:
    """A King starts anywhere in its own camp (core §1, R01)."""
    if not in_camp(sq, color):
        ranks = "1-4" if color is Color.WHITE else "5-8"
        yield violation(
            "SG-S103",
            f"the {color.title} King must start in {color.title}'s camp (ranks {ranks}), not on {name(sq)}",
            Part.TARGET,
        )


def check_draft(color: Color, cards: tuple[str, ...]) -> Iterator[Violation]:
    """A player keeps at most 3 cards (hand limit 3, R19)."""
    if len(cards) > caps.HAND_LIMIT:
        yield violation(
            "SG-S105",
            f"{color.title} keeps {len(cards)} cards, but the hand limit is {caps.HAND_LIMIT} "
            f"(draw {caps.DRAFT_DRAW}, keep {caps.DRAFT_KEEP})",
        )


def check_pack_draft(
    color: Color, cards: tuple[str, ...], known: NameIndex, pack: str, *, draw: int, keep: int, hand_limit: int
) -> Iterator[tuple[int | None, Violation]]:
    """A draft against the game's pack (R19): its cards, each kept once, no more than it lets a
    player keep and hold. Each finding comes with the index of the card it is about (None: the line).
    An unknown card's near misses come from the pack's index, at a fixed cost each (NameIndex)."""
    for index, card in enumerate(cards):
        if card not in known:
            close = known.close(card, n=LISTED_NAMES, cutoff=0.5)
            hint = f"did you mean {' or '.join(repr(c) for c in close[:3])}?" if close else None
            listed = known.listing(close)
            yield index, violation("SG-S106", f"{card!r} is not a card of the pack {pack} ({listed})", hint=hint)
    kept: set[str] = set()
    for index, card in enumerate(cards):
        if card in kept:
            yield index, violation("SG-S107", f"{color.title} keeps {card!r} twice")
        kept.add(card)
    if len(cards) > min(keep, hand_limit):
        why = f"the pack's draft keeps {keep} of {draw}" if keep <= hand_limit else f"the hand limit is {hand_limit}"
        yield None, violation("SG-S107", f"{color.title} keeps {plural(len(cards), 'card')}, but {why}")
