"""One secret, one game (DR3, docs/dice.md): the commitments of the logs of one run compared.

A player who reuses a secret hands the other player every roll of the second game in advance:
the secret was revealed after the first. Knowing it, the opponent can try secrets of their own
until the roll-off and the first attacks suit them. Replay of one log cannot see that; a run over
several logs (``sgcheck replay`` over files or a folder, ``sgcheck dice stats``) compares their
commitments.

Two games share a secret when a commitment of one is a commitment of the other, or lies further
down the other's hash chain: a key of one chain used as the next game's secret (``s' = H^j(s)``)
commits to ``H^j(c)``. Walking every commitment :data:`~sgcheck.core.dice.CHAIN_LENGTH` steps
down its chain finds both (4096 hashes a commitment; logs without committed dice cost nothing).
Each of the two games gets an error (SG-D107) at its commitment, naming the other game.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from sgcheck.codes import diagnostic
from sgcheck.core import dice
from sgcheck.core.pieces import Color
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import Header, LogItem
from sgcheck.lang.logs.grammar import LogSyntaxError
from sgcheck.lang.logs.reader import PlainTurn, read_log
from sgcheck.lang.source import SourceText


@dataclass(frozen=True, slots=True)
class Commitment:
    """One player's commitment in one log."""

    log: str  # the log's path as reported
    game_id: str  # its [GameId] ('' when the header has none)
    color: Color
    value: bytes
    span: Span  # the [WhiteCommit] or [BlackCommit] tag


def commitments(log: str, header: Header) -> list[Commitment]:
    """The readable commitments of a log's header (none without dice tags)."""
    game = header.get("GameId")
    game_id = game.value.strip() if game is not None else ""
    out = []
    for color in Color:
        tag = header.get(f"{color.title}Commit")
        value = dice.parse_hex(tag.value) if tag is not None else None
        if tag is not None and value is not None:
            out.append(Commitment(log, game_id, color, value, tag.span))
    return out


def first_header(items: Iterable[LogItem | PlainTurn]) -> Header | None:
    """The header of a log's items, or None (no header, or a syntax error before it ends)."""
    try:
        first = next(iter(items), None)
    except LogSyntaxError:
        return None
    return first if isinstance(first, Header) else None


#: The letters every commitment's tag names (``[WhiteCommit ...]``, ``[BlackCommit ...]``), in any
#: case: a tag's name is ASCII (the grammar's TAG_NAME), so a text without them commits to nothing.
_COMMIT = re.compile("commit", re.IGNORECASE | re.ASCII)


def log_commitments(log: str, source: SourceText) -> list[Commitment]:
    """The commitments of the log ``source`` (its header only is read; not even that when a text
    held in one piece has no tag that could be one: a run over many logs reads every header)."""
    held = source.kept()
    if held is not None and len(held) <= 1 and not any(_COMMIT.search(piece) for piece in held):
        return []
    header = first_header(read_log(source))
    return commitments(log, header) if header is not None else []


def _named(c: Commitment) -> str:
    game = f" (game {c.game_id!r})" if c.game_id else ""
    return f"{c.log}{game}"


def shared(found: Sequence[Commitment]) -> Iterator[tuple[Commitment, Commitment, int]]:
    """Each pair of commitments of two different logs on one hash chain: ``(a, b, steps)`` where
    ``b``'s commitment is ``H^steps`` of ``a``'s (0: the same commitment)."""
    if len({c.log for c in found}) < 2:
        return  # one log's commitments: D101 compares them
    where: dict[bytes, list[Commitment]] = {}
    for c in found:
        where.setdefault(c.value, []).append(c)
    seen: set[tuple[int, int]] = set()
    sha256 = hashlib.sha256
    for a in found:
        current = a.value
        for steps in range(dice.CHAIN_LENGTH + 1):
            if current in where:
                for b in where[current]:
                    pair = (min(id(a), id(b)), max(id(a), id(b)))
                    if b.log != a.log and pair not in seen:
                        seen.add(pair)
                        yield a, b, steps
            current = sha256(current).digest()


def reuse_findings(found: Sequence[Commitment]) -> dict[str, list[Diagnostic]]:
    """SG-D107 on both logs of each pair of commitments that share a secret, by log."""
    out: dict[str, list[Diagnostic]] = {}
    for a, b, steps in shared(found):
        how = (
            "the same commitment"
            if steps == 0
            else f"a commitment {steps} steps down the other's hash chain (a key of one chain used as a secret)"
        )
        for this, other in ((a, b), (b, a)):
            out.setdefault(this.log, []).append(
                diagnostic(
                    "SG-D107",
                    f"{this.color.title}'s commitment shares a secret with {other.color.title}'s in {_named(other)}: "
                    f"{how}; whoever saw that secret revealed knows this game's rolls in advance",
                    hint="a fresh secret for every game: 'sgcheck dice secret'",
                )
                .at(this.span, "a secret already used")
                .with_context(("other game", _named(other)), ("player", this.color.title))
            )
    return out


def reuse_by_log(found: Mapping[str, Sequence[Commitment]]) -> dict[str, list[Diagnostic]]:
    """:func:`reuse_findings` over the commitments of several logs."""
    return reuse_findings([c for cs in found.values() for c in cs])
