"""ASCII letters: the only letters of sgcheck's languages, and the characters that imitate them.

Keywords, units, phase labels, piece words and codes are ASCII letters in any case. Python's
case-insensitive matching and its ``str.lower``/``str.upper`` follow Unicode, where ``'ſ'``
(U+017F) upper-cases to ``S``, ``'ı'`` (U+0131) to ``I``, the Kelvin sign (U+212A)
lower-cases to ``k`` and ``'İ'`` (U+0130) lower-cases to two characters. Text a user wrote is
therefore never folded with them before it is looked up: :func:`ascii_lower` and
:func:`ascii_upper` change ``A``-``Z``/``a``-``z`` only, and the readers compile their
case-insensitive patterns with ``re.ASCII``.

A character outside ASCII where the language expects a word is a syntax error that names it
(:func:`not_ascii`): its code point and Unicode name, and the ASCII letter or digit it imitates
where that is known (``'ſ' (U+017F LATIN SMALL LETTER LONG S) is not the letter s``). The
look-alikes are what NFKC folds to ASCII (the long s, fullwidth and mathematical letters,
superscript digits, the Kelvin sign, ligatures) and a short table of Cyrillic, Greek and Latin
letters that NFKC leaves alone (Cyrillic ``а е о р с``, Greek ``ο α ν``, the dotless ``ı``).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import NamedTuple

__all__ = [
    "Foreign",
    "ascii_lower",
    "ascii_upper",
    "describe",
    "first_foreign",
    "foreign_note",
    "lookalike",
    "not_ascii",
    "unfold",
]

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def ascii_lower(text: str) -> str:
    """``text`` with ``A``-``Z`` made lower case and every other character left as it is."""
    return text.translate(_LOWER)


def ascii_upper(text: str) -> str:
    """``text`` with ``a``-``z`` made upper case and every other character left as it is."""
    return text.translate(_UPPER)


#: Letters that look like an ASCII letter and that NFKC does not fold to it.
_HOMOGLYPHS: dict[str, str] = {
    # Latin
    "\u0131": "i",  # ı dotless i
    "\u0130": "I",  # İ capital I with dot above
    "\u0251": "a",  # ɑ alpha
    "\u0261": "g",  # ɡ script g
    "\u01c0": "l",  # ǀ dental click
    "\u0138": "k",  # ĸ kra
    "\u0269": "i",  # ɩ iota
    "\u026a": "I",  # ɪ small capital I
    "\u0274": "N",  # ɴ small capital N
    "\u0280": "R",  # ʀ small capital R
    "\u028f": "Y",  # ʏ small capital Y
    "\u1d00": "A",  # ᴀ small capital A
    "\u1d04": "C",  # ᴄ small capital C
    "\u1d07": "E",  # ᴇ small capital E
    "\u1d0b": "K",  # ᴋ small capital K
    "\u1d0d": "M",  # ᴍ small capital M
    "\u1d0f": "O",  # ᴏ small capital O
    "\u1d18": "P",  # ᴘ small capital P
    "\u1d1b": "T",  # ᴛ small capital T
    "\u1d1c": "U",  # ᴜ small capital U
    "\u1d20": "V",  # ᴠ small capital V
    "\u1d21": "W",  # ᴡ small capital W
    "\u1d22": "Z",  # ᴢ small capital Z
    # Cyrillic
    "\u0430": "a", "\u0410": "A",  # а А
    "\u0432": "B", "\u0412": "B",  # в В
    "\u0435": "e", "\u0415": "E",  # е Е
    "\u0451": "e", "\u0401": "E",  # ё Ё
    "\u043a": "k", "\u041a": "K",  # к К
    "\u043c": "M", "\u041c": "M",  # м М
    "\u043d": "H", "\u041d": "H",  # н Н
    "\u043e": "o", "\u041e": "O",  # о О
    "\u0440": "p", "\u0420": "P",  # р Р
    "\u0441": "c", "\u0421": "C",  # с С
    "\u0442": "T", "\u0422": "T",  # т Т
    "\u0443": "y", "\u0423": "Y",  # у У
    "\u0445": "x", "\u0425": "X",  # х Х
    "\u044c": "b",  # ь
    "\u0455": "s", "\u0405": "S",  # ѕ Ѕ
    "\u0456": "i", "\u0406": "I",  # і І
    "\u0457": "i", "\u0407": "I",  # ї Ї
    "\u0458": "j", "\u0408": "J",  # ј Ј
    "\u04bb": "h", "\u04ba": "H",  # һ Һ
    "\u04cf": "l", "\u04c0": "I",  # ӏ Ӏ
    "\u0501": "d",  # ԁ
    "\u051b": "q", "\u051a": "Q",  # ԛ Ԛ
    "\u051d": "w", "\u051c": "W",  # ԝ Ԝ
    # Greek
    "\u03b1": "a", "\u0391": "A",  # α Α
    "\u0392": "B",  # Β
    "\u03b5": "e", "\u0395": "E",  # ε Ε
    "\u0396": "Z",  # Ζ
    "\u0397": "H",  # Η
    "\u03b9": "i", "\u0399": "I",  # ι Ι
    "\u03ba": "k", "\u039a": "K",  # κ Κ
    "\u039c": "M",  # Μ
    "\u03bd": "v", "\u039d": "N",  # ν Ν
    "\u03bf": "o", "\u039f": "O",  # ο Ο
    "\u03c1": "p", "\u03a1": "P",  # ρ Ρ
    "\u03c4": "t", "\u03a4": "T",  # τ Τ
    "\u03c5": "u", "\u03a5": "Y",  # υ Υ
    "\u03c7": "x", "\u03a7": "X",  # χ Χ
    "\u03b3": "y",  # γ
    # Armenian and Cherokee letters that pass for Latin ones
    "\u0578": "n", "\u057d": "u", "\u0585": "o",  # ո ս օ
    "\u13a0": "D", "\u13a1": "R", "\u13a2": "T", "\u13a9": "Y", "\u13aa": "A", "\u13ab": "J", "\u13ac": "E",
    "\u13b3": "W", "\u13b7": "M", "\u13bb": "H", "\u13bd": "Y", "\u13c0": "G", "\u13c2": "h", "\u13c3": "Z",
    "\u13cf": "b", "\u13d2": "R", "\u13d4": "W", "\u13d5": "S", "\u13da": "V", "\u13de": "L", "\u13df": "C",
    "\u13e2": "P", "\u13e6": "K",
}  # fmt: skip


@cache
def lookalike(char: str) -> str | None:
    """The ASCII letters or digits ``char`` passes for (``'ſ'`` -> ``'s'``, ``'²'`` -> ``'2'``,
    ``'ﬁ'`` -> ``'fi'``), or None: ``char`` itself if it is ASCII, else what NFKC folds it to
    when that is ASCII letters or digits, else the table of look-alike letters."""
    if char.isascii():
        return char
    known = _HOMOGLYPHS.get(char)
    if known is not None:
        return known
    folded = unicodedata.normalize("NFKC", char)
    if folded.isascii() and folded.isalnum():
        return folded
    return None


def describe(char: str) -> str:
    """``char`` as a message shows it: quoted if it prints as itself, its code point and its
    Unicode name (``'ſ' (U+017F LATIN SMALL LETTER LONG S)``; ``U+200B ZERO WIDTH SPACE``)."""
    point = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "")
    about = f"{point} {name}" if name else point
    visible = char.isprintable() and not unicodedata.combining(char) and unicodedata.category(char) != "Zs"
    return f"{char!r} ({about})" if visible and char != "'" else about


class Foreign(NamedTuple):
    """A character outside ASCII found where a word of the language was expected."""

    offset: int  # where it is, in the text it was found in
    char: str
    imitates: str | None  # the ASCII letters or digits it passes for, if known

    @property
    def message(self) -> str:
        """What it is: ``'ſ' (U+017F LATIN SMALL LETTER LONG S) is not the letter s``."""
        return not_ascii(self.char)

    @property
    def label(self) -> str:
        """The caret label: ``not the letter s``."""
        return _is_not(self.char)


def _is_not(char: str) -> str:
    imitates = lookalike(char)
    if imitates is not None:
        kind = "digit" if imitates.isdigit() else "letter"
        plural = "s" if len(imitates) > 1 else ""
        return f"not the {kind}{plural} {imitates}"
    if char.isalpha():
        return "not an ASCII letter"
    if unicodedata.category(char) == "Nd":
        return "not an ASCII digit"
    return "not an ASCII character"


def not_ascii(char: str) -> str:
    """Why ``char`` (not ASCII) cannot be part of a keyword, naming it and what it imitates:
    ``'ſ' (U+017F LATIN SMALL LETTER LONG S) is not the letter s``."""
    return f"{describe(char)} is {_is_not(char)}"


def first_foreign(text: str, start: int = 0, end: int | None = None) -> Foreign | None:
    """The first character of ``text[start:end]`` outside ASCII, or None if there is none."""
    stop = len(text) if end is None else min(end, len(text))
    if text[start:stop].isascii():
        return None
    for index in range(start, stop):
        char = text[index]
        if not char.isascii():
            return Foreign(index, char, lookalike(char))
    return None  # pragma: no cover - isascii() said there is one


def unfold(word: str) -> str | None:
    """``word`` with every look-alike replaced by the ASCII it imitates; None if a character of it
    imitates nothing (so no spelling can be suggested)."""
    out: list[str] = []
    for char in word:
        imitates = lookalike(char)
        if imitates is None:
            return None
        out.append(imitates)
    return "".join(out)


def foreign_note(text: object) -> str:
    """``; 'ſ' (U+017F LATIN SMALL LETTER LONG S) is not the letter s`` for the first character of
    ``text`` outside ASCII, to end a message about a word that was not understood; "" if there is none
    (or ``text`` is no string)."""
    if not isinstance(text, str):
        return ""
    found = first_foreign(text, 0, 1000)
    return f"; {found.message}" if found is not None else ""
