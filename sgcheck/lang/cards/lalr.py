"""Run Lark's LALR(1) tables for the card grammar with a tight scanner-and-parser loop.

Lark builds the LALR tables from ``grammar/sgcard.lark`` and the callbacks from
:class:`~sgcheck.lang.cards.builder.CardBuilder`; this module only drives them. Lark's own
driver (a generic lexer, a generator, a ``Token`` per word) was most of the time spent
checking a 10,000-card pack; this loop scans with one small regular expression and
resolves each word to whichever grammar terminal the current parser state accepts (so
``attack`` can be a cost kind in one place and a duration word in another). Which
terminals a word can be is computed once per distinct word from the grammar itself,
so the grammar file stays the single definition of the language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from sgcheck.lang.lark_adapter import Reduction, parse_table, terminals

if TYPE_CHECKING:
    from lark import Lark

_SCAN = re.compile(
    r"""(?P<ws>[ \t\f\v\r\ufeff\u00a0]+)"""
    r"""|(?P<nl>\n)"""
    r"""|(?P<comment>\#[^\n]*)"""
    r"""|(?P<word>[A-Za-z_][A-Za-z0-9_.\-]*)"""
    r"""|(?P<signed>[+-][0-9]+)"""
    r"""|(?P<int>[0-9]+)"""
    r"""|(?P<str>"(?:[^"\\\n\r]|\\.)*")"""
    r"""|(?P<op><=|>=|==|!=|[<>={}:+*/])"""
)
SCAN = _SCAN  # the words of a card, for the editor's highlighting too (sgcheck.server.tokens)
_SKIP = frozenset(("ws", "comment"))
_FIXED = {"str": ("NAME",), "int": ("INT",), "signed": ("SIGNED_INT",)}
END = "$END"
UNKNOWN = "$UNKNOWN"


class Tok:
    """A word of a card with its grammar terminal and position (lines/columns 1-based, end exclusive)."""

    __slots__ = ("column", "end_column", "end_line", "end_pos", "line", "start_pos", "type", "value")

    def __init__(self, type_: str, value: str, start_pos: int, line: int, column: int, end_pos: int) -> None:
        self.type = type_
        self.value = value
        self.start_pos = start_pos
        self.line = line
        self.column = column
        self.end_line = line
        self.end_column = column + (end_pos - start_pos)
        self.end_pos = end_pos

    def __repr__(self) -> str:
        return f"Tok({self.type}, {self.value!r}, {self.line}:{self.column})"


class ScanError(Exception):
    """No word of the language starts here."""

    def __init__(self, char: str, line: int, column: int, offset: int, state: int) -> None:
        super().__init__(f"unexpected character {char!r}")
        self.char, self.line, self.column, self.offset, self.state = char, line, column, offset, state


class ParseError(Exception):
    """The parser state ``state`` cannot take ``token``; ``expected`` lists what it could take.

    ``states`` and ``values`` are the parser's stacks at the error, for suggesting a way to go on.
    """

    def __init__(
        self,
        token: Tok,
        state: int,
        expected: frozenset[str],
        states: tuple[int, ...] = (),
        values: tuple[Any, ...] = (),
    ) -> None:
        super().__init__(f"unexpected {token.value!r}")
        self.token, self.state, self.expected = token, state, expected
        self.states, self.values = states, values


