"""Replay's check of verifiable dice (protocol ``sg-dice-v1``, :mod:`sgcheck.core.dice`).

A log whose header commits to its dice (``[DiceProtocol]``, ``[GameId]``, ``[WhiteCommit]``,
``[BlackCommit]``) and reveals both secrets (``[WhiteSecret]``, ``[BlackSecret]``) has every roll
checked against the roll the protocol derives: the roll-off lines, each attack's accuracy dice
and card's second roll, each Break and Repair, numbered from 0 in log order. A wrong roll is an
error at its dice naming the expected ones (SG-D103), and the later rolls are still checked,
whatever stops the rules' replay: the dice are judged on their own.

The check taps the stream of items the replayer consumes (:func:`checked`): a log without any
of these tags is handed to the replayer untouched, so it costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain

from sgcheck.codes import Trait, diagnostic, has
from sgcheck.core import dice
from sgcheck.core.actions import Attack, Break, Repair
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.rolls import SECOND_ROLL, Roll, roll_of
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import (
    AttackStmt,
    BreakStmt,
    Header,
    LogItem,
    RepairStmt,
    ResultLine,
    RollOff,
    Statement,
    Tag,
    Turn,
)
from sgcheck.lang.logs.reader import PlainTurn

#: The header tags of the protocol, as docs/log-format.md names them.
TAGS = (
    "DiceProtocol",
    "GameId",
    "WhiteCommit",
    "BlackCommit",
    "WhiteSecret",
    "BlackSecret",
    "WhiteKey",
    "BlackKey",
)
_LOWER = frozenset(tag.lower() for tag in TAGS)


#: A statement's node, built only when a finding needs its spans.
_Node = Callable[[], Statement]


def has_dice_tags(header: Header) -> bool:
    """Whether the header names any tag of the protocol."""
    return any(tag.name.lower() in _LOWER for tag in header.tags)


def _shown(faces: tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces)


class DiceCheck:
    """The dice of one log, checked as its items go by (see :func:`checked`)."""

    def __init__(self, header: Header) -> None:
        self.findings: list[Diagnostic] = []
        self.index = 0  # the next roll's number
        self.version = 1
        self.game_id = ""
        self.white_commit = b""
        self.black_commit = b""
        #: each player's keys, roll 0 first: the whole chain from a secret, or up to the roll a
        #: revealed key reaches
        self.keys: dict[Color, list[bytes]] = {}
        self.verifying = False
        self.over = False  # past the chain's last roll (reported once)
        self.usable = False  # the commitments are readable: the game's dice are committed
        self.unopened: dict[Color, int] = {}  # a player's first roll their revealed key does not reach
        self.result_written = False  # the log writes a result line: the game is over
        self._tags: dict[str, Tag] = {}
        self._protocol: Tag | None = None
        self._read_header(header)

    @property
    def white_keys(self) -> list[bytes]:
        return self.keys.get(Color.WHITE, [])

    @property
    def black_keys(self) -> list[bytes]:
        return self.keys.get(Color.BLACK, [])

    @property
    def protocol(self) -> str:
        return dice.PROTOCOL_V2 if self.version == 2 else dice.PROTOCOL

    # --- the header -------------------------------------------------------------------------

    def _bad(self, message: str, tag: Tag | None, header: Header, hint: str | None = None) -> None:
        where = tag.span if tag is not None else header.span
        self.findings.append(diagnostic("SG-D101", message, hint=hint).at(where))

    def _read_header(self, header: Header) -> None:
        protocol = header.get("DiceProtocol")
        first = next(t for t in header.tags if t.name.lower() in _LOWER)
        if protocol is None:
            self._bad(
                f"[{first.name}] without [DiceProtocol]: the log does not say how its dice were derived",
                first,
                header,
                hint=f'add [DiceProtocol "{dice.PROTOCOL_V2}"] to the header',
            )
            return
        self._protocol = protocol
        name = protocol.value.strip()
        if name not in dice.PROTOCOLS:
            self._bad(
                f"unknown dice protocol {protocol.value!r}: this sgcheck verifies "
                + " and ".join(repr(p) for p in dice.PROTOCOLS),
                protocol,
                header,
                hint="the rolls are not checked; a newer sgcheck may know the protocol",
            )
            return
        self.version = 2 if name == dice.PROTOCOL_V2 else 1
        game = header.get("GameId")
        if game is None or not game.value.strip():
            self._bad(
                "[DiceProtocol] needs a non-empty [GameId], the game's name in the derivation", game or protocol, header
            )
            return
        self.game_id = game.value
        commits: dict[Color, bytes] = {}
        for color in Color:
            name = f"{color.title}Commit"
            tag = header.get(name)
            if tag is None:
                self._bad(f"[DiceProtocol] needs [{name}], {color.title}'s commitment", protocol, header)
                continue
            value = dice.parse_hex(tag.value)
            if value is None:
                self._bad(
                    f"[{tag.name}] must be 64 hexadecimal digits (a SHA-256 hash), not {tag.value!r}", tag, header
                )
                continue
            commits[color] = value
            self._tags[name] = tag
        if len(commits) != 2:
            return
        self.white_commit, self.black_commit = commits[Color.WHITE], commits[Color.BLACK]
        if self.white_commit == self.black_commit:
            self._bad(
                "[WhiteCommit] and [BlackCommit] are the same: each player commits to a secret of their own",
                header.get("BlackCommit"),
                header,
            )
            return
        self.usable = True
        for color in Color:
            self._open(color, commits[color], header)
        self.verifying = len(self.keys) == 2

    def _open(self, color: Color, commit: bytes, header: Header) -> None:
        """A player's opening of their commitment: the secret ([WhiteSecret]) or, in its place, the
        last key they told (a revealed key chain, [WhiteKey], DR2)."""
        for kind in ("Secret", "Key"):
            tag = header.get(f"{color.title}{kind}")
            if tag is None:
                continue
            self._tags[f"{color.title}{kind}"] = tag
            value = dice.parse_hex(tag.value)
            if value is None:
                why = f"{kind.lower()} is not 64 hexadecimal digits (32 bytes): [{tag.name}] is {tag.value[:80]!r}"
                self._mismatch(color, tag, why, None, "not 64 hexadecimal digits")
                return
            if kind == "Secret":
                got = dice.commitment(value)
                if got != commit:
                    why = f"secret does not match [{color.title}Commit]: its commitment is {got.hex()}, the header "
                    self._mismatch(color, tag, why + f"commits to {commit.hex()}", got, "not the committed secret")
                    return
                self.keys[color] = dice.chain(value)
                return
            reached = dice.reach(value, commit)
            if reached is None:
                why = f"key is no key of the chain [{color.title}Commit] commits to: SHA-256 applied up to "
                why += f"{dice.CHAIN_LENGTH} times never gives {commit.hex()}"
                self._mismatch(color, tag, why, value, "not a key of the committed chain")
                return
            self.keys[color] = dice.keys_from(value, reached)
            return

    def _mismatch(self, color: Color, tag: Tag, why: str, claimed: bytes | None, label: str) -> None:
        """SG-D102: what a player revealed does not open their commitment (DR1)."""
        commit = self.white_commit if color is Color.WHITE else self.black_commit
        self.findings.append(
            diagnostic(
                "SG-D102",
                f"{color.title}'s revealed {why}",
                expected=commit.hex(),
                claimed=claimed.hex() if claimed is not None else tag.value[:80],
            )
            .at(tag.span, label)
            .with_context(("player", color.title))
        )

    # --- the end: who has not opened their commitment (DR1) ---------------------------------

    def finish(self, finished: bool) -> None:
        """Once the log is read: a player who has not opened their commitment, or whose revealed
        key does not reach the game's last roll. In a finished game that is an error naming the
        player (SG-D106, DR1); in a game still in play, one warning that the rolls are unverified
        (SG-D104)."""
        if not self.usable:
            return
        refused = {dict(d.context).get("player") for d in self.findings if has(d.code, Trait.WITHHELD)}
        rolls = self.index
        closed: dict[Color, str] = {}
        for color in Color:
            if color.title in refused:
                continue  # what they revealed does not open their commitment: an error already (SG-D102)
            if color not in self.keys:
                closed[color] = f"does not reveal [{color.title}Secret] (or [{color.title}Key])"
            elif color in self.unopened:
                first = self.unopened[color]
                told = len(self.keys[color]) - 1
                closed[color] = (
                    f"reveals a key of roll {told} only: rolls {first} to {rolls - 1} are not opened"
                    if rolls - 1 > first
                    else f"reveals a key of roll {told} only: roll {first} is not opened"
                )
        if not closed:
            return
        assert self._protocol is not None
        if not finished:
            missing = [f"[{c.title}Secret]" for c in closed if c not in self.keys]
            said = "; ".join(
                ([f"does not reveal {' and '.join(missing)}"] if missing else [])
                + [f"{c.title} {why}" for c, why in closed.items() if c in self.keys]
            )
            self.findings.append(
                diagnostic(
                    "SG-D104",
                    f"the log commits to its dice but {said}: its rolls are unverified (a game in play)",
                    hint="once the game is over, each player adds their secret to the header "
                    '([WhiteSecret "..."], [BlackSecret "..."]); a finished game without them is an error',
                ).at(self._protocol.span)
            )
            return
        for color, why in closed.items():
            tag = self._tags.get(f"{color.title}Key") if color in self.keys else None
            tag = tag or self._tags.get(f"{color.title}Commit") or self._protocol
            self.findings.append(
                diagnostic(
                    "SG-D106",
                    f"the game is over and {color.title} {why}: {color.title}'s commitment is not opened, so "
                    "the rolls cannot be checked; the player who withholds it loses",
                    hint=f'{color.title} adds [{color.title}Secret "..."] to the header, or the other player adds '
                    f'the last key {color.title} told them ([{color.title}Key "..."], DR2)',
                )
                .at(tag.span, "not opened")
                .with_context(("player", color.title))
            )

    # --- the rolls --------------------------------------------------------------------------

    def _keys(self, index: int, span: Callable[[], Span]) -> tuple[bytes, bytes] | None:
        """Both players' keys of roll ``index``, or None past the chain's end (SG-D105) or past
        the roll a player's revealed key reaches (noted for :meth:`finish`)."""
        if index >= dice.CHAIN_LENGTH:
            self._too_many(span())
            return None
        short = False
        for color in Color:
            if index >= len(self.keys[color]):
                self.unopened.setdefault(color, index)
                short = True
        if short:
            return None
        return self.keys[Color.WHITE][index], self.keys[Color.BLACK][index]

    def _too_many(self, span: Span) -> None:
        if not self.over:
            self.over = True
            self.findings.append(
                diagnostic(
                    "SG-D105",
                    f"roll {self.index - 1} is past the last roll the protocol derives ({dice.CHAIN_LENGTH} rolls a "
                    "game): it and the rolls after it are not checked",
                ).at(span)
            )

    def _by(self, aim: str | None) -> str:
        return f"by {self.protocol} for '{aim}'" if aim is not None else f"by {self.protocol}"

    def rolloff(self, item: RollOff) -> None:
        index = self.index
        self.index += 1
        keys = self._keys(index, lambda: item.span)
        if keys is None:
            return
        white, black = dice.rolloff_for(
            keys[0], keys[1], self.white_commit, self.black_commit, self.game_id, index, self.version
        )
        aim = dice.purpose("rolloff") if self.version == 2 else None
        for color, expected, written in ((Color.WHITE, white, item.white), (Color.BLACK, black, item.black)):
            if written.faces != expected:
                self.findings.append(
                    diagnostic(
                        "SG-D103",
                        f"wrong dice: roll {index} (the roll-off) gives {color.title} {_shown(expected)} "
                        f"{self._by(aim)}, the log says {_shown(written.faces)}",
                        expected=_shown(expected),
                        claimed=_shown(written.faces),
                    )
                    .at(written.span, f"expected {_shown(expected)}")
                    .with_context(("roll", str(index)))
                )

    def statement(
        self, written: Attack | Break | Repair, node: _Node, where: tuple[tuple[str, str], ...], color: Color
    ) -> None:
        """One statement's rolls: an attack's accuracy dice (and second roll), a Break's or Repair's."""
        v2 = self.version == 2
        kind = roll_of(written)
        assert kind is not None  # an attack, a Break or a Repair
        aim = dice.action_purpose(written, color) if v2 else None
        what = "accuracy" if isinstance(written, Attack) else type(written).__name__
        self._roll(written.roll, kind, what, node, False, where, aim)
        if isinstance(written, Attack) and written.second:
            aim = dice.action_purpose(written, color, second=True) if v2 else None
            self._roll(written.second, SECOND_ROLL, "second roll", node, True, where, aim)

    def _roll(
        self,
        written: tuple[int, ...],
        kind: Roll,
        what: str,
        node: _Node,
        second: bool,
        where: tuple[tuple[str, str], ...],
        aim: str | None,
    ) -> None:
        index = self.index
        self.index += 1
        keys = self._keys(index, lambda: _dice_span(node(), second))
        if keys is None:
            return
        expected = dice.roll_for(
            keys[0], keys[1], self.white_commit, self.black_commit, self.game_id, index, kind.sides, kind.count, aim
        )
        if written == expected:
            return
        self.findings.append(
            diagnostic(
                "SG-D103",
                f"wrong dice: roll {index} ({what}) is {_shown(expected)} {self._by(aim)}, the log says "
                f"{_shown(written)}",
                expected=_shown(expected),
                claimed=_shown(written),
            )
            .at(_dice_span(node(), second), f"expected {_shown(expected)}")
            .with_context(*where, ("roll", str(index)))
        )

    def item(self, item: LogItem | PlainTurn) -> None:
        """Check the rolls of one item of the log."""
        if isinstance(item, PlainTurn):
            self._plain_turn(item)
        elif isinstance(item, RollOff):
            self.rolloff(item)
        elif isinstance(item, Turn):
            self._tree_turn(item)

    def _plain_turn(self, turn: PlainTurn) -> None:
        phase: Phase | None = None
        for step in turn.steps:
            if step.phase is not None:
                phase = step.phase
            action = step.action
            if isinstance(action, Attack | Break | Repair):
                where = _where(turn.number, turn.color, phase)
                self.statement(action, partial(turn.statement, step), where, turn.color)

    def _tree_turn(self, turn: Turn) -> None:
        blocks: list[tuple[Phase | None, tuple[Statement, ...]]] = [(None, turn.loose)]
        blocks += [(block.phase, block.statements) for block in turn.phases]
        for phase, statements in blocks:
            for stmt in statements:
                where = _where(turn.number, turn.color, phase)
                if isinstance(stmt, AttackStmt):
                    extra = stmt.second
                    second = extra.dice.faces if extra is not None else ()
                    advantage = extra.advantage if extra is not None else False
                    frm, to = stmt.attacker.square, stmt.target.square
                    written: Attack | Break | Repair = Attack(
                        frm, to, stmt.roll.faces, second=second, advantage=advantage
                    )
                elif isinstance(stmt, BreakStmt):
                    written = Break(stmt.roll.faces)
                elif isinstance(stmt, RepairStmt):
                    written = Repair(stmt.roll.faces)
                else:
                    continue
                self.statement(written, partial(_same, stmt), where, turn.color)


