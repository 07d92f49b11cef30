"""``sgcheck check --fix``: check, apply the fixes, write, check again.

:func:`fix_paths` checks the paths as ``check`` does, applies the applicable fixes of each file
in one pass (:func:`~sgcheck.contract.card_edits.apply_edits`: of fixes that overlap, the first in
the file is kept), writes the file (in place, in its own line breaks and byte-order mark, and
only if it is writable and has not changed since it was checked: :mod:`sgcheck.lang.rewrite`)
and checks again, at most :data:`MAX_ROUNDS` times, as a fix may make another one possible.
``--diff`` makes one pass in memory and shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sgcheck.config import Config
from sgcheck.contract.card_edits import apply_edits, edits_of
from sgcheck.diagnostics import Diagnostic
from sgcheck.discovery import DEFAULT, DiscoveryOptions

__all__ = ["MAX_ROUNDS", "FixOutcome", "fix_paths"]

#: Rounds of fixing and checking again, as ruff does.
MAX_ROUNDS = 10


@dataclass(slots=True)
class FixOutcome:
    """What ``check --fix`` did: fixes applied (per code), the unsafe ones left, each file's change."""

    applied: dict[str, int] = field(default_factory=dict)
    unsafe_left: int = 0
    changes: dict[str, tuple[str, str]] = field(default_factory=dict)  # shown -> (before, after), LF text
    problems: list[str] = field(default_factory=list)  # files that could not be written

    @property
    def count(self) -> int:
        return sum(self.applied.values())

    def diff(self) -> str:
        from sgcheck.lang.format_diff import UnifiedDiff

        parts: list[str] = []
        for shown, (before, after) in self.changes.items():
            diff = UnifiedDiff(shown, parts.append)  # lines as patch reads them, like fmt --diff
            diff.add(before, after)
            diff.finish()
        return "".join(parts)

    def summary(self, *, unsafe: bool, would: bool = False) -> str:
        text = f"{self.count} fix{'es' if self.count != 1 else ''} {'would be applied' if would else 'applied'}"
        if self.unsafe_left and not unsafe:
            text += f", {self.unsafe_left} unsafe fix{'es' if self.unsafe_left != 1 else ''} available (--unsafe-fixes)"
        return text


def fix_paths(
    paths: Sequence[str],
    config: Config,
    *,
    unsafe: bool = False,
    write: bool = True,
    stdin_name: str = "<stdin>",
    discovery: DiscoveryOptions = DEFAULT,
) -> FixOutcome:
    """Apply the fixes of ``check`` to the files under ``paths`` (standard input is never fixed),
    found as ``check`` finds them (``discovery``: what git ignores and what is excluded is never
    touched).

    With ``write`` the files are rewritten and checked again until nothing is left to apply (at
    most :data:`MAX_ROUNDS` rounds); without it, one pass is made in memory (``--diff``).
    """
    from sgcheck.contract.checker import plan_check

    outcome = FixOutcome()
    for _ in range(MAX_ROUNDS if write else 1):
        job = plan_check([p for p in paths if p != "-"], config, stdin_name=stdin_name, discovery=discovery)
        where = {s.shown: str(s.path) for plan in job.plans for s in plan.files}
        where.update({plan.manifest.shown: str(plan.manifest.path) for plan in job.plans if plan.manifest})
        findings: dict[str, list[Diagnostic]] = {}
        texts: dict[str, str] = {}
        for result, sources in job.results():
            findings.setdefault(result.path, []).extend(result.diagnostics)
            texts.update(sources)
        outcome.unsafe_left = 0
        changed = False
        for shown, diagnostics in findings.items():
            edits = edits_of(diagnostics, shown)
            outcome.unsafe_left += sum(1 for e in edits if not e.safe)
            wanted = [e for e in edits if e.safe or unsafe]
            if not wanted or shown not in where or shown not in texts:
                continue
            before = texts[shown]
            after, applied = apply_edits(before, wanted)
            if not applied or after == before:
                continue
            if write:
                failure = _write(where[shown], before, after)
                if failure is not None:
                    outcome.problems.append(f"{shown}: {failure}")
                    continue
            first = outcome.changes.get(shown, (before, after))[0]
            outcome.changes[shown] = (first, after)
            for edit in applied:
                outcome.applied[edit.code] = outcome.applied.get(edit.code, 0) + 1
            outcome.unsafe_left -= sum(1 for e in applied if not e.safe)
            changed = True
        if not changed:
            break
    return outcome


def _write(path: str, before: str, after: str) -> str | None:
    """Write ``after`` over the file at ``path`` if it still holds ``before`` (what was checked),
    in place and only if it has not changed since this read (:func:`rewrite_file`); None, or why not."""
    from sgcheck.lang.format_files import encode_like
    from sgcheck.lang.rewrite import rewrite_file, stat_before_read
    from sgcheck.lang.source import CARD_LIMIT, decode
    from sgcheck.project.stamps import Stamp

    status = stat_before_read(path)
    try:
        with open(path, "rb") as stream:
            data = stream.read(CARD_LIMIT.max_bytes * 4 + 1)
    except OSError as error:
        return f"SG-P008 cannot read the file again: {error.strerror or error}"
    read = decode(data, path)
    if isinstance(read, Diagnostic) or read.text != before:
        return "SG-P009 not rewritten: the file changed after it was checked; it is left as it was"
    stamp = Stamp.of(status, data) if status is not None else None
    failure = rewrite_file(path, encode_like(after, data), stamp)
    return None if failure is None else f"{failure.code} {failure.message}"
