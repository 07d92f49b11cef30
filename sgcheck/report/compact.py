"""The explanations of a replay's frames as the HTML page carries them: compactly, with what
repeats written once.

Replay explains each statement and end of turn as a typed record
(:class:`~sgcheck.results.Explanation`, :mod:`sgcheck.replay.explain`, frame field 11 of
:mod:`sgcheck.replay.timeline`); JSON ``--timeline`` writes its JSON form unchanged and ``replay
--explain`` spells it. Its JSON form written into the page would cost about 560 bytes a frame,
most of it the same labels, rules and sentences over and over, and totals the frame already
holds. So in the page (and only there) :func:`encode_explanations` writes each frame's JSON form
(:meth:`~sgcheck.results.Frame.as_json`) with field 11 replaced by a short array, and puts what
the arrays point at in four tables, once per log::

    "explained": {"strings": [...],            # every text, once: statements, facts' texts, parts' labels
                  "kinds": [[key, label], ...], # a fact's key and the label the panel shows for it
                  "rules": [[rule, ...], ...],  # each list of rules a fact cites
                  "facts": [fact, ...]}         # each distinct fact, once

A fact is ``[kind, text, rules]`` or ``[kind, text, rules, parts]``: ``kind`` an index into
``kinds``, ``text`` into ``strings`` (the fact's ``text``), ``rules`` into ``rules``, and
``parts`` the parts flattened, ``[label, value, label, value, ...]``, each label an index into
``strings`` and each value the text the panel shows for it (a string as it is, a number as
JSON, a flag ``true`` or ``false``).

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
own values there. Neither ``kind`` (the frame's kind says it) nor a fact's ``value`` (its text
says it) is written: the panel shows neither.

Every string still goes through the page's data as before, so it is made visible and escaped
with the rest (:func:`sgcheck.report.html.json_for_script` with ``shown``); the tables are in
first-use order, so the page stays a pure function of the replay.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sgcheck.results import ExplainedFact, Frame, Totals

__all__ = ["PHASE_KEYS", "encode_explanations"]

#: The explanations' phase names by frame field 4 (:data:`sgcheck.replay.explain.PHASE_KEYS`).
PHASE_KEYS = ("upkeep", "main1", "battle", "main2", "end")
_SIDES = ("white", "black")


def _shown(value: bool | int | str) -> str:
    """A part's value as the panel shows it: a string as it is, anything else as JSON."""
    if isinstance(value, str):
        return value
    if type(value) is int:
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


def _flat(totals: Totals) -> list[int]:
    """An explanation's ``after`` as frame field 7 writes totals."""
    white, black = totals.white, totals.black
    return [white.lp, white.sp, white.king_damage, black.lp, black.sp, black.king_damage]


def _fact_key(fact: ExplainedFact) -> object:
    """What the encoder reads of a fact (its key, label, text and rules, its parts' labels and
    values), as a hashable key, so that a fact met again is not encoded again; a part's value
    goes with its type (``1`` and ``True`` are shown differently though equal)."""
    if not fact.parts:
        return fact.key, fact.label, fact.text, fact.rules
    return fact.key, fact.label, fact.text, fact.rules, tuple((p.label, p.value, type(p.value)) for p in fact.parts)


def encode_explanations(
    frames: Sequence[Frame], lines: Sequence[str] = ()
) -> tuple[list[list[object]], dict[str, object]]:
    """The JSON form of ``frames`` with field 11 encoded for the page, and the tables it points
    into (see the module's docstring); ``lines`` the log's lines as the page holds them, which a
    statement may point into. A frame without an explanation keeps ``null`` there."""
    strings, kinds, rules, facts = _Table(), _Table(), _Table(), _Table()
    seen: dict[object, int] = {}  # a fact's key: its index in ``facts``

    def encode_fact(fact: ExplainedFact) -> int:
        parts: list[object] = []
        for part in fact.parts:
            parts += (strings.add(part.label), _shown(part.value))
        encoded: list[object] = [
            kinds.add((fact.key, fact.label), [fact.key, fact.label]),
            strings.add(fact.text),
            rules.add(fact.rules, list(fact.rules)),
        ]
        if parts:
            encoded.append(parts)
        return facts.add((*encoded[:3], *parts), encoded)

    out: list[list[object]] = []
    previous: Frame | None = None
    for frame in frames:
        told, previous = previous, frame
        explained = frame.explained
        position = frame.position_json()
        if explained is None:
            out.append([*position, None])
            continue
        listed: list[int] = []
        for fact in explained.facts:
            key = _fact_key(fact)
            found = seen.get(key)
            if found is None:
                found = seen[key] = encode_fact(fact)
            listed.append(found)
        statement = explained.statement
        line = frame.line
        # ASCII: as many characters in the page's script (UTF-16) as here
        ends = 0 < line <= len(lines) and statement.isascii() and lines[line - 1].endswith(statement)
        said = -len(statement) if statement and ends else None
        entry: list[object] = [strings.add(statement) if said is None else said, listed]
        # what the page's script derives from the frame (see the module's docstring)
        turn_end = frame.kind == 3
        if not (turn_end and told is not None):
            told = frame
        side, phase = told.side, frame.phase
        derived = (
            frame.line,
            told.turn,
            _SIDES[side] if 0 <= side < 2 else None,
            "end" if turn_end else PHASE_KEYS[phase] if 0 <= phase < 5 else None,
        )
        written = (explained.line, explained.turn, explained.side, explained.phase)
        differs: dict[str, object] = {}
        for name, value, own in zip(("line", "turn", "side", "phase"), derived, written, strict=True):
            if own != value:
                differs[name] = own
        if _flat(explained.after) != list(frame.totals):
            differs["after"] = explained.after.as_json()
        if not explained.legal or differs:
            entry.append(int(explained.legal))
        if differs:
            entry.append(differs)
        out.append([*position, entry])
    tables: dict[str, object] = {
        "strings": strings.values,
        "kinds": kinds.values,
        "rules": rules.values,
        "facts": facts.values,
    }
    return out, tables
