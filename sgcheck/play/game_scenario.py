"""The scenario a game is played under: the one a log names, loaded and checked (R24).

A log names its scenario with a ``[Scenario "..."]`` tag, read relative to the log's folder, or
the command line gives one with ``--scenario``, which overrides the tag. Either names a scenario
file (``*.scenario.yaml``), a pack manifest or pack folder whose manifest has a ``scenario:``
section, or a name without a suffix, which stands for ``NAME.scenario.yaml``. Without either, a
game played with a pack whose manifest has a scenario section is played under that one.

The scenario is read and checked as ``sgcheck check`` checks it (the contract included), so a
game is never played under a scenario the checker would refuse: one with an error is reported,
its findings first, and the game is not replayed (SG-P037). A tag must not lead out of the log's
folder (SG-P031), for the reason a ``[Pack]`` tag must not (see :mod:`sgcheck.play.tag_path`).
A corpus of logs usually shares one scenario, so each is read once per process while its file
is unchanged.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.paths import display, real_path
from sgcheck.play.tag_path import TagKind, locate
from sgcheck.project.kinds import MANIFEST_NAMES, SCENARIO_SUFFIXES, is_manifest, is_scenario_file
from sgcheck.project.stamps import Stamp, stamp

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario

SCENARIO_TAG = TagKind(
    "Scenario",
    "scenario",
    missing="SG-P030",
    outside="SG-P031",
    option="--scenario",
    hint="a [Scenario] tag is read relative to the log's folder: name a scenario file (.scenario.yaml), "
    "or a pack whose manifest has a scenario section",
)


@dataclass(frozen=True, slots=True)
class GameScenario:
    """A scenario as replay uses it: where it was read, the model (None when it has an error),
    and what ``sgcheck check`` reports on it with the texts those findings point into."""

    shown: str
    scenario: Scenario | None
    findings: tuple[Diagnostic, ...]
    sources: Mapping[str, str]

    @property
    def refused(self) -> bool:
        """An error finding: the game is not played under this scenario (SG-P037)."""
        return self.scenario is None or any(finding.is_error for finding in self.findings)


def load_game_scenario(
    path: str, *, log_folder: str | None, from_tag: bool, span: Span | None = None
) -> GameScenario | Diagnostic:
    """The scenario at ``path``, checked; or SG-P030 (nothing to read there) or SG-P031 (a tag
    leading out of the log's folder) at ``span``. ``from_tag`` and ``log_folder`` as for
    :func:`sgcheck.play.pack.load_game_pack`."""
    located = locate(SCENARIO_TAG, path, log_folder=log_folder, from_tag=from_tag, span=span)
    if isinstance(located, Diagnostic):
        return located
    given, shown, where = Path(located.given), located.shown, located.where
    target = _target(given)
    if isinstance(target, str):
        hint = SCENARIO_TAG.hint if from_tag else None
        return codes.diagnostic("SG-P030", target.format(shown=shown), hint=hint).at(where)
    if located.folder is not None and not real_path(target).is_relative_to(real_path(Path(located.folder))):
        # a name without a suffix that resolves, through a link, to a file outside the folder
        return codes.diagnostic("SG-P031", f"the [Scenario] tag '{path}' leads outside the log's folder").at(where)
    return _cached(target, display(str(target)) if target != given else shown)


def _target(given: Path) -> Path | str:
    """The file to read for ``given``: a scenario file, a manifest (of a pack folder); or why there is none."""
    try:
        if given.is_dir():
            manifest = next((given / name for name in MANIFEST_NAMES if (given / name).is_file()), None)
            return manifest if manifest is not None else "'{shown}' is a folder without a pack manifest (sgpack.yaml)"
        if given.is_file():
            if is_scenario_file(given.name) or is_manifest(given.name):
                return given
            return "'{shown}' is neither a scenario file (.scenario.yaml) nor a pack with a scenario section"
        named = given.with_name(given.name + SCENARIO_SUFFIXES[0])
        if not given.suffix and named.is_file():
            return named
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return "'{shown}' cannot be read as a scenario"
    return "no scenario file or pack at '{shown}'"


# --- loading, once per process ----------------------------------------------------------------

#: Scenarios read in this process, each with the stamp of its file (``sgcheck.project.stamps``).
_LOADED: OrderedDict[tuple[str, Path], tuple[Stamp | None, GameScenario]] = OrderedDict()
_LOADED_MAX = 16


def _cached(path: Path, shown: str) -> GameScenario:
    key = (shown, real_path(path))
    now = stamp(path)
    kept = _LOADED.get(key)
    if kept is not None and kept[0] == now:
        _LOADED.move_to_end(key)
        return kept[1]
    loaded = _load(path, shown)
    _LOADED[key] = (now, loaded)
    while len(_LOADED) > _LOADED_MAX:
        _LOADED.popitem(last=False)
    return loaded


def _load(path: Path, shown: str) -> GameScenario:
    """Read and check the scenario file, or the scenario section of a manifest."""
    if is_scenario_file(path.name):
        from sgcheck.contract.scenario_contract import check_scenario_text
        from sgcheck.lang.source import SCENARIO_LIMIT, read_source

        read = read_source(path, shown, limit=SCENARIO_LIMIT)
        if isinstance(read, Diagnostic):
            return GameScenario(shown, None, (read.at(read.span or Span.point(shown)),), {})
        loaded, checked = check_scenario_text(read.text, shown)
        return GameScenario(shown, loaded.scenario, tuple(checked), {shown: read.text})
    from sgcheck.contract.packs import load_pack

    plan = load_pack(path, shown)
    findings = tuple(d if d.span is not None else d.at(Span.point(shown)) for d in plan.diagnostics)
    if plan.scenario is None and not any(d.is_error for d in findings):
        missing = codes.diagnostic("SG-P030", f"the pack manifest '{shown}' has no scenario section")
        findings = (*findings, missing.at(Span.point(shown)))
    return GameScenario(shown, plan.scenario, findings, {shown: plan.manifest_text})
