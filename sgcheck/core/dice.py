"""Verifiable dice, protocol ``sg-dice-v1``: every die of a game derived from both players'
secrets, so that anyone can recompute the rolls once the secrets are revealed.

The protocol, byte for byte (docs/dice.md publishes it with test vectors):

- A *secret* is 32 random bytes, written as 64 hexadecimal digits.
- ``H(x)`` is SHA-256 of the bytes ``x``. A secret ``s`` has a *hash chain* of
  :data:`CHAIN_LENGTH` keys: the key of roll ``n`` (``0 <= n < CHAIN_LENGTH``) is
  ``H^(CHAIN_LENGTH - 1 - n)(s)`` (``H`` applied that many times; the last roll's key is ``s``).
- The *commitment* is ``H^CHAIN_LENGTH(s)``, one step past the key of roll 0: each key hashes to
  the key before it, and key 0 hashes to the commitment. A key disclosed for roll ``n`` is
  checked by ``H^(n + 1)(key) == commitment``.
- The two players are ordered by their commitments (as hexadecimal text, in lower case): the
  *first* player's commitment sorts first. Roll ``n`` is read from the blocks
  ``HMAC-SHA256(key_first(n) || key_second(n), message(n, c))`` for ``c = 0, 1, 2, ...``, where
  ``message(n, c) = b"sg-dice-v1" || 0x00 || game id (UTF-8) || 0x00 || n (4 bytes, big-endian)
  || c (4 bytes, big-endian)``.
- The bytes of those blocks are read in order. A d6 takes a byte ``b`` if ``b < 252`` and shows
  ``b % 6 + 1``; a d10 takes it if ``b < 250`` and shows ``b % 10`` (0-9). A byte at or over the
  limit is skipped (rejection sampling: every face equally likely, no modulo bias).
- Which dice a roll has follows from the log: the roll-off (one roll per ``rolloff`` line) is six
  d6, the first three the first player's and the last three the second player's; an attack's
  accuracy roll, and a card's second roll (``reroll``/``advantage``), are two d10 each (tens,
  then ones); a Break or Repair is three d6. Rolls are numbered from 0 in log order.

Protocol ``sg-dice-v2`` is the same but for the HMAC message, which also names the roll's
*purpose*, the action the roll decides: ``message(n, c) = b"sg-dice-v2" || 0x00 || game id ||
0x00 || purpose (ASCII) || 0x00 || n || c``, the purpose being ``rolloff``, ``attack a3 a5``
(the attacker's and the target's squares), ``reroll a3 a5`` or ``advantage a3 a5`` (a card's
second roll of that attack), ``break white`` or ``repair black`` (the player who rolls). Dice
derived for one action then fail for any other.

Pure functions over bytes and numbers; no I/O.
"""

from __future__ import annotations

import hashlib
import hmac

from sgcheck.core.actions import Attack, Break, Repair
from sgcheck.core.pieces import Color
from sgcheck.core.rolls import BY_PURPOSE, ROLL_OFF, lowest_face
from sgcheck.core.squares import name

PROTOCOL = "sg-dice-v1"
#: The protocol whose rolls also name the action they decide (see :func:`purpose`).
PROTOCOL_V2 = "sg-dice-v2"
PROTOCOLS = (PROTOCOL, PROTOCOL_V2)
#: Rolls a game may have: the length of each player's hash chain.
CHAIN_LENGTH = 4096
SECRET_BYTES = 32
_PREFIX = PROTOCOL.encode("ascii") + b"\x00"
_PREFIX_V2 = PROTOCOL_V2.encode("ascii") + b"\x00"
#: The words a purpose starts with (sg-dice-v2).
PURPOSES = tuple(BY_PURPOSE)


def limit(sides: int) -> int:
    """The bytes below this value are taken, the others skipped: the largest multiple of ``sides`` up to 256."""
    return 256 - 256 % sides


def face(byte: int, sides: int) -> int:
    """The face one accepted byte shows: 1-6 for a d6, 0-9 for a d10."""
    return byte % sides + lowest_face(sides)


