"""The cards a game is played with: the pack a log names, loaded and contract-checked once.

A log names its pack with a ``[Pack "..."]`` tag, read relative to the log's folder, or the
command line gives one with ``--pack``, which overrides the tag. Either names a pack folder (with
``sgpack.yaml``) or a single card file, and it is checked by the contract checker itself,
exactly as ``sgcheck check --isolated PATH`` checks it, so a game is never played with cards
that checker would refuse without saying so (R22). No configuration file is read: a
pyproject.toml next to a downloaded pack must not switch its rules off.

A tag must not lead out of the log's folder (SG-P014; :mod:`sgcheck.play.tag_path` says why);
``--pack`` is the user's own choice and may point anywhere.

A corpus of logs usually shares one pack, so each pack is loaded and checked once per process
and kept while its files are unchanged (their modification times and sizes).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sgcheck import codes
from sgcheck.core.caps import DRAFT_DRAW, DRAFT_KEEP
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.paths import real_path
from sgcheck.play.tag_path import TagKind, locate
from sgcheck.project import stamps

if TYPE_CHECKING:
    from sgcheck.contract.packs import PackPlan
    from sgcheck.core.cards.model import Card
    from sgcheck.core.module import Module
    from sgcheck.core.scenario import Scenario


@dataclass(frozen=True, slots=True)
class GamePack:
    """The cards a game is played with, loaded and contract-checked once."""

    shown: str  # the pack as the report names it: the tag's path joined to the log's folder, or --pack
    cards: tuple[Card, ...]  # every card that loaded, in pack order
    draw: int  # the draft settings of the manifest (R19: 5 / 3 / 3 without one)
    keep: int
    hand_limit: int
    findings: tuple[Diagnostic, ...]  # everything ``sgcheck check`` reports on the pack, in its files
    sources: Mapping[str, str]  # the text of each file those findings point into
    scenario: Scenario | None = None  # the manifest's scenario section (R24), when it loads clean
    module: Module | None = None  # the manifest's module section (R26), when it loads clean

    @property
    def breaks_contract(self) -> bool:
        """An error-severity finding: the game cannot be played with these cards (SG-P015)."""
        return any(finding.is_error for finding in self.findings)


def load_game_pack(
    path: str, *, log_folder: str | None, from_tag: bool, span: Span | None = None
) -> GamePack | Diagnostic:
    """The pack at ``path``, checked; or SG-P013 (nothing to load there) or SG-P014 (a tag
    leading out of the log's folder) at ``span``.

    ``from_tag``: ``path`` is the value of the log's ``[Pack]`` tag, relative to ``log_folder``
    (None: the working directory), and must stay inside that folder. Otherwise it is ``--pack``,
    taken as given, and a problem is placed on the path itself unless ``span`` says where.
    """
    located = locate(PACK_TAG, path, log_folder=log_folder, from_tag=from_tag, span=span)
    if isinstance(located, Diagnostic):
        return located
    missing = _not_a_pack(Path(located.given), located.shown)
    if missing is not None:
        return codes.diagnostic("SG-P013", missing, hint=PACK_TAG.hint if from_tag else None).at(located.where)
    return _cached(located.given, located.shown)


PACK_TAG = TagKind(
    "Pack",
    "pack",
    missing="SG-P013",
    outside="SG-P014",
    option="--pack",
    hint="a [Pack] tag is read relative to the log's folder: name a pack folder (with sgpack.yaml) or a card file",
)


def _not_a_pack(target: Path, shown: str) -> str | None:
    """Why nothing can be loaded from ``target``; None for a pack folder, a manifest or a card file."""
    from sgcheck.project.kinds import MANIFEST_NAMES, is_card_file, is_manifest

    try:
        if target.is_dir():
            if any(os.path.lexists(target / name) for name in MANIFEST_NAMES):
                return None
            return f"'{shown}' is a folder without a pack manifest (sgpack.yaml)"
        if target.is_file():
            if is_manifest(target.name) or is_card_file(target.name):
                return None
            return f"'{shown}' is neither a pack folder nor a card file (.sgcard, .sgcard.yaml)"
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return f"'{shown}' cannot be read as a pack"
    return f"no pack folder or card file at '{shown}'"


# --- loading, once per process --------------------------------------------------------------

#: Each file of a pack when it was checked, with its stamp (``sgcheck.project.stamps``).
_Stamp = tuple[tuple[str, stamps.Stamp | None], ...]

#: Packs checked in this process, least recently used first.
_LOADED: OrderedDict[tuple[str, Path], tuple[_Stamp, GamePack]] = OrderedDict()
_LOADED_MAX = 16


def _cached(given: str, shown: str) -> GamePack:
    key = (shown, real_path(Path(given)))
    kept = _LOADED.get(key)
    if kept is not None and _stamp(path for path, _ in kept[0]) == kept[0]:
        _LOADED.move_to_end(key)
        return kept[1]
    stamp, pack = _load(given, shown)
    _LOADED[key] = (stamp, pack)
    _LOADED.move_to_end(key)
    while len(_LOADED) > _LOADED_MAX:
        _LOADED.popitem(last=False)
    return pack


def _stamp(paths: Iterable[str]) -> _Stamp:
    return tuple((path, stamps.stamp(path)) for path in paths)


def _load(given: str, shown: str) -> tuple[_Stamp, GamePack]:
    """Plan and check the pack as ``sgcheck check`` does; the files are stamped before their
    cards are read, so a change while checking only means checking again next time."""
    from sgcheck.contract.checker import check_plan, plan_check

    plan = plan_check([given]).plans[0]  # a folder's own pack comes first; packs nested in it are their own
    stamp = _stamp([given, *_files(plan)])
    checked = check_plan(plan)
    findings = tuple(
        finding if finding.span is not None else finding.at(Span.point(result.path))
        for result in checked.results
        for finding in result.diagnostics
    )
    quoted = {finding.span.source for finding in findings if finding.span is not None}
    sources = {name: text for name, text in checked.sources.items() if name in quoted}
    draw, keep = _draft(plan)
    module = plan.module.module if plan.module is not None else None
    if any(codes.has(finding.code, codes.Trait.MODULE_NOT_PLAYED) for finding in findings):
        module = None  # a deck naming cards the pack cannot play is never played, even with --allow-violations
    pack = GamePack(shown, checked.cards, draw, keep, plan.context.hand_limit, findings, sources, plan.scenario, module)
    return stamp, pack


def _files(plan: PackPlan) -> list[str]:
    """Every file the plan reads: its manifest and its card files."""
    manifest = [str(plan.manifest.path)] if plan.manifest is not None else []
    return [*manifest, *(str(source.path) for source in plan.files)]


def _draft(plan: PackPlan) -> tuple[int, int]:
    """How many cards the draft draws and keeps (R19), as a valid manifest sets them; the hand
    limit is already on the plan's context."""
    if plan.manifest is None or "pack" not in plan.facts:  # no manifest, or one that failed its schema
        return DRAFT_DRAW, DRAFT_KEEP
    from sgcheck.lang.yaml.tree import YNode, compose

    root = compose(plan.manifest_text, plan.manifest.shown)
    node = root.value.get("draft") if isinstance(root, YNode) and isinstance(root.value, dict) else None
    settings = node.plain() if isinstance(node, YNode) and isinstance(node.value, dict) else {}
    return int(settings.get("draw", DRAFT_DRAW)), int(settings.get("keep", DRAFT_KEEP))
