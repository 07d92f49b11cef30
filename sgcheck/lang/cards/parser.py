"""Parse ``.sgcard`` text into the card model, one card at a time.

A file is cut into blocks at every line that starts with ``relic`` or ``spell``; each
block is parsed on its own with the LALR grammar in ``grammar/sgcard.lark``. A syntax
error therefore costs only the card it is in: the error is reported at its line:col
(``SG-P020``-``SG-P023``) and every other card is still parsed and checked.

Lark is imported on first use so that ``sgcheck --help`` stays fast.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any

from sgcheck.core.cards.model import Card, CardFile
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.cards.input_codes import CARD_STRUCTURE, NO_CARDS, SYNTAX_ERROR, UNEXPECTED_CHARACTER, UNEXPECTED_END
from sgcheck.letters import Foreign, describe, first_foreign, lookalike, unfold

if TYPE_CHECKING:
    from lark import Lark

    from sgcheck.lang.cards.builder import CardBuilder
    from sgcheck.lang.cards.lalr import CardLALR, ParseError


CARD_RULES: tuple[str, ...] = ()

_BLOCK_START = re.compile(r"^[ \t\ufeff]*(?:relic|spell)\b", re.MULTILINE)
#: Blank lines and comments only. Possessive, so a failing match never retries another way of
#: cutting a run of '#' or spaces into pieces (the greedy form took time exponential in its length).
_BLANK = re.compile(r"(?:[\s\ufeff]++|#[^\n]*+)*+")
_HEADER = re.compile(r'\s*(relic|spell)\s+"((?:[^"\\\n]|\\.){0,80})')

_TERMINAL_WORDS = {
    "NAME": "a quoted name",
    "INT": "a number",
    "SIGNED_INT": "a signed number such as +10",
    "PHASE": "a phase (upkeep, main1, main, battle, main2, end)",
    "RESOURCE": "SP or LP",
    "CARD_KIND": "'relic' or 'spell'",
    "MODE": "passive, activated or instant",
    "COST_KIND": "an action to discount (move, attack, summon, teleport, distance, break, repair)",
    "EXTRA_KIND": "an action (move, attack, summon, teleport, activation, break, repair)",
    "EVENT": "an event (capture, captured, hit, miss, attacked, summon, teleport, move)",
    "CHANGE_VERB": "gain or lose",
    "SIDE": "own or enemy",
    "PIECE_CLASS": "a piece (King, Queen, Rook, Bishop, Knight, Pawn, pieces)",
    "PIECES": "'pieces'",
    "ROLE": "attacker or target",
    "CMP": "a comparison (<, <=, >, >=, =, !=)",
    "GEM_STATE": "broken or intact",
    "PERMANENT": "'permanent'",
    "LIMIT_PERIOD": "turn or game",
    "TO_HIT": "'to_hit'",
    "REROLL_KIND": "reroll or advantage",
    "PARAMETER": "a core parameter such as value.rook",
    "WORD": "a phase name",
    "$END": "the end of the file",
}

#: A word to write for each terminal in a suggested completion, best first; the terminals left
#: out are never suggested (a rewritten core number, an unlimited amount, a phase of one's own).
_SAMPLES: dict[str, str] = {
    "INT": "2",
    "RESOURCE": "SP",
    "SIGNED_INT": "+1",
    "SIDE": "enemy",
    "PIECE_CLASS": "Pawn",
    "COLON": ":",
    "CHANGE_VERB": "gain",
    "PHASE": "main1",
    "COST_KIND": "move",
    "EXTRA_KIND": "move",
    "EVENT": "capture",
    "ROLE": "attacker",
    "CMP": ">=",
    "GEM_STATE": "broken",
    "LIMIT_PERIOD": "turn",
    "ONCE": "once",
    "PIECES": "pieces",
    "NAME": '"Name"',
    "MODE": "passive",
    "TO_HIT": "to_hit",
    "REROLL_KIND": "reroll",
    "SCALE": "double",
    "PERMANENT": "permanently",
    "FREE": "free",
    "NOT": "not",
    "PARAMETER": "value.pawn",  # only after a 'set' already written (never suggested on its own)
    "WORD": "movement",  # only after an 'extra phase' already written
}
END_OF_CARD = "$END"
_OTHER_RESOURCE, _OTHER_SAMPLE = "RESOURCE", "LP"
_ANY_WORD = frozenset({"WORD", "PARAMETER"})
_SAMPLE_RANK = {name: rank for rank, name in enumerate(_SAMPLES)}
#: Keywords never suggested: they lead to what the contract forbids (a rewritten number, a phase
#: skipped or swapped, a repair denied, an unlimited amount), or start another card.
_NEVER = frozenset({"SET", "SKIP", "SWAP", "DENY", "UNLIMITED", "CARD_KIND"})


# Known mistakes, matched by parser state (Lark's UnexpectedInput.match_examples); the label leads the message.
_MISTAKES: dict[str, list[str]] = {
    "the card name must be written in double quotes": ["relic Soul {", "spell Ward Two {"],
    "a card's clauses go between '{' and '}'": ['relic "X" cost 1 SP }', 'spell "X" effect'],
    "a card holds only cost, phase, text and effect clauses": ['relic "X" { colour red }'],
    "a cost is a number, optionally followed by SP or LP (e.g. 'cost 3 SP')": ['relic "X" { cost SP }'],
    "a modifier needs a number such as +10 or -1": ['relic "X" { effect to_hit }', 'relic "X" { effect damage }'],
    "'effect' must be followed by an action (see docs/cards.md)": [
        'relic "X" { effect }',
        'relic "X" { effect bless }',
    ],
    "a trigger ends with ':' before its action": ['relic "X" { effect on capture gain 1 SP }'],
    "an amount is a number followed by SP or LP (e.g. 'gain 2 SP')": [
        'relic "X" { effect gain 2 }',
        'relic "X" { effect steal SP }',
    ],
}
# Each mistake also as the second clause of a card: Lark compares whole parser states, stack depth included.
_EXAMPLES: dict[str, list[str]] = {
    label: [*bad, *(text.replace("{ ", "{ phase main ", 1) for text in bad if "{ " in text)]
    for label, bad in _MISTAKES.items()
}


@dataclass(slots=True)
class _Machinery:
    lalr: CardLALR
    builder: CardBuilder
    literals: dict[str, str]
    reference: Lark | None = None
    # the runs of words found from a parser state (a pack repeats its mistakes): bounded
    completed: dict[tuple[object, ...], list[tuple[tuple[int, ...], list[str]]]] = field(default_factory=dict)


_local = threading.local()


def _machinery() -> _Machinery:
    """One parser per thread (the builder carries the name of the file being parsed)."""
    found: _Machinery | None = getattr(_local, "machinery", None)
    if found is None:
        from lark import Lark

        from sgcheck.lang.cards.builder import CardBuilder
        from sgcheck.lang.cards.lalr import CardLALR
        from sgcheck.lang.lark_adapter import no_lexer, terminals
        from sgcheck.resources import grammar_text

        builder = CardBuilder()
        lark = Lark(
            grammar_text("sgcard.lark"),
            g_regex_flags=re.ASCII,  # piece names and SP/LP in any case, ASCII only (sgcheck.letters)
            parser="lalr",
            lexer=no_lexer(),  # Lark wants a lexer; CardLALR scans the text itself
            start="card",
            keep_all_tokens=True,
            maybe_placeholders=False,
            transformer=builder,
        )
        literals = {t.name: f"'{t.literal}'" for t in terminals(lark) if t.literal is not None}
        found = _Machinery(CardLALR(lark), builder, literals)
        _local.machinery = found
    return found


def card_tables() -> CardLALR:
    """The compiled card grammar this thread parses with (which terminals a word can be, the LALR
    tables): the editor's highlighting reads words as the parser does (sgcheck.server.tokens)."""
    return _machinery().lalr