class CardLALR:
    """The compiled card grammar: per state, terminal -> next state (int) or reduction."""

    def __init__(self, lark: Lark) -> None:
        table = parse_table(lark, "card")
        self.start_state: int = table.start
        self.end_state: int = table.end
        self.actions: dict[int, dict[str, int | Reduction]] = table.states
        self._terminals = [
            (t.name, re.compile(t.regexp, re.ASCII), t.priority, "str" if t.literal is not None else "re")
            for t in terminals(lark)
        ]
        self._candidates: dict[str, tuple[str, ...]] = {}

    def candidates(self, text: str) -> tuple[str, ...]:
        """The terminals ``text`` can be, best first (higher priority, literals before patterns)."""
        found = self._candidates.get(text)
        if found is None:
            ranked = sorted(
                (-priority, 0 if kind == "str" else 1, name)
                for name, pattern, priority, kind in self._terminals
                if pattern.fullmatch(text)
            )
            found = tuple(name for _, _, name in ranked)
            if len(self._candidates) < 10_000:  # bounded: hostile input cannot grow it forever
                self._candidates[text] = found
        return found

    def expected(self, state: int) -> frozenset[str]:
        return frozenset(s for s in self.actions[state] if s.isupper() or s == END)

    def completions(
        self,
        states: tuple[int, ...],
        rank: Callable[[str], int | None],
        goal: frozenset[str],
        *,
        depth: int = 8,
        at_least: int = 0,
    ) -> Iterator[tuple[tuple[int, ...], list[str]]]:
        """Runs of at least ``at_least`` terminals that take the parser from ``states`` to a state
        accepting one of ``goal``, with that state's stack: shortest first, ties to the terminals
        ``rank`` puts first (None from ``rank``: never used), at most ``depth`` long."""
        frontier: list[tuple[tuple[int, ...], list[str]]] = [(states, [])]
        seen: set[tuple[int, ...]] = set()
        for _ in range(depth):
            following: list[tuple[tuple[int, ...], list[str]]] = []
            for stack, path in frontier:
                row = self.actions[stack[-1]]
                if len(path) >= at_least and not goal.isdisjoint(row):
                    yield stack, path
                choices = sorted(
                    (r, name) for name in row if name.isupper() and name != END and (r := rank(name)) is not None
                )
                for _, name in choices:
                    moved = self.shift(stack, name)
                    if moved is not None and moved not in seen:
                        seen.add(moved)
                        following.append((moved, [*path, name]))
            frontier = following

    def shift(self, stack: tuple[int, ...], terminal: str) -> tuple[int, ...] | None:
        """The state stack after ``terminal`` is shifted (reductions done first; no node is built)."""
        states = list(stack)
        while True:
            step = self.actions[states[-1]].get(terminal)
            if step is None:
                return None
            if type(step) is int:
                states.append(step)
                return tuple(states)
            assert isinstance(step, Reduction)
            if step.size:
                del states[-step.size :]
            goto = self.actions[states[-1]].get(step.origin)
            if type(goto) is not int:
                return None
            states.append(goto)

    def parse(self, text: str, line: int = 1, offset: int = 0) -> Any:
        """Parse one card starting at the beginning of a line; positions are offset by ``line``/``offset``."""
        actions = self.actions
        state_stack = [self.start_state]
        value_stack: list[Any] = []
        match = _SCAN.match
        pos, end, line_start = 0, len(text), 0
        last: Tok | None = None
        while True:
            if pos < end:
                found = match(text, pos)
                if found is None:
                    raise ScanError(text[pos], line, pos - line_start + 1, pos + offset, state_stack[-1])
                group = found.lastgroup or ""
                next_pos = found.end()
                if group in _SKIP:
                    pos = next_pos
                    continue
                if group == "nl":
                    line += 1
                    line_start = pos = next_pos
                    continue
                value = found.group()
                row = actions[state_stack[-1]]
                if group == "signed" and "SIGNED_INT" not in row and value[0] == "+" and "PLUS" in row:
                    next_pos = pos + 1  # ``2 SP +1 LP``: a plus sign, then a number
                    value = "+"
                kind = None
                names = _FIXED.get(group) or self.candidates(value)
                for name in names:
                    if name in row:
                        kind = name
                        break
                if kind is None:
                    kind = names[0] if names else UNKNOWN  # a word no terminal matches: an error here
                token = Tok(kind, value, pos + offset, line, pos - line_start + 1, next_pos + offset)
                pos = next_pos
                last = token
            else:
                token = _end_token(last, line, offset)
            while True:
                state = state_stack[-1]
                step = actions[state].get(token.type)
                if step is None:
                    raise ParseError(token, state, self.expected(state), tuple(state_stack), tuple(value_stack))
                if type(step) is int:
                    state_stack.append(step)
                    value_stack.append(token)
                    break
                assert isinstance(step, Reduction)
                size = step.size
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value_stack.append(step.callback(children))
                goto = actions[state_stack[-1]][step.origin]
                assert type(goto) is int
                state_stack.append(goto)
                if token.type == END and goto == self.end_state:
                    return value_stack[-1]


def _end_token(last: Tok | None, line: int, offset: int) -> Tok:
    if last is None:
        return Tok(END, "", offset, line, 1, offset)
    token = Tok(END, "", last.end_pos, last.end_line, last.end_column, last.end_pos)
    return token
