"""The words of the card language that can follow a given text: what an editor completes.

The card written so far (from the line starting with ``relic`` or ``spell`` before the cursor) is
fed to Lark's interactive parser for ``grammar/sgcard.lark``, and the terminals its state
accepts (``InteractiveParser.accepts()``) are spelled out: a literal as itself, a terminal
written as a set of words (a phase, a piece class, SP or LP...) as each of its words. So after
``effect`` come only the triggers and actions the grammar allows there, after ``cost`` a number
or ``free``, and on the line after a closed card another card's ``relic`` or ``spell``. Nothing is offered
inside a comment or a quoted name, nor after a word the grammar refuses (the diagnostics say
what is wrong there). Numbers, names and a phase of one's own are the writer's to choose: they
are described, not spelled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

__all__ = ["Completion", "words_after"]

#: The line a card starts with (as the parser cuts a file into cards).
_CARD_START = re.compile(r"^[ \t\ufeff]*(?:relic|spell)\b", re.MULTILINE)
#: A quoted name or a comment, to tell whether the end of the text is inside one.
_QUOTED_OR_COMMENT = re.compile(r'"(?:[^"\\\n\r]|\\.)*"?|#[^\n]*')
#: Words of a terminal written as alternatives (``"upkeep" | "main1"``, ``(moves?|attacks?)``).
_SPELLED = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\??")
#: Terminals that match nearly any word: their words are the writer's.
_ANY_WORD = frozenset({"WORD", "PARAMETER"})


@dataclass(frozen=True, slots=True)
class Completion:
    """A word that can follow, and what it is (the terminal's description, for the editor)."""

    word: str
    terminal: str
    detail: str


def words_after(text: str) -> tuple[Completion, ...]:
    """The words that can be written at the end of ``text`` (a card file up to the cursor),
    replacing the word being typed there, in the grammar's order."""
    end = _typed_start(text)
    if _inside_name_or_comment(text, end):
        return ()
    starts = [m.start() for m in _CARD_START.finditer(text, 0, end)]
    block = text[starts[-1] if starts else 0 : end]
    accepted = _accepted(block)
    if accepted is None:
        return ()
    found: dict[str, Completion] = {}
    spelled = _spelled()
    for terminal in sorted(accepted):
        if terminal == "$END":
            if text[text.rfind("\n", 0, end) + 1 : end].strip() == "":  # a card starts a line
                for word in ("relic", "spell"):  # the card is whole: the next one
                    found.setdefault(word, Completion(word, "CARD_KIND", "another card"))
            continue
        detail = _detail(terminal)
        for word in spelled.get(terminal, ()):
            found.setdefault(word, Completion(word, terminal, detail))
    return tuple(found.values())


def _typed_start(text: str) -> int:
    """Where the word being typed at the end of ``text`` starts (completion replaces it), read
    backwards: a letter or ``_``, then letters, digits, ``_``, ``.`` and ``-``."""
    start = len(text)
    while start > 0 and text[start - 1].isascii() and (text[start - 1].isalnum() or text[start - 1] in "_.-"):
        start -= 1
    while start < len(text) and not (text[start].isalpha() or text[start] == "_"):
        start += 1  # a word starts with a letter: digits before it are not the word
    return start


def _inside_name_or_comment(text: str, end: int) -> bool:
    line_start = text.rfind("\n", 0, end) + 1
    for match in _QUOTED_OR_COMMENT.finditer(text, line_start, end):
        if match.end() >= end and (match.group().startswith("#") or not match.group().endswith('"')):
            return True
        if match.end() > end:
            return True
    return False


def _accepted(block: str) -> frozenset[str] | None:
    """The terminals Lark's interactive parser accepts after ``block``; None when the block does
    not read up to its end."""
    from lark.exceptions import LarkError

    from sgcheck.lang.cards.parser import reference_parser

    parser = reference_parser().parse_interactive(block)
    try:
        parser.exhaust_lexer()
        return frozenset(parser.accepts())  # type: ignore[no-untyped-call]
    except (LarkError, RecursionError):
        return None


@cache
def _spelled() -> dict[str, tuple[str, ...]]:
    """Each terminal's words: a literal's text; for a terminal written as alternatives, each of
    them (``kings?`` gives ``kings`` and ``king``); a piece class and SP or LP as the card
    language's documents write them (``King``, ``SP``)."""
    from sgcheck.core.parameters import PARAMETERS
    from sgcheck.lang.cards.parser import reference_parser
    from sgcheck.lang.cards.vocab import PIECE_CLASS_WORDS
    from sgcheck.lang.lark_adapter import terminals

    found: dict[str, tuple[str, ...]] = {}
    for terminal in terminals(reference_parser()):
        if terminal.literal is not None:
            found[terminal.name] = (terminal.literal,)
            continue
        if terminal.name in _ANY_WORD:
            if terminal.name == "PARAMETER":
                found[terminal.name] = tuple(PARAMETERS)
            continue
        pattern = re.compile(terminal.regexp, re.ASCII)
        words: list[str] = []
        for spelled in _SPELLED.findall(terminal.regexp.replace("\\-", "-")):
            for word in (spelled.rstrip("?"), spelled[:-2] if spelled.endswith("?") else ""):
                if word and word not in words and pattern.fullmatch(word):
                    words.append(word)
        if terminal.name == "PIECE_CLASS":
            words = [word for word in PIECE_CLASS_WORDS if pattern.fullmatch(word)]
        elif terminal.name == "RESOURCE":
            words = [word.upper() for word in words]  # written SP and LP (docs/cards.md)
        found[terminal.name] = tuple(words)
    return found


def _detail(terminal: str) -> str:
    from sgcheck.lang.cards.parser import terminal_description

    return terminal_description(terminal)