def _same(stmt: Statement) -> Statement:
    return stmt


def _dice_span(stmt: Statement, second: bool) -> Span:
    if isinstance(stmt, AttackStmt):
        if second and stmt.second is not None:
            return stmt.second.dice.span
        return stmt.roll.span
    if isinstance(stmt, BreakStmt | RepairStmt):
        return stmt.roll.span
    return stmt.span


def _where(number: int, color: Color, phase: Phase | None) -> tuple[tuple[str, str], ...]:
    pairs = [("turn", str(number)), ("player", color.title)]
    if phase is not None:
        pairs.append(("phase", phase.title))
    return tuple(pairs)


class Tapped:
    """A log's items on their way to the replayer, with their dice checked when the header
    commits to them (:func:`checked`)."""

    def __init__(self, items: Iterable[LogItem | PlainTurn]) -> None:
        self._items = iter(items)
        self.check: DiceCheck | None = None
        self._stream: Iterator[LogItem | PlainTurn] | None = None

    def __iter__(self) -> Iterator[LogItem | PlainTurn]:
        first = next(self._items, None)
        if first is None:
            return iter(())
        if isinstance(first, Header) and first.tags and has_dice_tags(first):
            self.check = DiceCheck(first)
            if self.check.usable:
                self._stream = self._checked(first)
                return self._stream
        return chain((first,), self._items)  # no dice to verify: the items as they come

    def _checked(self, first: LogItem | PlainTurn) -> Iterator[LogItem | PlainTurn]:
        yield first
        check = self.check
        assert check is not None
        verifying = check.verifying
        for item in self._items:
            if isinstance(item, ResultLine):
                check.result_written = True
            elif verifying:
                check.item(item)
            yield item

    def drain(self, stop: type[BaseException]) -> None:
        """Check the rolls of the items the replayer did not reach (it stopped at an error)."""
        if self._stream is None:
            return
        try:
            for _ in self._stream:
                pass
        except stop:
            pass  # the log ends at a syntax error

    def finish(self, finished: bool) -> None:
        """Once the log is read (:meth:`drain`): whether each player opened their commitment;
        ``finished``: the game is over (DR1)."""
        if self.check is not None:
            self.check.finish(finished or self.check.result_written)

    @property
    def findings(self) -> list[Diagnostic]:
        return self.check.findings if self.check is not None else []


def merged(found: Iterable[Diagnostic], dice_findings: list[Diagnostic]) -> tuple[Diagnostic, ...]:
    """The replay's findings with the dice's placed among them by position in the text (a finding
    without a position keeps its place)."""
    if not dice_findings:
        return tuple(found)
    pending = sorted(dice_findings, key=lambda d: d.span.offset if d.span is not None else -1)
    out: list[Diagnostic] = []
    for diag in found:
        if diag.span is not None:
            while pending and pending[0].span is not None and pending[0].span.offset < diag.span.offset:
                out.append(pending.pop(0))
        out.append(diag)
    out.extend(pending)
    return tuple(out)