def parse_cards(text: str, source: str) -> CardFile:
    """Every card of ``text``; cards that cannot be parsed become diagnostics instead."""
    machinery = _machinery()
    machinery.builder.source = source
    starts = [m.start() for m in _BLOCK_START.finditer(text)]
    first = starts[0] if starts else len(text)
    if _BLANK.fullmatch(text, 0, first) is None:
        starts.insert(0, 0)  # text before the first card: parse it so the error is reported
    cards: list[Card] = []
    diagnostics: list[Diagnostic] = []
    line, previous = 1, 0
    for index, start in enumerate(starts):
        line += text.count("\n", previous, start)
        previous = start
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        result = _parse_block(machinery, text[start:end], line, start, source)
        if isinstance(result, Card):
            cards.append(result)
        else:
            diagnostics.append(result)
    if not cards and not diagnostics:
        diagnostics.append(
            Diagnostic(
                NO_CARDS.code,
                NO_CARDS.severity,
                "the file holds no cards",
                Span.point(source),
                CARD_RULES,
                hint="a card starts with 'relic \"Name\" {' or 'spell \"Name\" {' (see docs/cards.md)",
            )
        )
    return CardFile(source, tuple(cards), tuple(diagnostics))


def _parse_block(machinery: _Machinery, block: str, line: int, offset: int, source: str) -> Card | Diagnostic:
    from sgcheck.lang.cards.builder import CardStructureError
    from sgcheck.lang.cards.lalr import ParseError, ScanError

    context = _card_context(block)
    try:
        card: Card = machinery.lalr.parse(block, line, offset)
        return card
    except CardStructureError as error:
        return Diagnostic(
            CARD_STRUCTURE.code, CARD_STRUCTURE.severity, error.message, error.span, CARD_RULES, context=context
        )
    except ScanError as error:
        span = Span(source, error.line, error.column, error.line, error.column + 1, error.offset, error.offset + 1)
        if not error.char.isascii():
            scanned = Foreign(error.offset - offset, error.char, lookalike(error.char))
            return _foreign_error(scanned, block, span, context)
        return Diagnostic(
            UNEXPECTED_CHARACTER.code,
            UNEXPECTED_CHARACTER.severity,
            f"unexpected character {error.char!r}",
            span,
            CARD_RULES,
            hint="see docs/cards.md for the card language",
            context=context,
        )
    except ParseError as error:
        token = error.token
        foreign = _foreign_after(block, token.start_pos - offset) if token.type != "NAME" else None
        if foreign is not None:  # a word cut short by a character outside ASCII: name the character
            shift = foreign.offset - (token.start_pos - offset)
            column, at = token.column + shift, token.start_pos + shift
            span = Span(source, token.line, column, token.line, column + 1, at, at + 1)
            return _foreign_error(foreign, block, span, context)
        return _token_error(machinery, error, block, (line, offset), source, context)


