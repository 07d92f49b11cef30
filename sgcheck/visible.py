"""Text from an input made safe to show: the one place that says which characters a report never
writes raw, and what it writes instead.

A game log, a card file or a file name can hold characters that a terminal, a CI log or a browser
obeys rather than shows: escape sequences that recolour or clear the screen, a bell, C1 controls,
bidirectional overrides and isolates that reorder the text around them ("trojan source"), and line
or paragraph separators that break a line where none is. Every renderer that writes for people
(text, ``github``, ``html``, ``junit``) passes what it quotes through :func:`visible`, and the
HTML page its data through :func:`visible_json_text`; the JSON formats (``json``, ``sarif``)
keep the text as it is and write these characters as ``\\u`` escapes
(:func:`escape_json_text`), so the data stays faithful and the document holds no raw control
character either.

What :func:`visible` writes instead, always as printable characters:

* a C0 control (U+0000-U+001F) and DEL: its control picture, U+2400-U+241F and U+2421
  (ESC is ``␛``, a tab ``␉``), one character for one, so columns stay where they were;
* a C1 control (U+0080-U+009F, NEL U+0085 included), a bidirectional mark, embedding, override or
  isolate (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and paragraph
  separators U+2028 and U+2029: the marker ``<U+XXXX>`` naming it;
* a lone surrogate (a file name that is not valid UTF-8): U+FFFD.

Each function does one pass over the text (a character class, a translation table), so it costs
time in proportion to the text whatever the text holds.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["DANGEROUS", "escape_json_text", "visible", "visible_json_text"]

#: Every character a report never writes raw, as a regular-expression character class.
DANGEROUS = "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"


def _stand_in(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # U+2400.. "control pictures"
    if code == 0x7F:
        return "\u2421"
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return f"<U+{code:04X}>"


_RANGES = ((0x00, 0x1F), (0x7F, 0x9F), (0x61C, 0x61C), (0x200E, 0x200F), (0x2028, 0x202E), (0x2066, 0x2069))
_CODES = [code for low, high in (*_RANGES, (0xD800, 0xDFFF)) for code in range(low, high + 1)]
_TABLE: dict[int, str] = {code: _stand_in(code) for code in _CODES}
_JSON_TABLE: dict[int, str] = {code: f"\\u{code:04x}" for code in _CODES if code >= 0x20}
_JSON_FOUND = re.compile(DANGEROUS.replace("\x00-\x1f", "", 1))
#: The stand-ins of what a JSON document holds raw: everything but C0 controls, which it escapes.
_VISIBLE_RAW: dict[int, str] = {code: shown for code, shown in _TABLE.items() if code >= 0x20}


@cache
def _pattern(keep: str) -> tuple[re.Pattern[str], dict[int, str]]:
    table = {code: shown for code, shown in _TABLE.items() if chr(code) not in keep}
    kept = "".join(f"\\x{ord(char):02x}" for char in keep)
    return re.compile(f"(?![{kept}]){DANGEROUS}" if kept else DANGEROUS), table


def visible(text: str, keep: str = "\n") -> str:
    """``text`` with every dangerous character replaced by a printable stand-in (module docstring).

    ``keep`` names the C0 controls left as they are where the sink shows them as they mean:
    newline by default; ``""`` for a value that must stay on one line; ``"\\t\\n"`` for text a
    browser lays out."""
    pattern, table = _pattern(keep)
    if pattern.search(text) is None:
        return text
    return text.translate(table)


def escape_json_text(document: str) -> str:
    """A JSON document (as :func:`json.dumps` writes it with ``ensure_ascii=False``) with the
    dangerous characters it leaves raw (DEL, C1 controls, the bidirectional marks, overrides and
    isolates, U+2028, U+2029, lone surrogates) written as ``\\u`` escapes: the same data, parsed
    back, and no raw control character in the bytes. The encoder escapes C0 controls itself.

    Outside its strings a JSON document is ASCII, so every such character is inside a string and
    the escape means the character itself."""
    if _JSON_FOUND.search(document) is None:
        return document
    return document.translate(_JSON_TABLE)


#: In a JSON document: an escaped backslash (skipped whole, so the text after it is never taken
#: for an escape) or the escape of a C0 control.
_JSON_ESCAPE = re.compile(r"\\\\|\\u00[01][0-9a-fA-F]|\\[bfnrt]")
_SHORT_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def visible_json_text(document: str, keep: str = "\t\n") -> str:
    """A JSON document (as :func:`json.dumps` writes it with ``ensure_ascii=False``) with every
    string in it made visible (:func:`visible` with ``keep``), without parsing it again: the
    escapes of C0 controls become their control pictures, the other dangerous characters, raw in
    the text, their stand-ins. For a document too large to walk string by string (the HTML
    page's data holds every position of a game)."""

    def escape(found: re.Match[str]) -> str:
        token = found.group()
        char = chr(int(token[2:], 16)) if token[1] == "u" else _SHORT_ESCAPES.get(token[1], "")
        return token if not char or char in keep else _TABLE[ord(char)]

    if "\\" in document:
        document = _JSON_ESCAPE.sub(escape, document)
    if _JSON_FOUND.search(document) is None:
        return document
    return document.translate(_VISIBLE_RAW)
