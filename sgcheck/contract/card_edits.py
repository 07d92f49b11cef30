"""Edits of card text: the fixes the rules build, and applying them to one file's text.

A :class:`~sgcheck.diagnostics.Fix` can be applied when it carries the text to put
(``replacement``) and where (``span``, with the offsets of the decoded, LF-only text). The rules
build them with the helpers here, in ``.sgcard`` words (:mod:`sgcheck.lang.cards.writer`); a card
read from YAML gets the description only. Each fix says whether it is ``safe`` (docs/fmt.md).

:func:`apply_edits` applies the fixes of one file in one pass; :mod:`sgcheck.contract.fix_files`
runs ``sgcheck check --fix``'s rounds of fixing and checking again over the files.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import assert_never

from sgcheck.core.cards import model as A
from sgcheck.diagnostics import Diagnostic, Fix
from sgcheck.project.kinds import is_yaml

__all__ = [
    "Edit",
    "apply_edits",
    "bounded_fix",
    "edits_of",
    "lowered_bonus",
    "removal_fix",
]


def _writable(effect: A.Effect) -> bool:
    return not is_yaml(effect.span.source) and effect.span.end_offset > effect.span.offset


def _effect_fix(description: str, effect: A.Effect, new: A.Effect, *, safe: bool) -> Fix:
    from sgcheck.lang.cards.writer import CardWriteError, effect_text

    if not _writable(effect):
        return Fix(description, safe=safe)
    try:
        text = effect_text(new)
    except CardWriteError:
        return Fix(description, safe=safe)
    return Fix(description, text, effect.span, safe=safe)


def lowered_bonus(effect: A.Effect, value: int, cap: int, description: str) -> Fix | None:
    """A safe fix lowering a single to-hit or damage bonus of ``value`` to ``cap``; None when the
    effect is not one plain modifier of that value."""
    action = effect.action
    match action:
        case A.ToHitModifier():
            plain = True
        case A.DamageModifier():
            plain = action.scale == 0  # ``double`` / ``halve`` scale the damage instead
        case (
            A.CostModifier()
            | A.DamageReduction()
            | A.Reroll()
            | A.ResourceChange()
            | A.Steal()
            | A.ExtraAction()
            | A.ExtraPhase()
            | A.ExtraTurn()
            | A.ConvertResource()
            | A.SkipPhase()
            | A.SwapPhases()
            | A.SetParameter()
            | A.DenyRepair()
            | A.DealDamage()
            | A.CapturePiece()
            | A.ConvertPiece()
        ):
            return None  # no bonus to lower
        case _:
            assert_never(action)
    if not plain or not 0 < cap < value or action.delta != value:
        return None
    new = replace(effect, action=replace(action, delta=cap))
    return _effect_fix(description, effect, new, safe=True)


def bounded_fix(effect: A.Effect, description: str) -> Fix:
    """An unsafe fix adding ``limit once per turn`` to an effect without a use limit."""
    if effect.limit is not None:
        return Fix(description)
    new = replace(effect, limit=A.Limit(1, A.Period.TURN, effect.span))
    return _effect_fix(description, effect, new, safe=False)


def removal_fix(effect: A.Effect, description: str) -> Fix:
    """An unsafe fix taking the whole effect clause away (the card then does less than it says)."""
    if not _writable(effect):
        return Fix(description)
    return Fix(description, "", effect.span, safe=False)


# --- applying ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``text[start:end]`` by ``replacement``: one fix of one finding."""

    start: int
    end: int
    replacement: str
    code: str
    safe: bool


def edits_of(diagnostics: Iterable[Diagnostic], source: str) -> list[Edit]:
    """The applicable fixes of findings in ``source`` (a fix that says what and where)."""
    found = []
    for diagnostic in diagnostics:
        fix = diagnostic.fix
        if fix is None or fix.replacement is None or fix.span is None or fix.span.source != source:
            continue
        if fix.span.end_offset < fix.span.offset:
            continue
        found.append(Edit(fix.span.offset, fix.span.end_offset, fix.replacement, diagnostic.code, fix.safe))
    return found


def _whole_line(text: str, start: int, end: int) -> tuple[int, int]:
    """A deletion that leaves only blanks on its line takes the line (and its line break) with it."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if text[line_start:start].strip() or text[end:line_end].strip():
        return start, end
    return line_start, min(line_end + 1, len(text))


def apply_edits(text: str, edits: Sequence[Edit]) -> tuple[str, list[Edit]]:
    """``text`` with ``edits`` applied in one pass, and the edits applied: of edits that overlap
    (or that fall outside the text) only the first in the text is kept."""
    ranged = []
    for edit in edits:
        if not 0 <= edit.start <= edit.end <= len(text):
            continue
        start, end = _whole_line(text, edit.start, edit.end) if edit.replacement == "" else (edit.start, edit.end)
        ranged.append((start, end, edit))
    ranged.sort(key=lambda item: (item[0], item[1]))
    out: list[str] = []
    applied: list[Edit] = []
    position = 0
    for start, end, edit in ranged:
        if start < position or (applied and start == position and start == end == applied[-1].start):
            continue  # overlaps the edit kept before it
        out.append(text[position:start])
        out.append(edit.replacement)
        applied.append(edit)
        position = end
    out.append(text[position:])
    return "".join(out), applied