#: A word of the card language as written, up to a blank, a comment, a quote or a brace.
_WRITTEN_WORD = re.compile(r'[^\s"#{}:]+')


def _foreign_after(block: str, start: int) -> Foreign | None:
    """The first character outside ASCII in the word written at ``start`` of ``block``, if any."""
    match = _WRITTEN_WORD.match(block, start)
    return first_foreign(block, start, min(match.end(), start + 200)) if match else None


def _foreign_error(foreign: Foreign, block: str, span: Span, context: tuple[tuple[str, str], ...]) -> Diagnostic:
    """SG-P022 for a character outside ASCII where the card has a word: keywords, piece names and
    SP/LP are ASCII letters (``'ſ' (U+017F LATIN SMALL LETTER LONG S) is not the letter s``)."""
    start = foreign.offset
    while start > 0 and _WRITTEN_WORD.match(block[start - 1]):
        start -= 1
    match = _WRITTEN_WORD.match(block, start)
    word = match.group() if match and len(match.group()) <= 40 else ""
    ascii_word = unfold(word) if word else None
    hint = "keywords, piece names and SP/LP are ASCII letters; other text belongs in a quoted name or a comment"
    if ascii_word is not None:
        hint = f"keywords, piece names and SP/LP are ASCII letters: write '{ascii_word}'"
    return Diagnostic(
        UNEXPECTED_CHARACTER.code,
        UNEXPECTED_CHARACTER.severity,
        f"unexpected character {describe(foreign.char)}: it is {foreign.label}",
        span,
        CARD_RULES,
        hint=hint,
        label=foreign.label,
        context=context,
    )


