"""The explanations of a replay's frames as the HTML page carries them: compactly, with what
repeats written once.

Replay explains each statement and end of turn as a dict (:mod:`sgcheck.replay.explain`, frame
field 11 of :mod:`sgcheck.replay.timeline`); JSON ``--timeline`` and ``replay --explain`` show
that dict unchanged. Written as it is into the page, it would cost about 560 bytes a frame, most
of it the same labels, rules and sentences over and over, and totals the frame already holds.
So in the page (and only there) :func:`encode_explanations` replaces field 11 of each frame by a
short array, and puts what the arrays point at in four tables, once per log::

    "explained": {"strings": [...],            # every text, once: statements, facts' texts, parts' labels
                  "kinds": [[key, label], ...], # a fact's key and the label the panel shows for it
                  "rules": [[rule, ...], ...],  # each list of rules a fact cites
                  "facts": [fact, ...]}         # each distinct fact, once

A fact is ``[kind, text, rules]`` or ``[kind, text, rules, parts]``: ``kind`` an index into
``kinds``, ``text`` into ``strings`` (the fact's ``text``, or its ``value`` as the panel would
show it when it has no text: a string as it is, anything else as JSON), ``rules`` into
``rules``, and ``parts`` the parts flattened, ``[label, value, label, value, ...]``, each label an
index into ``strings`` and each value the text the panel shows for it.

Field 11 becomes ``null`` (no explanation, as before), or ``[statement, facts]``:
``statement`` an index into ``strings`` or, negative, ``-n``: the last ``n`` characters of the
log's line the frame is at (field 0), for an ASCII statement that line ends with (how the log
most often writes it; ASCII, so that ``n`` counts alike in the page's script); ``facts`` indices
into ``facts``. A third element says whether the statement is legal (``0``: illegal; written
only when it is, or when a fourth follows), and a fourth, an object, holds anything that differs
from what the page's script derives from the frame itself. It derives the ``line`` from field 0;
the ``turn`` and ``side`` from fields 2 and 3 (at an end of turn, kind 3, from the previous
frame's, as they were before the turn ended), the ``phase`` from field 4 (``end`` at an end of
turn), and the totals ``after`` from field 7. Replay's explanations always agree with their
frames, so the object is absent from a replay's page; an explanation written otherwise keeps its
own values there (and ``after`` null when it has none). Neither ``kind`` (the frame's kind says
it) nor a fact's ``value`` when it has a text (the text says it) is written: the panel shows
neither.

Every string still goes through the page's data as before, so it is made visible and escaped
with the rest (:func:`sgcheck.report.html.json_for_script` with ``shown``); the tables are in
first-use order, so the page stays a pure function of the replay.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeGuard, cast

__all__ = ["PHASE_KEYS", "encode_explanations"]

#: The explanations' phase names by frame field 4 (:data:`sgcheck.replay.explain.PHASE_KEYS`).
PHASE_KEYS = ("upkeep", "main1", "battle", "main2", "end")
_SIDES = ("white", "black")
_TOTALS = (("white", ("lp", "sp", "king_damage")), ("black", ("lp", "sp", "king_damage")))


def _shown(value: object) -> str:
    """A value as the panel shows it: a string as it is, anything else as JSON."""
    kind = type(value)
    if kind is str:
        return value  # type: ignore[return-value]
    if kind is int:
        return str(value)
    if isinstance(value, str):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Table:
    """Distinct values in first-use order, each with its index."""

    __slots__ = ("index", "values")

    def __init__(self) -> None:
        self.index: dict[object, int] = {}
        self.values: list[object] = []

    def add(self, key: object, value: object = None) -> int:
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.values)
            self.values.append(key if value is None else value)
        return found


def _mapping(value: object) -> TypeGuard[Mapping[str, object]]:
    return type(value) is dict or isinstance(value, Mapping)


def _after(totals: object) -> list[object] | None:
    """An explanation's ``after`` as frame field 7 writes totals (None: not in that shape)."""
    if type(totals) is dict:
        try:
            white, black = totals["white"], totals["black"]
            return [white["lp"], white["sp"], white["king_damage"], black["lp"], black["sp"], black["king_damage"]]
        except (KeyError, TypeError):
            pass
    if not _mapping(totals):
        return None
    flat: list[object] = []
    for side, names in _TOTALS:
        values = totals.get(side)
        if not _mapping(values):
            return None
        flat += [values.get(name) for name in names]
    return flat


