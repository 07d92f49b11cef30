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

from sgcheck.codes import diagnostic
from sgcheck.core import dice
from sgcheck.core.actions import Attack, Break, Repair
from sgcheck.core.pieces import Color, Phase
from sgcheck.core.squares import Square
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import AttackStmt, BreakStmt, Header, LogItem, RepairStmt, RollOff, Statement, Tag, Turn
from sgcheck.lang.logs.reader import PlainTurn

#: The header tags of the protocol, as docs/log-format.md names them.
TAGS = ("DiceProtocol", "GameId", "WhiteCommit", "BlackCommit", "WhiteSecret", "BlackSecret")
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
        self.game_id = ""
        self.white_commit = b""
        self.black_commit = b""
        self.white_keys: list[bytes] = []
        self.black_keys: list[bytes] = []
        self.verifying = False
        self.over = False  # past the chain's last roll (reported once)
        self._read_header(header)

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
                hint=f'add [DiceProtocol "{dice.PROTOCOL}"] to the header',
            )
            return
        if protocol.value.strip() != dice.PROTOCOL:
            self._bad(
                f"unknown dice protocol {protocol.value!r}: this sgcheck verifies {dice.PROTOCOL!r}",
                protocol,
                header,
                hint="the rolls are not checked; a newer sgcheck may know the protocol",
            )
            return
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
        revealed: dict[Color, bytes] = {}
        for color in Color:
            name = f"{color.title}Secret"
            tag = header.get(name)
            if tag is None:
                continue
            secret = dice.parse_hex(tag.value)
            if secret is None:
                self._bad(f"[{tag.name}] must be 64 hexadecimal digits (32 bytes), not {tag.value!r}", tag, header)
                continue
            commit = commits[color]
            if dice.commitment(secret) != commit:
                self.findings.append(
                    diagnostic(
                        "SG-D102",
                        f"{color.title}'s revealed secret does not match [{color.title}Commit]: its commitment is "
                        f"{dice.commitment(secret).hex()}, the header commits to {commit.hex()}",
                        expected=commit.hex(),
                        claimed=dice.commitment(secret).hex(),
                    ).at(tag.span, "not the committed secret")
                )
                continue
            revealed[color] = secret
        if len(revealed) == 2:
            self.white_keys = dice.chain(revealed[Color.WHITE])
            self.black_keys = dice.chain(revealed[Color.BLACK])
            self.verifying = True
            return
        if not any(d.code in ("SG-D101", "SG-D102") for d in self.findings):
            missing = [f"[{c.title}Secret]" for c in Color if header.get(f"{c.title}Secret") is None]
            self.findings.append(
                diagnostic(
                    "SG-D104",
                    f"the log commits to its dice but does not reveal {' and '.join(missing)}: "
                    "its rolls are unverified",
                    hint="once the game is over, each player adds their secret to the header "
                    '([WhiteSecret "..."], [BlackSecret "..."])',
                ).at(protocol.span)
            )

    # --- the rolls --------------------------------------------------------------------------

    def _expected(self, sides: int, count: int) -> tuple[int, ...] | None:
        """The next roll's dice (and count it), or None past the chain's end."""
        index = self.index
        self.index += 1
        if index >= dice.CHAIN_LENGTH:
            return None
        return dice.roll_for(
            self.white_keys[index],
            self.black_keys[index],
            self.white_commit,
            self.black_commit,
            self.game_id,
            index,
            sides,
            count,
        )

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

    def rolloff(self, item: RollOff) -> None:
        index = self.index
        self.index += 1
        if index >= dice.CHAIN_LENGTH:
            self._too_many(item.span)
            return
        white, black = dice.rolloff_for(
            self.white_keys[index], self.black_keys[index], self.white_commit, self.black_commit, self.game_id, index
        )
        for color, expected, written in ((Color.WHITE, white, item.white), (Color.BLACK, black, item.black)):
            if written.faces != expected:
                self.findings.append(
                    diagnostic(
                        "SG-D103",
                        f"wrong dice: roll {index} (the roll-off) gives {color.title} {_shown(expected)} by "
                        f"{dice.PROTOCOL}, the log says {_shown(written.faces)}",
                        expected=_shown(expected),
                        claimed=_shown(written.faces),
                    )
                    .at(written.span, f"expected {_shown(expected)}")
                    .with_context(("roll", str(index)))
                )

    def statement(self, written: Attack | Break | Repair, node: _Node, where: tuple[tuple[str, str], ...]) -> None:
        """One statement's rolls: an attack's accuracy dice (and second roll), a Break's or Repair's."""
        if isinstance(written, Attack):
            self._roll(written.roll, dice.D10, 2, "accuracy", node, False, where)
            if written.second:
                self._roll(written.second, dice.D10, 2, "second roll", node, True, where)
        else:
            what = "Break" if isinstance(written, Break) else "Repair"
            self._roll(written.roll, dice.D6, 3, what, node, False, where)

    def _roll(
        self,
        written: tuple[int, ...],
        sides: int,
        count: int,
        what: str,
        node: _Node,
        second: bool,
        where: tuple[tuple[str, str], ...],
    ) -> None:
        index = self.index
        expected = self._expected(sides, count)
        if expected is None:
            self._too_many(_dice_span(node(), second))
            return
        if written == expected:
            return
        self.findings.append(
            diagnostic(
                "SG-D103",
                f"wrong dice: roll {index} ({what}) is {_shown(expected)} by {dice.PROTOCOL}, the log says "
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
                self.statement(action, partial(turn.statement, step), _where(turn.number, turn.color, phase))

    def _tree_turn(self, turn: Turn) -> None:
        blocks: list[tuple[Phase | None, tuple[Statement, ...]]] = [(None, turn.loose)]
        blocks += [(block.phase, block.statements) for block in turn.phases]
        for phase, statements in blocks:
            for stmt in statements:
                where = _where(turn.number, turn.color, phase)
                if isinstance(stmt, AttackStmt):
                    second = stmt.second.dice.faces if stmt.second is not None else ()
                    written: Attack | Break | Repair = Attack(Square(0), Square(0), stmt.roll.faces, second=second)
                elif isinstance(stmt, BreakStmt):
                    written = Break(stmt.roll.faces)
                elif isinstance(stmt, RepairStmt):
                    written = Repair(stmt.roll.faces)
                else:
                    continue
                self.statement(written, partial(_same, stmt), where)


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
            if self.check.verifying:
                self._stream = self._checked(first)
                return self._stream
        return chain((first,), self._items)  # no dice to verify: the items as they come

    def _checked(self, first: LogItem | PlainTurn) -> Iterator[LogItem | PlainTurn]:
        yield first
        check = self.check
        assert check is not None
        for item in self._items:
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