def _token_error(
    machinery: _Machinery,
    error: ParseError,
    block: str,
    at: tuple[int, int],
    source: str,
    context: tuple[tuple[str, str], ...],
) -> Diagnostic:
    token = error.token
    expected = _describe_expected(machinery, error.expected)
    example = _suggestion(machinery, error, block, at)
    if example is not None:
        expected += f"; for example: {example}"
    elif error.expected == {END_OF_CARD}:
        expected += ": the card is already closed by a '}' before this; remove that '}', or start another card"
    span = Span(source, token.line, token.column, token.end_line, token.end_column, token.start_pos, token.end_pos)
    if token.type == "$END":
        return Diagnostic(
            UNEXPECTED_END.code,
            UNEXPECTED_END.severity,
            "the card ends too early",
            span,
            CARD_RULES,
            hint=f"expected {expected}",
            label="card ends here",
            context=context,
        )
    label = _match_example(machinery, block)
    message = f"{label}: unexpected {token.value!r}" if label else f"unexpected {token.value!r}"
    return Diagnostic(
        SYNTAX_ERROR.code,
        SYNTAX_ERROR.severity,
        message,
        span,
        CARD_RULES,
        hint=f"expected {expected}",
        label="not expected here",
        context=context,
    )


def _suggestion(machinery: _Machinery, error: ParseError, block: str, at: tuple[int, int]) -> str | None:
    """The clause the error is in, as written up to the error and completed by the shortest run of
    words the grammar accepts there (:meth:`CardLALR.completions`), checked to parse: ``effect gain 2 SP``.

    The unexpected word is kept when a few words before it make it fit (``on capture gain`` becomes
    ``on capture: gain 2 SP``); a clause that cannot go on as written gets words before it
    (``cost move +1`` as a second cost becomes ``effect cost move +1``). None when nothing
    found makes a card.
    """
    from sgcheck.lang.cards.lalr import Tok

    completer = _Completer(machinery, at)
    token, offset = error.token, at[1]
    cut = token.start_pos - offset
    in_body = any(isinstance(v, Tok) and v.type == "LBRACE" for v in error.values)
    first, clause = _clause_start(error.values, offset) if in_body else (0, 0)
    written = block[clause if clause is not None else cut : cut].split()
    closing = ["}"] if token.type == "$END" or not in_body else []
    found = completer.keep_line(error, block[:cut], _rest_of_line(block, cut))
    if found is None:
        found = completer.complete(error, block[:cut])
    previous = error.values[-1] if error.values else None
    if found is None and token.value and isinstance(previous, Tok) and len(written) > 1:
        head = block[: previous.start_pos - offset]  # the word before the error dropped: ``set bless accuracy.base``
        after = completer.go_on(f"{head}{token.value}")
        if after is not None:
            found, written = after, [*written[:-1], token.value]
    if found is None and clause is not None and written:
        inserted = completer.insert(error.states[: first + 1], block[:clause], block[clause:cut], written[0])
        if inserted is not None:
            before, found = inserted
            written = [*before, *written]
    if found is None and clause is not None and any(word.isdigit() for word in written):
        # a number written that no card takes (``convert 0``): the clause with the sample number
        # instead, completed (``convert 2 SP to 1 LP``)
        sampled = [_SAMPLES["INT"] if word.isdigit() else word for word in written]
        found = completer.go_on(f"{block[:clause]}{' '.join(sampled)}")
        if found is not None:
            written = sampled
    if found is None:
        return None
    shown = " ".join([*written, *found, *closing]).replace(" :", ":")
    return f"'{shown}'" if shown else None