def _raw_key(fact: Mapping[str, object]) -> object:
    """What the encoder reads of a fact in the usual shape (its key, label and text strings, its
    rules strings, its parts' labels strings), as a hashable key, so that a fact met again is
    not encoded again; a part's value goes with its type (``1``, ``1.0`` and ``True`` are shown
    differently though equal). None for a fact in another shape: it is encoded each time."""
    get = fact.get
    key, label, text, cited, parts = get("key"), get("label"), get("text"), get("rules"), get("parts")
    if type(key) is not str or type(label) is not str or type(text) is not str or type(cited) is not list:
        return None
    rules = tuple(cited)
    if not all(type(rule) is str for rule in rules):
        return None
    if not parts:
        return key, label, text, rules
    try:
        shares = tuple((part["label"], type(part["label"]), part["value"], type(part["value"])) for part in parts)  # type: ignore[attr-defined]
        return key, label, text, rules, shares, hash(shares)
    except (KeyError, TypeError):  # a part that is no dict, a value that is no key (a list)
        return None


def encode_explanations(
    frames: Sequence[Sequence[object]], lines: Sequence[str] = ()
) -> tuple[list[list[object]], dict[str, object]]:
    """``frames`` with field 11 encoded for the page, and the tables it points into (see the
    module's docstring); ``lines`` the log's lines as the page holds them, which a statement
    may point into. A frame without an explanation (``null``, or no field 11) is kept as it
    is; the frames themselves are not changed."""
    return _encode(frames, lines)


def _encode(frames: Sequence[Sequence[object]], lines: Sequence[str]) -> tuple[list[list[object]], dict[str, object]]:
    strings, kinds, rules, facts = _Table(), _Table(), _Table(), _Table()
    seen: dict[object, int] = {}  # a fact's raw key: its index in ``facts``

    def encode_fact(fact: Mapping[str, object]) -> int:
        key, label = _shown(fact.get("key", "")), _shown(fact.get("label", ""))
        text = fact.get("text")
        shown_text = _shown(text if text is not None else fact.get("value"))
        cited = tuple(_shown(rule) for rule in cast(Iterable[object], fact.get("rules") or ()))
        parts: list[object] = []
        for part in cast(Iterable[object], fact.get("parts") or ()):
            if _mapping(part):
                parts += (strings.add(_shown(part.get("label", ""))), _shown(part.get("value")))
        encoded: list[object] = [
            kinds.add((key, label), [key, label]),
            strings.add(shown_text),
            rules.add(cited, list(cited)),
        ]
        if parts:
            encoded.append(parts)
        return facts.add((*encoded[:3], *parts), encoded)

    out: list[list[object]] = []
    previous: Sequence[object] = ()
    for frame in frames:
        told, previous = previous, frame
        explained = frame[11] if len(frame) > 11 else None
        if not _mapping(explained):
            out.append(frame)  # type: ignore[arg-type]
            continue
        listed: list[int] = []
        for fact in cast(Iterable[object], explained.get("facts") or ()):
            if not _mapping(fact):
                continue
            raw = _raw_key(fact)
            found = None if raw is None else seen.get(raw)
            if found is None:
                found = encode_fact(fact)
                if raw is not None:
                    seen[raw] = found
            listed.append(found)
        statement = _shown(explained.get("statement", ""))
        line = frame[0] if type(frame[0]) is int else 0
        assert isinstance(line, int)
        # ASCII: as many characters in the page's script (UTF-16) as here
        ends = 0 < line <= len(lines) and statement.isascii() and lines[line - 1].endswith(statement)
        said = -len(statement) if statement and ends else None
        entry: list[object] = [strings.add(statement) if said is None else said, listed]
        # what the page's script derives from the frame (see the module's docstring)
        turn_end = frame[1] == 3
        if not (turn_end and told):
            told = frame
        side, phase = told[3], frame[4]
        derived = (
            frame[0],
            told[2],
            _SIDES[side] if type(side) is int and 0 <= side < 2 else None,
            "end" if turn_end else PHASE_KEYS[phase] if type(phase) is int and 0 <= phase < 5 else None,
        )
        differs: dict[str, object] = {}
        for name, value in zip(("line", "turn", "side", "phase"), derived, strict=True):
            if explained.get(name) != value:
                differs[name] = explained.get(name)
        after = explained.get("after")
        if _after(after) != frame[7]:
            differs["after"] = after if _mapping(after) else None
        legal = explained.get("legal") is not False
        if not legal or differs:
            entry.append(int(legal))
        if differs:
            entry.append(differs)
        out.append([*frame[:11], entry])
    tables: dict[str, object] = {
        "strings": strings.values,
        "kinds": kinds.values,
        "rules": rules.values,
        "facts": facts.values,
    }
    return out, tables
