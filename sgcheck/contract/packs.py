"""Finding what to check: packs (folders with a manifest) and loose card files.

``sgcheck check PATH...`` accepts card files, manifests and folders. A folder holding
``sgpack.yaml`` is a pack; any other folder is searched (hidden folders skipped) for
packs and for loose card files (``*.sgcard``, ``*.sgcard.yaml``). A loose file is
checked as a pack of its own. A folder with its own manifest inside a pack is a pack of
its own: it is found and checked, and the outer pack does not claim its files.

Nothing outside what the user named is read (SG-C202), so no finding can quote it: a
manifest's card paths must stay inside the pack folder after following symbolic links,
and a link to a card file must name a card file; a manifest found in a folder must not be
a link out of that folder; a loose card file found by walking a folder must not be a link
out of the folder being walked. A file named on the command line is read as it is.

Folders are walked by :func:`sgcheck.discovery.walk`, which leaves out what git ignores and
what the exclude patterns name; a file named on the command line is always checked (unless
``--force-exclude`` and an exclude pattern names it). A card file named on the command line
that a pack lists (the nearest ``sgpack.yaml`` in its folder or a folder above, up to the
repository root) is checked with its whole pack, once however many of its files are named,
since cap stacking and trigger cycles show only in combinations: this is what lets a
pre-commit hook pass only the changed files. A card file no pack lists is checked on its own
(and the pack is not checked for it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from sgcheck.contract.context import CheckContext
from sgcheck.contract.registry import meta
from sgcheck.core.caps import DRAFT_DRAW, DRAFT_KEEP, HAND_LIMIT
from sgcheck.core.ruleset import Ruleset, RulesetError, parse_ruleset
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.discovery import DEFAULT, DiscoveryOptions, repository_root, walk
from sgcheck.lang.source import MANIFEST_LIMIT, read_source
from sgcheck.lang.yaml.schema import schema_errors
from sgcheck.lang.yaml.tree import YNode, compose
from sgcheck.letters import ascii_lower
from sgcheck.paths import display, found_display, links_out_of, real_path
from sgcheck.project.kinds import (
    MANIFEST_NAMES,
    YAML_SUFFIXES,
    Kind,
    is_card_file,
    is_manifest,
    is_scenario_file,
    row,
)

if TYPE_CHECKING:
    from sgcheck.core.scenario import Scenario
    from sgcheck.lang.modules.module_loader import ModuleFile

PACK_SCHEMA = "pack.schema.json"
#: What a link listed in a manifest may point to: card files in either format (pack.schema.json).
_LINKED_CARD_SUFFIXES = row(Kind.CARDS).endings + YAML_SUFFIXES


@dataclass(frozen=True, slots=True)
class CardSource:
    path: Path
    shown: str


@dataclass(slots=True)
class PackPlan:
    """One unit of checking: the card files of a pack (or one loose file) and its settings."""

    name: str
    files: list[CardSource]
    context: CheckContext
    manifest: CardSource | None = None
    manifest_text: str = ""
    facts: dict[str, object] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    scenario: Scenario | None = None  # the manifest's scenario section, when it loads clean (R24)
    module: ModuleFile | None = None  # the manifest's module section (R26), as read


def discover(paths: Sequence[str], ruleset: Ruleset, options: DiscoveryOptions = DEFAULT) -> list[PackPlan]:
    """The packs and loose files under ``paths``, each real file once, in a stable order; a
    named card file that a pack lists brings in its whole pack (see the module docstring)."""
    plans: list[PackPlan] = []
    seen: dict[object, PackPlan] = {}
    packs: dict[object, tuple[PackPlan, set[object]]] = {}  # packs read for named files, with their files
    loose_context = CheckContext(ruleset=ruleset)
    for given in paths:
        path = Path(given)
        if options.skips_named(given):
            continue
        if _is_dir(path):
            for found in _walk(path, given, options):
                _add(plans, seen, found, loose_context)
        elif is_manifest(path.name):
            _add(plans, seen, _Found("pack", path, display(given)), loose_context)
        elif (
            options.whole_pack
            and not is_scenario_file(path.name)
            and _checked_with_pack(plans, seen, packs, path, given)
        ):
            continue
        else:
            _add(plans, seen, _Found("file", path, display(given)), loose_context)
    return plans


def _checked_with_pack(
    plans: list[PackPlan],
    seen: dict[object, PackPlan],
    packs: dict[object, tuple[PackPlan, set[object]]],
    path: Path,
    given: str,
) -> bool:
    """Add, once, the pack whose manifest lists the named file ``path``; False when none does
    (the file is then checked on its own, and the pack is not)."""
    manifest = enclosing_manifest(path)
    if manifest is None or links_out_of(manifest, manifest.parent):
        return False
    key = file_identity(manifest)
    if key not in packs:
        folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
        shown = display(os.path.join(os.path.dirname(given), os.path.relpath(manifest, folder)))
        pack = seen[key] if key in seen else load_pack(manifest, shown)
        packs[key] = pack, {file_identity(card.path) for card in pack.files}
    pack, members = packs[key]
    if file_identity(path) not in members:
        return False
    if key not in seen:
        seen[key] = pack
        plans.append(pack)
    return True


def enclosing_manifest(path: Path) -> Path | None:
    """The manifest in the folder of ``path`` or the nearest folder above it, searched up to the
    repository root (the folder holding ``.git``); outside a repository, up to the working
    directory when ``path`` lies under it, else in the file's own folder only."""
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    stop = repository_root(folder)
    if stop is None:
        here = os.path.realpath(os.getcwd())
        stop = here if folder == here or folder.startswith(here.rstrip(os.sep) + os.sep) else folder
    while True:
        for name in MANIFEST_NAMES:
            candidate = os.path.join(folder, name)
            if os.path.lexists(candidate):
                return Path(candidate)
        parent = os.path.dirname(folder)
        if folder == stop or parent == folder:
            return None
        folder = parent