class _Completer:
    """Ways to go on from a parser state, in the words of the language, each checked to parse."""

    def __init__(self, machinery: _Machinery, at: tuple[int, int]) -> None:
        self.lalr, self.literals, self.completed = machinery.lalr, machinery.literals, machinery.completed
        self.line, self.offset = at

    def completions(
        self, states: tuple[int, ...], goal: frozenset[str], *, depth: int = 8, at_least: int = 0, most: int
    ) -> list[tuple[tuple[int, ...], list[str]]]:
        """The first ``most`` of :meth:`CardLALR.completions`, kept per parser state."""
        key = (states, goal, depth, at_least, most)
        found = self.completed.get(key)
        if found is None:
            runs = self.lalr.completions(states, self.rank, goal, depth=depth, at_least=at_least)
            found = list(islice(runs, most))
            if len(self.completed) < 4096:
                self.completed[key] = found
        return found

    def rank(self, name: str) -> int | None:
        if name in _NEVER:
            return None
        if name in _SAMPLE_RANK:
            return _SAMPLE_RANK[name]
        return len(_SAMPLE_RANK) if name in self.literals else None

    def word(self, name: str) -> str:
        return _SAMPLES.get(name) or self.literals[name].strip("'")

    def kinds(self, text: str) -> frozenset[str]:
        """The terminals a written word can be kept as: any word fits a phase name or a core
        parameter, so those are never the reason to put words before it."""
        return frozenset(k for k in self.lalr.candidates(text) if self.rank(k) is not None and k not in _ANY_WORD)

    def keep_line(self, error: ParseError, prefix: str, rest: list[str]) -> list[str] | None:
        """Words put before the unexpected word so that the rest of its line still reads, and that
        line with the words that then end the clause: ``on capture gain 1 SP`` -> ``: gain 1 SP``."""
        if not rest:
            return None
        kinds = self.kinds(rest[0])
        for _, before in self.completions(error.states, kinds, depth=3, at_least=1, most=4):
            inserted = [*map(self.word, before), *rest]
            found = self.go_on(f"{prefix}{' '.join(inserted)}")
            if found is not None:
                return [*inserted, *found]
        return None

    def complete(self, error: ParseError, prefix: str) -> list[str] | None:
        """Words that end the clause after ``prefix`` (where ``error`` stopped the parser)."""
        for words in self._tries(error):
            if self._parses(f"{prefix} {' '.join(words)} }}"):
                return words
        return None

    def insert(self, states: tuple[int, ...], head: str, clause: str, first: str) -> tuple[list[str], list[str]] | None:
        """Words to put before ``clause`` (from parser ``states``, after ``head``) so that it goes on,
        and the words that then end it."""
        for _, before in self.completions(states, self.kinds(first), depth=2, at_least=1, most=4):
            found = self.go_on(f"{head}{' '.join(map(self.word, before))} {clause}")
            if found is not None:
                return [self.word(name) for name in before], found
        return None

    def go_on(self, prefix: str) -> list[str] | None:
        """Words that end the clause after ``prefix`` when the parser reads all of it (else None)."""
        from sgcheck.lang.cards.builder import CardStructureError
        from sgcheck.lang.cards.lalr import ParseError, ScanError

        try:
            self.lalr.parse(prefix, self.line, self.offset)
        except ParseError as stop:
            return self.complete(stop, prefix) if stop.token.type == END_OF_CARD else None
        except (ScanError, CardStructureError):
            return None
        return None

    def _tries(self, error: ParseError) -> Iterator[list[str]]:
        """The unexpected word kept after a few words that make it fit, then the word replaced."""
        lalr, token, close = self.lalr, error.token, frozenset({"RBRACE"})
        kinds = self.kinds(token.value) if token.value else frozenset()
        for stack, before in self.completions(error.states, kinds, depth=3, most=4):
            kind = next(k for k in lalr.candidates(token.value) if k in lalr.actions[stack[-1]])
            moved = lalr.shift(stack, kind)
            for _, rest in self.completions(moved, close, most=4) if moved is not None else ():
                yield [*map(self.word, before), token.value, *map(self.word, rest)]
        at_least = 0 if token.type == "$END" else 1
        for _, path in self.completions(error.states, close, at_least=at_least, most=12):
            yield [self.word(name) for name in path]
            if _OTHER_RESOURCE in path:  # ``convert 2 SP to 1 …``: the other resource last
                last = len(path) - 1 - path[::-1].index(_OTHER_RESOURCE)
                yield [_OTHER_SAMPLE if i == last else self.word(name) for i, name in enumerate(path)]

    def _parses(self, text: str) -> bool:
        from sgcheck.lang.cards.builder import CardStructureError
        from sgcheck.lang.cards.lalr import ParseError, ScanError

        try:
            self.lalr.parse(text, self.line, self.offset)
        except (ParseError, ScanError, CardStructureError):
            return False
        return True


