"""Dice from the verifiable-dice protocol (:mod:`sgcheck.core.dice`), for the game generator:
:class:`DerivedDice` hands out the rolls of a game in log order, each as many dice as
:mod:`sgcheck.core.rolls` says its kind throws, and the header tags that let replay check them."""

from __future__ import annotations

from sgcheck.core import dice
from sgcheck.core.rolls import Roll
from sgcheck.lang.logs.ast import Tag
from sgcheck.lang.logs.from_actions import NOWHERE

_NOWHERE = NOWHERE


class DerivedDice:
    """The rolls of one game derived from both players' secrets, roll 0 first."""

    def __init__(
        self, white_secret: bytes, black_secret: bytes, game_id: str, *, reveal: bool = True, version: int = 1
    ) -> None:
        self.white_secret, self.black_secret = white_secret, black_secret
        self.game_id = game_id
        self.reveal = reveal
        self.version = version  # 2: sg-dice-v2, each roll naming its purpose
        self.white_commit = dice.commitment(white_secret)
        self.black_commit = dice.commitment(black_secret)
        self.white_keys = dice.chain(white_secret)
        self.black_keys = dice.chain(black_secret)
        self.index = 0

    def tags(self) -> list[Tag]:
        """The header tags of the game: protocol, game id, commitments and (``reveal``) the secrets."""
        pairs = [
            ("DiceProtocol", dice.PROTOCOL_V2 if self.version == 2 else dice.PROTOCOL),
            ("GameId", self.game_id),
            ("WhiteCommit", self.white_commit.hex()),
            ("BlackCommit", self.black_commit.hex()),
        ]
        if self.reveal:
            pairs += [("WhiteSecret", self.white_secret.hex()), ("BlackSecret", self.black_secret.hex())]
        return [Tag(name, value, _NOWHERE) for name, value in pairs]

    def peek(self, kind: Roll, purpose: str | None = None) -> tuple[int, ...]:
        """The next roll's dice, ``kind``'s, without using it up (``purpose``: the roll's, used by sg-dice-v2)."""
        i = self.index
        aim = purpose if self.version == 2 else None
        return dice.roll_for(
            self.white_keys[i],
            self.black_keys[i],
            self.white_commit,
            self.black_commit,
            self.game_id,
            i,
            kind.sides,
            kind.count,
            aim,
        )

    def roll(self, kind: Roll, purpose: str | None = None) -> tuple[int, ...]:
        """The next roll's dice, ``kind``'s."""
        faces = self.peek(kind, purpose)
        self.index += 1
        return faces

    def rolloff(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The next roll as a roll-off round: White's three d6 and Black's."""
        i = self.index
        self.index += 1
        return dice.rolloff_for(
            self.white_keys[i], self.black_keys[i], self.white_commit, self.black_commit, self.game_id, i, self.version
        )