@dataclass(frozen=True, slots=True)
class _Found:
    """What discovery found: a ``pack`` manifest, a loose card ``file``, or a ``refused`` link."""

    kind: str
    path: Path
    shown: str
    refusal: str = ""


def _add(plans: list[PackPlan], seen: dict[object, PackPlan], found: _Found, context: CheckContext) -> PackPlan:
    """The plan of what was found: added once, the one already added when found again."""
    key = file_identity(found.path) if found.kind != "refused" else ("refused", found.shown)
    if key in seen:
        return seen[key]
    if found.kind == "pack":
        plan = load_pack(found.path, found.shown)
    elif found.kind == "refused":
        refusal = meta("SG-C202").diagnostic(
            found.refusal,
            Span.point(found.shown),
            hint="copy the file into the folder instead of linking to it, or name it on the command line",
        )
        plan = PackPlan(found.shown, [], context, diagnostics=[refusal])
    else:
        plan = PackPlan(found.shown, [CardSource(found.path, found.shown)], context)
    seen[key] = plan
    plans.append(plan)
    return plan


def file_identity(path: Path) -> object:
    """What makes two paths the same file: device and inode (so links, ``./``, letter case on
    case-insensitive disks and Unicode forms all agree); the resolved path when there is none."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return real_path(path)
    if status.st_ino == 0:  # some file systems have no inode numbers
        return real_path(path)
    return (status.st_dev, status.st_ino)


def entry_identity(path: Path) -> object:
    """The identity of the directory entry itself (a link, not its target)."""
    try:
        status = os.lstat(path)
    except (OSError, ValueError):
        return ("missing", real_path(path.parent) / path.name)
    if status.st_ino == 0:
        return real_path(path.parent) / path.name
    return (status.st_dev, status.st_ino)


def _walk(root: Path, given: str, options: DiscoveryOptions) -> Iterator[_Found]:
    """Packs and loose card files under ``root``; links out of where they were found are refused."""
    owned: set[str] = set()  # folders inside a pack: only nested packs are looked for there
    for folder, subfolders, names in walk(str(root), options):
        shown_folder = display(os.path.join(given, os.path.relpath(folder, root)))
        inside_pack = folder in owned
        manifest = next((n for n in MANIFEST_NAMES if n in names), None)
        if manifest is not None:
            yield _manifest_found(Path(folder) / manifest, display(os.path.join(shown_folder, manifest)))
            inside_pack = True
        if inside_pack:
            owned.update(os.path.join(folder, d) for d in subfolders)
        for name in sorted(names):
            if is_scenario_file(name) or (is_card_file(name) and not inside_pack):  # scenarios stand alone
                yield _card_found(Path(folder) / name, display(os.path.join(shown_folder, name)), root, given)


def _manifest_found(path: Path, shown: str) -> _Found:
    if links_out_of(path, path.parent):
        return _Found("refused", path, shown, f"the manifest '{shown}' is a link to a file outside its folder")
    return _Found("pack", path, shown)


def _card_found(path: Path, shown: str, root: Path, given: str) -> _Found:
    if links_out_of(path, root):
        where = display(given)
        return _Found("refused", path, shown, f"'{shown}' is a link to a file outside '{where}'")
    return _Found("file", path, shown)


# --- manifests ------------------------------------------------------------------------------


def load_pack(manifest_path: Path, shown: str) -> PackPlan:
    """Read a manifest: its settings, its card files, and every problem with them."""
    plan = PackPlan(shown, [], CheckContext(), CardSource(manifest_path, shown))
    source = read_source(manifest_path, shown, limit=MANIFEST_LIMIT)
    if isinstance(source, Diagnostic):
        plan.diagnostics.append(source.at(source.span or Span.point(shown)))
        return plan
    plan.manifest_text = source.text
    root = compose(plan.manifest_text, shown)
    if isinstance(root, Diagnostic):
        plan.diagnostics.append(root)
        return plan
    if not isinstance(root.value, dict):  # not a manifest at all: describe it, never quote it
        what = "a list" if isinstance(root.value, list) else "empty" if root.value is None else "a single value"
        plan.diagnostics.append(
            meta("SG-C201").diagnostic(
                f"the manifest must be a mapping with name, version and cards, but it is {what}",
                root.span,
                hint="see docs/cards.md (packs)",
            )
        )
        return plan
    problems = list(schema_errors(PACK_SCHEMA, root.plain(), root))
    for _, message, span in problems:
        plan.diagnostics.append(meta("SG-C201").diagnostic(message, span, hint="see docs/cards.md (packs)"))
    if problems:
        return plan
    values: dict[str, YNode] = root.value
    plan.name = str(values["name"].value)
    plan.facts = {"pack": plan.name, "version": str(values["version"].value)}
    ruleset = _ruleset(values.get("ruleset"), plan)
    hand_limit, kept = _draft(values.get("draft"), plan)
    plan.context = CheckContext(ruleset=ruleset, hand_limit=hand_limit, kept=kept)
    if "scenario" in values:
        _scenario(values["scenario"], shown, plan)
    if "module" in values:
        _module(values["module"], shown, plan)
    market = plan.module.module.market if plan.module is not None and plan.module.module is not None else None
    # which cards can be together, and where games start: the market's deck and the scenario
    plan.context = replace(plan.context, market=market.deck if market is not None else (), scenario=plan.scenario)
    pack_root = manifest_path.parent
    folder_shown = os.path.dirname(shown) or "."
    listed: set[object] = set()  # the files read
    named: set[object] = set()  # every directory entry the manifest names inside the pack
    for entry_node in values["cards"].value:
        card = _card_entry(entry_node, pack_root, folder_shown, plan, named)
        if card is not None and file_identity(card.path) not in listed:
            listed.add(file_identity(card.path))
            plan.files.append(card)
    if not values["cards"].value:
        plan.diagnostics.append(meta("SG-C208").diagnostic("the pack lists no card files", values["cards"].span))
    _unlisted(pack_root, listed | named, values["cards"].span, plan)
    return plan


def _ruleset(node: YNode | None, plan: PackPlan) -> Ruleset:
    if node is None:
        return Ruleset()
    try:
        ruleset = parse_ruleset(str(node.value))
    except RulesetError as error:
        plan.diagnostics.append(meta("SG-C205").diagnostic(str(error), node.span))
        return Ruleset()
    for house in ruleset.house_rules():
        plan.diagnostics.append(
            meta("SG-C206").diagnostic(
                f"the pack's ruleset switches on a house rule ({house.setting}, {house.ruling}): {house.description}",
                node.span,
                hint=f"it breaks {house.breaks}" if house.breaks else None,
                rules=("core §8", house.ruling),
            )
        )
    plan.facts["ruleset"] = ruleset.describe()
    return ruleset


def _scenario(node: YNode, shown: str, plan: PackPlan) -> None:
    """The manifest's scenario section, read and checked as a scenario file is (R24)."""
    from sgcheck.contract.scenario_contract import check_scenario_node

    loaded, findings = check_scenario_node(node, shown)
    plan.diagnostics.extend(findings)
    plan.scenario = loaded.scenario
    name = node.value.get("name") if isinstance(node.value, dict) else None
    if name is not None:
        plan.facts["scenario"] = str(name.value)