def _rest_of_line(block: str, cut: int) -> list[str]:
    """The words from ``cut`` to the end of its line, without a comment or the card's closing brace."""
    end = block.find("\n", cut)
    words = block[cut : len(block) if end < 0 else end].split("#")[0].split()
    while words and words[-1] == "}":
        words.pop()
    return words


def _clause_start(values: tuple[Any, ...], offset: int) -> tuple[int, int | None]:
    """The index in ``values`` and the offset in the block of the clause being read: after the
    ``{`` and the clauses read whole (the ``clauses`` list comes right after the ``{``); an
    offset of None when no clause is begun."""
    from sgcheck.lang.cards.lalr import Tok

    brace = next(i for i, v in enumerate(values) if isinstance(v, Tok) and v.type == "LBRACE")
    first = brace + 2 if brace + 1 < len(values) and isinstance(values[brace + 1], list) else brace + 1
    return first, (_offset_of(values[first]) - offset if first < len(values) else None)


def _offset_of(value: Any) -> int:
    """Where a parser value starts: a token, a model node, or what the builder groups them in."""
    from sgcheck.lang.cards.lalr import Tok

    if isinstance(value, Tok):
        return value.start_pos
    if isinstance(value, (tuple, list)):
        return min(_offset_of(v) for v in value if isinstance(v, (Tok, tuple, list)) or hasattr(v, "span"))
    offset: int = value.span.offset
    return offset


def reference_parser() -> Lark:
    """A plain Lark LALR parser of one card (its own contextual lexer, building a tree), built once
    per thread: for Lark's error matching here, and Lark's interactive parser in completion
    (:mod:`sgcheck.lang.cards.completion`)."""
    from lark import Lark

    from sgcheck.resources import grammar_text

    machinery = _machinery()
    if machinery.reference is None:
        machinery.reference = Lark(
            grammar_text("sgcard.lark"), g_regex_flags=re.ASCII, parser="lalr", start="card", keep_all_tokens=True
        )
    return machinery.reference


def _match_example(machinery: _Machinery, block: str) -> str | None:
    """The label of the known mistake this card's error resembles: Lark's ``UnexpectedInput.match_examples``.

    Only on the error path, the failing card is parsed again by a plain Lark LALR parser
    (its own contextual lexer, building a tree) so that Lark can compare the parser state
    of the error with the states in which the examples fail.
    """
    from lark.exceptions import UnexpectedInput

    reference = reference_parser()
    try:
        reference.parse(block)
    except UnexpectedInput as error:
        try:
            label: str | None = error.match_examples(reference.parse, _EXAMPLES, token_type_match_fallback=True)
        except (AssertionError, UnexpectedInput):  # an error without parser state (a stray character)
            return None
        return label
    return None


def terminal_description(name: str) -> str:
    """What a terminal of the card grammar is, in words (``a phase (upkeep, main1, ...)``)."""
    return _TERMINAL_WORDS.get(name) or _machinery().literals.get(name) or name.lower()


def _describe_expected(machinery: _Machinery, names: frozenset[str]) -> str:
    words = sorted({_TERMINAL_WORDS.get(n) or machinery.literals.get(n) or n.lower() for n in names})
    if len(words) > 8:
        words = [*words[:8], "..."]
    return ", ".join(words) if words else "nothing more"


def _card_context(block: str) -> tuple[tuple[str, str], ...]:
    found = _HEADER.match(block)
    if found is None:
        return ()
    return (("card", f'{found.group(1)} "{found.group(2)}"'),)


def grammar_words() -> tuple[str, ...]:
    """Every word the card grammar spells out (its keywords, phases and effects), sorted: what an
    editor completes in a ``.sgcard`` file (sgcheck.server), read from the grammar itself."""
    words = {literal.strip("'") for literal in _machinery().literals.values()}
    return tuple(sorted(word for word in words if word[:1].isalpha()))