def parse_hex(text: str) -> bytes | None:
    """32 bytes written as 64 hexadecimal digits (either case), or None."""
    value = text.strip()
    if len(value) != 2 * SECRET_BYTES or any(ch not in "0123456789abcdefABCDEF" for ch in value):
        return None
    return bytes.fromhex(value)


def step(key: bytes) -> bytes:
    """One step down the chain: ``H(key)``."""
    return hashlib.sha256(key).digest()


def hashed(key: bytes, times: int) -> bytes:
    """``H`` applied ``times`` times."""
    for _ in range(times):
        key = hashlib.sha256(key).digest()
    return key


def commitment(secret: bytes) -> bytes:
    """A secret's commitment: ``H^CHAIN_LENGTH(secret)``."""
    return hashed(secret, CHAIN_LENGTH)


def roll_key(secret: bytes, index: int) -> bytes:
    """The key a player discloses for roll ``index``: ``H^(CHAIN_LENGTH - 1 - index)(secret)``."""
    if not 0 <= index < CHAIN_LENGTH:
        raise ValueError(f"roll {index} is outside 0..{CHAIN_LENGTH - 1}")
    return hashed(secret, CHAIN_LENGTH - 1 - index)


def chain(secret: bytes) -> list[bytes]:
    """Every roll's key of a secret, roll 0 first (one pass of :data:`CHAIN_LENGTH` hashes)."""
    keys = [secret]
    for _ in range(CHAIN_LENGTH - 1):
        keys.append(hashlib.sha256(keys[-1]).digest())
    keys.reverse()
    return keys


def key_matches(key: bytes, index: int, commit: bytes) -> bool:
    """Whether ``key`` is the key of roll ``index`` of the chain ``commit`` commits to."""
    return 0 <= index < CHAIN_LENGTH and hmac.compare_digest(hashed(key, index + 1), commit)


def reach(key: bytes, commit: bytes) -> int | None:
    """The roll whose key ``key`` is in the chain ``commit`` commits to (the ``n`` with
    ``H^(n+1)(key) == commit``), or None when no roll's key is it. A secret reaches the last roll."""
    current = key
    for index in range(CHAIN_LENGTH):
        current = hashlib.sha256(current).digest()
        if hmac.compare_digest(current, commit):
            return index
    return None


def keys_from(key: bytes, index: int) -> list[bytes]:
    """The keys of rolls 0 to ``index`` from the key of roll ``index``, roll 0 first."""
    keys = [key]
    for _ in range(index):
        keys.append(hashlib.sha256(keys[-1]).digest())
    keys.reverse()
    return keys


def white_first(white_commit: bytes, black_commit: bytes) -> bool:
    """Whether White is the first player: White's commitment sorts before Black's (as bytes, which
    is the order of their lower-case hexadecimal text)."""
    return white_commit < black_commit


def purpose(word: str, *names: str) -> str:
    """A roll's purpose in sg-dice-v2: ``purpose("attack", "a3", "a5")`` is ``"attack a3 a5"``;
    ``purpose("break", "white")``; ``purpose("rolloff")``."""
    if word not in PURPOSES:
        raise ValueError(f"unknown purpose {word!r}: one of {', '.join(PURPOSES)}")
    return " ".join((word, *names))


def parse_purpose(text: str) -> str | None:
    """A purpose as written by a player (``attack a3 a5``, ``break white``, ``rolloff``), in
    its canonical form, or None when it is none of :data:`PURPOSES` with its squares or colour."""
    words = text.lower().split()
    if not words or words[0] not in PURPOSES:
        return None
    word, rest = words[0], words[1:]
    if word == "rolloff":
        return word if not rest else None
    if word in ("break", "repair"):
        return purpose(word, rest[0]) if len(rest) == 1 and rest[0] in ("white", "black") else None
    squares = [s for s in rest if len(s) == 2 and s[0] in "abcdefgh" and s[1] in "12345678"]
    return purpose(word, *squares) if len(rest) == 2 and len(squares) == 2 else None