def _module(node: YNode, shown: str, plan: PackPlan) -> None:
    """The manifest's module section, read and checked (R26); its deck is checked with the cards."""
    from sgcheck.contract.module_contract import check_module_node

    loaded, findings = check_module_node(node, shown)
    plan.diagnostics.extend(findings)
    plan.module = loaded
    name = node.value.get("name") if isinstance(node.value, dict) else None
    if name is not None:
        plan.facts["module"] = str(name.value)


def _draft(node: YNode | None, plan: PackPlan) -> tuple[int, int]:
    """The pack's hand limit and the cards a player keeps (never more than drawn); SG-C207 when its
    draft keeps more than a hand may hold (R19)."""
    if node is None:
        return HAND_LIMIT, DRAFT_KEEP
    settings = {key: int(child.value) for key, child in node.value.items()}
    draw, keep = settings.get("draw", DRAFT_DRAW), settings.get("keep", DRAFT_KEEP)
    hand_limit = settings.get("hand_limit", HAND_LIMIT)
    held = min(draw, keep)  # a player keeps only cards drawn
    if held > hand_limit:
        raised = "" if "hand_limit" in settings else f" (R19's limit; a Double Draft must raise hand_limit to {held})"
        kept = f"keeps {keep} cards" if keep <= draw else f"keeps all {draw} cards it draws"
        plan.diagnostics.append(
            meta("SG-C207").diagnostic(f"the draft {kept} but a hand holds at most {hand_limit}{raised}", node.span)
        )
    if keep > draw:
        plan.diagnostics.append(
            meta("SG-C209").diagnostic(
                f"the draft keeps {keep} cards out of only {draw} drawn: a player can keep only the {draw} drawn, "
                "so the draft cannot be played as written"
                + (f" (no hand passes the hand limit of {hand_limit})" if held <= hand_limit else ""),
                node.span,
                hint=f"set keep to at most draw ({draw})",
            )
        )
    return hand_limit, held


