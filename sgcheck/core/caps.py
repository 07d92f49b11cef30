"""The numbers of the locked core, in one place (core §1-§8), and the longest number sgcheck reads.

Everything that checks or applies a rule reads these constants; nothing else in
sgcheck spells the numbers out.
"""

from __future__ import annotations

from typing import Final

START_LP: Final = 20  # core §1
START_SP: Final = 0  # core §1
HAND_LIMIT: Final = 3  # guide draft rules, R19
DRAFT_DRAW: Final = 5  # R19
DRAFT_KEEP: Final = 3  # R19

ACTIVATIONS_PER_TURN: Final = 2  # core §0, R17
PASS_BONUS_LP: Final = 6  # core §2.5, R04

KNIGHT_JUMP_COST: Final = 3  # core §3, R07
KNIGHT_MAX_JUMPS: Final = 2  # core §3, R07
KING_MOVE_COST: Final = 1  # R09 (distance only)

ATTACK_VALUE_MULTIPLIER: Final = 2  # core §4.1
BASE_TO_HIT: Final = 20  # core §4.2
TO_HIT_PER_VALUE: Final = 10  # core §4.2, §4.4
MIN_TO_HIT: Final = 5  # core §4.2
MAX_TO_HIT: Final = 95  # core §4.2
DAMAGE_PER_HIT: Final = 1  # core §4.3
CAPTURE_SP_PER_VALUE: Final = 5  # core §4.3
KING_HP: Final = 20  # core §4.4

TO_HIT_BONUS_CAP: Final = 25  # core §4.5, R20
DAMAGE_BONUS_CAP: Final = 2  # core §4.5, R20
REROLL_SOURCES_CAP: Final = 1  # core §4.5, R20

SUMMON_BASE_COST: Final = 5  # core §5

INCOME_PER_VALUE: Final = 2  # core §6, R14
BREAK_COST: Final = 20  # core §6
BREAK_THRESHOLD: Final = 12  # core §6 (3d6)
REPAIR_COST: Final = 10  # core §6
REPAIR_THRESHOLD: Final = 10  # core §6 (3d6)

CONVERSION_SP_PER_LP: Final = 2  # core §2.4, R16
CONVERSION_CAP_SP: Final = 20  # core §2.4, R16

LP_VICTORY: Final = 1000  # core §7

TIEBREAK_CAPTURED_WEIGHT: Final = 3  # core §7
TIEBREAK_BOARD_WEIGHT: Final = 2  # core §7

#: Not a rule of the game but a limit on what sgcheck reads (docs/limits.md): a number in a log
#: or a card has at most this many digits. No quantity of the game comes near it, so a longer
#: number is a typo or a hostile input, refused where it is written (SG-P012 in logs, SG-P023
#: in cards) instead of being computed with.
MAX_NUMBER_DIGITS: Final = 9
#: How much of a refused number a message shows.
_SHOWN_DIGITS: Final = 12


def number_too_long(written: str, digits: int) -> str:
    """The message for a number over :data:`MAX_NUMBER_DIGITS`: its start, its length, the limit.

    ``written`` is the number as it appears in the input; ``digits`` how many digits it has.
    """
    shown = written if len(written) <= _SHOWN_DIGITS else written[:_SHOWN_DIGITS] + "…"
    return f"number {shown} has {digits:,} digits; at most {MAX_NUMBER_DIGITS}"