def action_purpose(action: Attack | Break | Repair, color: Color, second: bool = False) -> str:
    """The purpose of an action's roll in sg-dice-v2: an attack's accuracy roll (``second``: its
    card's second roll, ``reroll`` or ``advantage``) names the attacker's and the target's
    squares; a Break or Repair names the player (``color``) who rolls."""
    if isinstance(action, Attack):
        word = ("advantage" if action.advantage else "reroll") if second else "attack"
        return purpose(word, name(action.frm), name(action.to))
    return purpose("break" if isinstance(action, Break) else "repair", color.title.lower())


def message(game_id: str, index: int, counter: int, purpose: str | None = None) -> bytes:
    """The HMAC message of block ``counter`` of roll ``index``: sg-dice-v1's when ``purpose`` is
    None, sg-dice-v2's naming the roll's purpose otherwise."""
    tail = index.to_bytes(4, "big") + counter.to_bytes(4, "big")
    if purpose is None:
        return _PREFIX + game_id.encode("utf-8") + b"\x00" + tail
    return _PREFIX_V2 + game_id.encode("utf-8") + b"\x00" + purpose.encode("ascii") + b"\x00" + tail


def block(
    first_key: bytes, second_key: bytes, game_id: str, index: int, counter: int, purpose: str | None = None
) -> bytes:
    """Block ``counter`` of roll ``index``: 32 bytes of HMAC-SHA256 (sg-dice-v2 with a ``purpose``)."""
    return hmac.new(first_key + second_key, message(game_id, index, counter, purpose), hashlib.sha256).digest()


def read_faces(blocks: list[bytes], sides: int, count: int) -> tuple[int, ...] | None:
    """``count`` faces of ``sides``-sided dice read from ``blocks`` in order with rejection
    sampling, or None when the blocks run out first."""
    cap = limit(sides)
    faces: list[int] = []
    for data in blocks:
        for byte in data:
            if byte < cap:
                faces.append(face(byte, sides))
                if len(faces) == count:
                    return tuple(faces)
    return None


def roll_faces(
    first_key: bytes,
    second_key: bytes,
    game_id: str,
    index: int,
    sides: int,
    count: int,
    purpose: str | None = None,
) -> tuple[int, ...]:
    """The ``count`` dice of ``sides`` faces of roll ``index``, from the two players' keys of that
    roll (the first player's first); sg-dice-v2 when the roll's ``purpose`` is given."""
    blocks: list[bytes] = []
    counter = 0
    while True:
        blocks.append(block(first_key, second_key, game_id, index, counter, purpose))
        faces = read_faces(blocks, sides, count)
        if faces is not None:
            return faces
        counter += 1


def roll_for(
    white_key: bytes,
    black_key: bytes,
    white_commit: bytes,
    black_commit: bytes,
    game_id: str,
    index: int,
    sides: int,
    count: int,
    purpose: str | None = None,
) -> tuple[int, ...]:
    """The dice of roll ``index`` from White's and Black's keys of that roll (sg-dice-v2 when
    the roll's ``purpose`` is given)."""
    if white_first(white_commit, black_commit):
        return roll_faces(white_key, black_key, game_id, index, sides, count, purpose)
    return roll_faces(black_key, white_key, game_id, index, sides, count, purpose)


def rolloff_for(
    white_key: bytes,
    black_key: bytes,
    white_commit: bytes,
    black_commit: bytes,
    game_id: str,
    index: int,
    version: int = 1,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A roll-off round (roll ``index``): White's three d6 and Black's, as a log writes them
    (``version`` 2: sg-dice-v2, the purpose ``rolloff``)."""
    aim = purpose("rolloff") if version == 2 else None
    count = ROLL_OFF.count
    dice = roll_for(white_key, black_key, white_commit, black_commit, game_id, index, ROLL_OFF.sides, 2 * count, aim)
    first, second = dice[:count], dice[count:]
    return (first, second) if white_first(white_commit, black_commit) else (second, first)