def _card_entry(
    node: YNode, pack_root: Path, folder_shown: str, plan: PackPlan, named: set[object]
) -> CardSource | None:
    """The card file an entry names, or None with the reason in ``plan``; every name inside the
    pack goes into ``named``, accepted or not, since it is listed either way (SG-C204)."""
    entry = str(node.value)
    shown = display(os.path.join(folder_shown, entry))
    normal = os.path.normpath(entry.replace("\\", "/"))
    if (
        os.path.isabs(entry)
        or entry.startswith(("/", "\\"))
        or (len(entry) > 1 and entry[1] == ":")
        or normal == ".."
        or normal.startswith("../")
    ):
        plan.diagnostics.append(
            meta("SG-C202").diagnostic(
                f"card path '{entry}' leaves the pack folder",
                node.span,
                hint="list card files by paths relative to the manifest, inside the pack folder",
            )
        )
        return None
    if "\x00" in entry:
        plan.diagnostics.append(meta("SG-C203").diagnostic(f"card path {entry!r} is not a valid file name", node.span))
        return None
    candidate = pack_root / normal
    named.add(entry_identity(candidate))
    real = real_path(candidate)
    inside = real.is_relative_to(real_path(pack_root))
    if not inside:
        plan.diagnostics.append(
            meta("SG-C202").diagnostic(
                f"card path '{entry}' is a link to '{found_display(real)}', outside the pack folder",
                node.span,
                hint="copy the file into the pack instead of linking to it",
            )
        )
        return None
    if is_manifest(candidate.name) or is_manifest(real.name):
        plan.diagnostics.append(meta("SG-C203").diagnostic(f"'{entry}' is a pack manifest, not a card file", node.span))
        return None
    if real.name != candidate.name and not ascii_lower(real.name).endswith(_LINKED_CARD_SUFFIXES):
        plan.diagnostics.append(
            meta("SG-C202").diagnostic(
                f"card path '{entry}' is a link to '{display(os.path.relpath(real, real_path(pack_root)))}', "
                "which is not a card file",
                node.span,
                hint="a link in a pack may only point to a card file (.sgcard, .sgcard.yaml, .yaml) in the pack",
            )
        )
        return None
    if not _is_file(candidate):
        what = "is a folder" if _is_dir(candidate) else "does not exist or is not a regular file"
        plan.diagnostics.append(meta("SG-C203").diagnostic(f"card file '{entry}' {what}", node.span))
        return None
    if not ascii_lower(candidate.name).endswith(_LINKED_CARD_SUFFIXES):
        # like a link, an entry names a card file by its name: any other file in the folder (a
        # token, .npmrc, .git/credentials) is never read, so no report can quote it
        plan.diagnostics.append(
            meta("SG-C202").diagnostic(
                f"card path '{entry}' does not name a card file",
                node.span,
                hint="a manifest lists card files only (.sgcard, .sgcard.yaml, .yaml)",
            )
        )
        return None
    return CardSource(candidate, shown)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, say
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def _unlisted(pack_root: Path, listed: set[object], span: Span, plan: PackPlan) -> None:
    """SG-C204 for each card file the pack owns but does not list (nested packs own their own)."""
    for folder, subfolders, names in os.walk(pack_root):
        subfolders[:] = sorted(
            d for d in subfolders if not d.startswith(".") and not _holds_manifest(os.path.join(folder, d))
        )
        for name in sorted(names):
            path = Path(folder) / name
            if not is_card_file(name) or file_identity(path) in listed or entry_identity(path) in listed:
                continue
            relative = display(os.path.relpath(path, pack_root))
            plan.diagnostics.append(
                meta("SG-C204").diagnostic(
                    f"'{relative}' is a card file in the pack folder but the manifest does not list it",
                    span,
                    hint=f"add '{relative}' to cards, or move it out of the pack",
                )
            )


def _holds_manifest(folder: str) -> bool:
    return any(os.path.lexists(os.path.join(folder, name)) for name in MANIFEST_NAMES)
