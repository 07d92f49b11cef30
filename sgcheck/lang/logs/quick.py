"""Quick turns: the plainest lines of a log read straight into core actions.

Why it exists: a replay spends most of its time on turns that are written plainly and are
entirely legal, and for those the syntax tree (a node and an exact span for every word) is
never looked at. A line of the plainest form (one optional turn header, one optional phase
label, at most one statement and its claims, words in lower case separated by single
spaces) is matched by one regular expression and turned into the core action it stands
for and its claims, as ``(kind, value)`` pairs. A turn whose every line has that form comes
out of the reader as a :class:`QuickTurn`; replay checks it against the core directly, and
only if something is wrong (an illegal action, a wrong claim, anything unusual) asks for the
full :class:`~sgcheck.lang.logs.ast.Turn`, which :meth:`QuickTurn.build` reads from the same
lines with the word-level reader, so every finding still comes from the exact syntax tree.

Any line that is not of the plainest form makes the reader fall back to reading its turn
word by word: being quick is never a different reading, only a shortcut to the same one.
Tests check that both readings give the same actions and claims.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from sgcheck.core.actions import Action, Attack, Break, Convert, Move, Repair, Summon, Teleport
from sgcheck.core.caps import MAX_NUMBER_DIGITS
from sgcheck.core.pieces import BLACK, WHITE, Color, Kind, Phase
from sgcheck.core.state import Payment
from sgcheck.lang.logs.ast import ClaimKind, Turn
from sgcheck.lang.logs.vocab import APPLICABLE, FLAG_CLAIMS, KINDS, PHASES, SQUARES, VALUE_CLAIMS

if TYPE_CHECKING:
    from sgcheck.lang.source import SourceText

#: One claim as replay checks it: its kind and its number (None for a word such as ``hit``).
QuickClaim = tuple[ClaimKind, int | None]

_SQ = "[a-h][1-8]"
_KIND = "[PNBRQK]"
_INT = f"[0-9]{{1,{MAX_NUMBER_DIGITS}}}"  # longer numbers are the grammar's to report (SG-P012)
_DICE = f"{_INT}(?: {_INT})*"
_AMOUNT = f"{_INT}[sl]p"
_CLAIM = (
    f" (?:(?:{'|'.join(VALUE_CLAIMS)}) {_INT}|{'|'.join(FLAG_CLAIMS)}"
    f"|pay {_AMOUNT}(?: {_AMOUNT})?|gain {_AMOUNT})"
)
_STATEMENT_FORMS = (
    rf"move (?P<mk>{_KIND})?(?P<mf>{_SQ}) (?P<mt>{_SQ})(?: (?P<mv>{_SQ}))?",
    rf"attack (?P<ak>{_KIND})?(?P<af>{_SQ}) (?P<tk>{_KIND})?(?P<at>{_SQ}) roll (?P<ar>{_DICE})",
    rf"summon (?P<sk>{_KIND}) ?(?P<st>{_SQ})",
    rf"teleport (?P<pk>{_KIND})?(?P<pf>{_SQ}) (?P<pt>{_SQ})",
    rf"(?P<dw>break|repair) roll (?P<dr>{_DICE})",
    rf"(?P<nw>convert|income) (?P<n>{_INT})",
    r"(?P<pass>pass)",
)
#: A statement without its claims, with a group for every part.
_STATEMENT = re.compile("|".join(_STATEMENT_FORMS))
#: A whole line: header, label, statement (as one group, the cache key) and claims.
#: Runs of blanks are possessive (nothing that follows starts with one), so a line of blanks
#: ending in something else fails in linear time instead of trying every split of the run.
_LINE = re.compile(
    rf"[ \t]*+(?:(?P<num>{_INT})\.(?P<black>\.\.)?(?: ++|$))?"
    rf"(?:(?P<phase>{'|'.join(PHASES)}):(?: ++|$))?"
    rf"(?:(?P<stmt>{'|'.join(re.sub(r'[(][?]P<[a-z]+>', '(?:', form) for form in _STATEMENT_FORMS)})"
    rf"(?P<claims>(?:{_CLAIM})*))?[ \t\r]*+"
)
_CLAIM_PARTS = re.compile(rf" ([a-z-]+)(?: ({_INT})([sl]p)?)?(?: ({_INT})([sl]p))?")


class QuickStep(NamedTuple):
    """One line of the plainest form."""

    number: int | None  # a turn header on this line: its number
    color: Color | None  # ... and whose turn it is
    phase: Phase | None  # a phase label on this line
    word: str | None  # the statement's word ("move", "pass", "income", ...), if there is one
    action: Action | None  # the core action the statement stands for (None for pass and income)
    claims: tuple[QuickClaim, ...]  # what the log claims about it (a stated payment is in the action)
    amount: int  # income: the amount written


def _claims(word: str, text: str) -> tuple[tuple[QuickClaim, ...], Payment | None] | None:
    """The claims after a statement and its stated payment; None if one does not fit the statement."""
    allowed = APPLICABLE[word][1]
    out: list[QuickClaim] = []
    pay: Payment | None = None
    for name, value, unit, second, second_unit in _CLAIM_PARTS.findall(text):
        if name == "pay":
            if unit == second_unit:  # the same unit twice
                return None
            paid = {unit: int(value)}
            if second:
                paid[second_unit] = int(second)
            if pay is None:
                pay = Payment(paid.get("sp", 0), paid.get("lp", 0))
            kind = ClaimKind.PAY
        elif name == "gain":
            kind = ClaimKind.GAIN_SP if unit == "sp" else ClaimKind.GAIN_LP
            out.append((kind, int(value)))
        elif value:
            kind = VALUE_CLAIMS[name]
            out.append((kind, int(value)))
        else:
            kind = FLAG_CLAIMS[name]
            out.append((kind, None))
        if kind not in allowed:
            return None
    return tuple(out), pay


def _dice(text: str) -> tuple[int, ...]:
    return tuple(int(face) for face in text.split(" "))


def _kind(letter: str | None) -> Kind | None:
    return KINDS[letter] if letter is not None else None


def _statement(text: str) -> tuple[str, Action | None, int]:
    """A statement without its claims: its word, the core action (without a stated payment),
    and the amount of an income statement."""
    m = _STATEMENT.fullmatch(text)
    assert m is not None  # the line pattern matched it already
    mk, mf, mt, mv, ak, af, tk, at, ar, sk, st, pk, pf, pt, dw, dr, nw, n, _pass = m.groups()
    if mf is not None:
        if mv is None:
            return "move", Move(SQUARES[mf], SQUARES[mt], None, _kind(mk)), 0
        return "move", Move(SQUARES[mf], SQUARES[mv], SQUARES[mt], _kind(mk)), 0
    if af is not None:
        return "attack", Attack(SQUARES[af], SQUARES[at], _dice(ar), _kind(ak), _kind(tk)), 0
    if sk is not None:
        return "summon", Summon(KINDS[sk], SQUARES[st]), 0
    if pf is not None:
        return "teleport", Teleport(SQUARES[pf], SQUARES[pt], _kind(pk)), 0
    if dw is not None:
        return dw, (Break if dw == "break" else Repair)(_dice(dr)), 0
    if nw == "convert":
        return nw, Convert(int(n)), 0
    if nw == "income":
        return nw, None, int(n)
    return "pass", None, 0


# Bounded caches (emptied when full): the same statements and claim texts recur all through
# a game, and what they map to is immutable.
_CACHE_SIZE = 16384
_statements: dict[str, tuple[str, Action | None, int]] = {}
# Marks a claim text not read yet; compared by identity (no reading gives a negative payment).
_UNREAD: tuple[tuple[QuickClaim, ...], Payment | None] = ((), Payment(-1, -1))
_claim_texts: dict[tuple[str, str], tuple[tuple[QuickClaim, ...], Payment | None] | None] = {}


def read_quick_line(line: str) -> QuickStep | None:
    """The line as a :class:`QuickStep`, or None if it is not of the plainest form."""
    m = _LINE.fullmatch(line)
    if m is None:
        return None
    num, black, phase_word, text, claims_text = m.groups()
    number: int | None = None
    color: Color | None = None
    if num is not None:
        number = int(num)
        if number == 0:
            return None
        color = BLACK if black else WHITE
    phase = PHASES[phase_word] if phase_word is not None else None
    if text is None:
        if number is None and phase is None:
            return None  # a line with no header, label or statement is not a line of a turn
        return _new(QuickStep, (number, color, phase, None, None, (), 0))
    statement = _statements.get(text)
    if statement is None:
        if len(_statements) >= _CACHE_SIZE:
            _statements.clear()
        statement = _statements[text] = _statement(text)
    word, action, amount = statement
    claims: tuple[QuickClaim, ...] = ()
    if claims_text:
        key = (word, claims_text)
        read = _claim_texts.get(key, _UNREAD)
        if read is _UNREAD:
            if len(_claim_texts) >= _CACHE_SIZE:
                _claim_texts.clear()
            read = _claim_texts[key] = _claims(word, claims_text)
        if read is None:
            return None
        claims, pay = read
        if pay is not None and action is not None:
            action = replace(action, pay=pay)  # type: ignore[arg-type]  # only paying actions take claims with pay
    return _new(QuickStep, (number, color, phase, word, action, claims, amount))


_new = tuple.__new__


Line = tuple[int, int, str]  # (number, offset, text without its comment)


class QuickTurn:
    """A turn read in the plainest form: whose turn, its steps in order, and its lines."""

    __slots__ = ("color", "index", "lines", "number", "source", "steps")

    def __init__(
        self,
        number: int,
        color: Color,
        steps: list[QuickStep],
        lines: list[Line],
        source: SourceText,
        index: int,
    ) -> None:
        self.number, self.color, self.steps = number, color, steps
        self.lines, self.source, self.index = lines, source, index

    def build(self) -> Turn:
        """The full syntax tree of this turn, exactly as the word-level reader gives it.

        Falls back to the grammar, which reads the whole log again and takes this turn's
        item, if the word-level reader ever declined a line the quick reader accepted.
        May raise :class:`~sgcheck.lang.logs.grammar.LogSyntaxError` in that case only.
        """
        from sgcheck.lang.logs.log_fast import Declined, build_turn

        try:
            return build_turn(self.source.name, self.lines)
        except Declined:
            from sgcheck.lang.logs.grammar import grammar_item

            item = grammar_item(self.source, self.index)
            assert isinstance(item, Turn)
            return item


class QuickTurnReader:
    """Collects the lines of a quick turn; refuses a line that would make the turn a different one."""

    __slots__ = ("color", "lines", "number", "steps")

    def __init__(self, head: QuickStep, line: Line) -> None:
        assert head.number is not None and head.color is not None
        self.number, self.color = head.number, head.color
        self.steps = [head]
        self.lines = [line]

    def add(self, step: QuickStep, line: Line) -> bool:
        if step.number is not None:
            return False
        self.steps.append(step)
        self.lines.append(line)
        return True

    def finish(self, source: SourceText, index: int) -> QuickTurn:
        return QuickTurn(self.number, self.color, self.steps, self.lines, source, index)
