"""Load a scenario written in YAML into the core's model (:mod:`sgcheck.core.scenario`, R24).

A scenario file is YAML (``*.scenario.yaml``), read with the shared YAML reader (bounded aliases,
nesting and size, no tags; :mod:`sgcheck.lang.yaml.tree`) and validated against
``schemas/scenario.schema.json`` with every error placed at its YAML line:col
(:mod:`sgcheck.lang.yaml.schema`). The ``scenario:`` section of a pack manifest is the same
document inside the manifest (:func:`load_scenario_node`).

What the schema cannot say is checked here, each at the text it is about: a square off the
board, two pieces on one square, a King outside its camp (SG-S103, as in a log), more pieces of a
kind than a side owns, a win condition naming a marker set that does not exist, a condition that
can never be met. The ``rules:`` (or ``set:``) sections are handed on untouched: whatever is
written there would change the core, and the contract checker reports each key with the code of
the core number it names (core §8).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from sgcheck.codes import diagnostic
from sgcheck.core.caps import START_LP, START_SP, number_too_long
from sgcheck.core.pieces import KING, NON_KING_KINDS, SET_COUNTS, Color, Kind
from sgcheck.core.scenario import (
    NO_PIECES,
    Counts,
    MarkerSet,
    Scenario,
    SideSetup,
    WinCondition,
    WinKind,
    army_excess,
    can_end,
    met_at_start,
    never_holds,
)
from sgcheck.core.setup import check_king_placement
from sgcheck.core.squares import Square, name, square
from sgcheck.diagnostics import Diagnostic, Span, closest, listing
from sgcheck.lang.yaml.schema import schema_errors
from sgcheck.lang.yaml.tree import LongNumber, YNode, compose

SCENARIO_SCHEMA = "scenario.schema.json"
#: The sections where a change to the core would be written; each key is reported (core §8).
RULE_SECTIONS = ("rules", "set")
_HINT = "see docs/scenarios.md for the scenario format"
_SIDES = {"white": (Color.WHITE,), "black": (Color.BLACK,), "both": (Color.WHITE, Color.BLACK)}


@dataclass(frozen=True, slots=True)
class ScenarioFile:
    """A scenario as read: the model (None when the text has an error), what reading found, and
    the ``rules:``/``set:`` sections for the contract checker to report."""

    source: str
    scenario: Scenario | None
    diagnostics: tuple[Diagnostic, ...]
    rules: tuple[tuple[str, YNode], ...] = ()  # each ``rules:``/``set:`` section, with its key
    prefix: str = ""  # ``scenario.`` for the section of a manifest: how paths are shown

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def load_scenario(text: str, source: str) -> ScenarioFile:
    """The scenario of a ``*.scenario.yaml`` file, or why it cannot be read."""
    root = compose(text, source)
    if isinstance(root, Diagnostic):
        return ScenarioFile(source, None, (_about_scenarios(root),))
    if root.value is None:
        empty = diagnostic("SG-P032", "the file holds no scenario", hint=_HINT).at(Span.point(source))
        return ScenarioFile(source, None, (empty,))
    return load_scenario_node(root, source)


def load_scenario_node(root: YNode, source: str, prefix: str = "") -> ScenarioFile:
    """The scenario written at ``root`` (a whole file, or a manifest's ``scenario:`` section,
    whose paths are then shown after ``prefix``)."""
    if not isinstance(root.value, dict):
        what = "a list" if isinstance(root.value, list) else "a single value"
        message = f"a scenario is a mapping with a name, the sides' start and win conditions, but this is {what}"
        return ScenarioFile(source, None, (diagnostic("SG-P032", message, hint=_HINT).at(root.span),), (), prefix)
    found: list[Diagnostic] = []
    long_numbers = {id(node) for node in _long_numbers(root)}
    for node in _long_numbers(root):
        found.append(diagnostic("SG-P032", number_too_long(node.value, node.value.digits)).at(node.span))
    for path, message, span in schema_errors(SCENARIO_SCHEMA, root.plain(), root):
        if long_numbers and id(root.locate(path)[0]) in long_numbers:
            continue  # already reported as a number too long
        if prefix and message.startswith("document"):  # the section itself, in a manifest
            message = prefix.rstrip(".") + message.removeprefix("document")
        else:
            message = prefix + message
        found.append(diagnostic("SG-P032", message, hint=_HINT).at(span))
    values: dict[str, YNode] = root.value
    rules = tuple((key, values[key]) for key in RULE_SECTIONS if key in values and isinstance(values[key].value, dict))
    if found:
        return ScenarioFile(source, None, tuple(found), rules, prefix)
    builder = _Builder(source, prefix)
    builder.spans.update(root.key_spans)
    scenario = builder.scenario(values)
    found = sorted(builder.found, key=lambda d: d.sort_key)
    playable = scenario if not any(d.is_error for d in found) else None
    return ScenarioFile(source, playable, tuple(found), rules, prefix)


#: The YAML reader is shared with card files; its words about them, as they read for a scenario.
_WORDS = (
    ("not allowed in card files", "not allowed in a scenario"),
    ("a card file holds one YAML document", "a scenario file holds one YAML document"),
    ("cards need only a few levels", "a scenario needs only a few levels"),
    ("split the cards into several files listed in the pack's manifest", "a scenario is a few hundred lines at most"),
)


def _about_scenarios(found: Diagnostic) -> Diagnostic:
    message, hint = found.message, found.hint
    for card, scenario in _WORDS:
        message = message.replace(card, scenario)
        hint = hint.replace(card, scenario) if hint is not None else None
    return replace(found, message=message, hint=hint)


def _long_numbers(root: YNode) -> Iterator[YNode]:
    """Every integer written with more digits than sgcheck reads (caps.MAX_NUMBER_DIGITS)."""
    stack = [root]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue  # an alias: the same node again
        seen.add(id(node))
        if isinstance(node.value, LongNumber):
            yield node
        elif isinstance(node.value, dict):
            stack.extend(node.value.values())
        elif isinstance(node.value, list):
            stack.extend(node.value)


class _Builder:
    """A scenario that passed the schema -> the core's model, with what the schema cannot check."""

    def __init__(self, source: str, prefix: str) -> None:
        self.source = source
        self.prefix = prefix
        self.found: list[Diagnostic] = []
        self.spans: dict[str, Span] = {}  # where each top-level key was written, for findings about the whole

    def report(self, code: str, message: str, span: Span, *, hint: str | None = None) -> None:
        self.found.append(diagnostic(code, message, hint=hint).at(span))

    def scenario(self, values: dict[str, YNode]) -> Scenario:
        occupied: dict[Square, str] = {}
        sides = tuple(self.side(color, values.get(color.title.lower()), occupied) for color in Color)
        white, black = sides
        markers = self.markers(values.get("markers"))
        win = values.get("win")
        win_values: dict[str, YNode] = win.value if win is not None and isinstance(win.value, dict) else {}
        conditions = self.conditions(win_values.get("conditions"), markers)
        scenario = Scenario(
            name=str(values["name"].value),
            sides=(white, black),
            first=Color.BLACK if _text(values.get("first")) == "black" else Color.WHITE,
            turn_limit=int(values["turn_limit"].value) if "turn_limit" in values else None,
            markers=tuple(markers),
            conditions=tuple(condition for condition, _ in conditions),
            core_victory=bool(win_values["core"].value) if "core" in win_values else True,
            description=_text(values.get("description")),
            source=self.source,
        )
        self.armies(scenario, values)
        for condition, span in conditions:
            for side in condition.sides:
                why = never_holds(scenario, condition, side)
                if why is not None:
                    self.report(
                        "SG-P036",
                        f"{side.title} can never win by {condition.describe(side)}: {why}",
                        span,
                        hint="remove the condition, or change the armies or markers so it can be met",
                    )
                already = met_at_start(scenario, condition, side)
                if already is not None:
                    self.report(
                        "SG-P036",
                        f"{side.title} already wins by {condition.describe(side)}: {already}",
                        span,
                        hint="change the starting position, or the condition, so that the game is played",
                    )
        if not can_end(scenario):
            where = win_values["core"].span if "core" in win_values else values["name"].span
            self.report(
                "SG-P036",
                "the game can never end: the core's win conditions are off, and there is no win condition "
                "and no turn limit",
                where,
                hint="add a win condition or a turn_limit, or keep the core's (win: {core: true})",
            )
        return scenario

    # --- the sides ------------------------------------------------------------------------------

    def side(self, color: Color, node: YNode | None, occupied: dict[Square, str]) -> SideSetup:
        if node is None or not isinstance(node.value, dict):
            return SideSetup()
        values: dict[str, YNode] = node.value
        gem: dict[str, YNode] = values["gem"].value if "gem" in values else {}
        pieces = self.pieces(color, values.get("pieces"), occupied)
        return SideSetup(
            lp=int(values["lp"].value) if "lp" in values else START_LP,
            sp=int(values["sp"].value) if "sp" in values else START_SP,
            own=_counts(gem["own"]) if "own" in gem else None,
            captured=_counts(gem["captured"]) if "captured" in gem else NO_PIECES,
            pieces=pieces,
        )

    def pieces(self, color: Color, node: YNode | None, occupied: dict[Square, str]) -> tuple[tuple[Square, Kind], ...]:
        if node is None:
            return ()
        placed: list[tuple[Square, Kind]] = []
        kings = 0
        for item in node.value:
            written: str = item.value
            kind = Kind.from_letter(written[0])
            sq = self.square(written[1:], item.span)
            if sq is None:
                continue
            what = f"the {color.title} {kind.title}"
            if sq in occupied:
                self.report(
                    "SG-P033",
                    f"two pieces on {name(sq)}: {what}, and {occupied[sq]} already stands there",
                    item.span,
                    hint="a square holds one piece",
                )
                continue
            if kind is KING:
                kings += 1
                if kings > 1:
                    self.report("SG-P033", f"the {color.title} King is placed twice", item.span)
                    continue
                for violation in check_king_placement(color, sq):
                    self.found.append(violation.diagnostic.at(item.span))
            occupied[sq] = what
            placed.append((sq, kind))
        return tuple(placed)

    def square(self, text: str, span: Span) -> Square | None:
        """The square written ``text`` (``e4``), or None with SG-P033 for a square off the board."""
        file, rank = ord(text[0]) - ord("a"), int(text[1:]) - 1
        if not (0 <= file < 8 and 0 <= rank < 8):
            self.report(
                "SG-P033",
                f"{text} is off the board: files run a to h and ranks 1 to 8",
                span,
                hint="a square is written like e4",
            )
            return None
        return square(file, rank)

    def armies(self, scenario: Scenario, values: dict[str, YNode]) -> None:
        """SG-P034 for a side with more pieces of a kind than its set holds (board and both Gems)."""
        for color, kind, total in army_excess(scenario):
            i = NON_KING_KINDS.index(kind)
            board = sum(1 for _, k in scenario.side(color).pieces if k is kind)
            own = scenario.own_pieces(color)[i]
            held = scenario.side(color.other).captured[i]
            plural = f"{kind.title}s" if total != 1 else kind.title
            span = self.spans.get(color.title.lower(), values["name"].span)
            self.report(
                "SG-P034",
                f"{color.title} would have {total} {plural} ({board} on the board, {own} in its own Gem, "
                f"{held} in {color.other.title}'s Gem); a side owns {SET_COUNTS[kind]}",
                span,
                hint="pieces are never created (core §1): lower the counts, or remove pieces from the board",
            )

    # --- markers and win conditions ---------------------------------------------------------------

    def markers(self, node: YNode | None) -> list[MarkerSet]:
        if node is None:
            return []
        sets: list[MarkerSet] = []
        for set_name, set_node in node.value.items():
            squares: list[Square] = []
            owners: list[Color | None] = []
            groups = (
                [(None, set_node)]
                if isinstance(set_node.value, list)
                else [(Color.WHITE if key == "white" else Color.BLACK, child) for key, child in set_node.value.items()]
            )
            for owner, group in groups:
                for item in group.value:
                    sq = self.square(item.value, item.span)
                    if sq is None:
                        continue
                    if sq in squares:
                        self.report("SG-P033", f"{name(sq)} is listed twice in the marker set '{set_name}'", item.span)
                        continue
                    squares.append(sq)
                    owners.append(owner)
            sets.append(MarkerSet(set_name, tuple(squares), tuple(owners)))
        return sets

    def conditions(self, node: YNode | None, markers: list[MarkerSet]) -> list[tuple[WinCondition, Span]]:
        if node is None:
            return []
        known = [m.name for m in markers]
        conditions: list[tuple[WinCondition, Span]] = []
        for item in node.value:
            [(key, body)] = item.value.items()
            kind = WinKind(key)
            args: dict[str, YNode] = body.value if isinstance(body.value, dict) else {}
            sides = _SIDES[_text(args.get("side")) or "both"]
            set_node = args.get("set")
            set_name = str(set_node.value) if set_node is not None else None
            if set_node is not None and set_name not in known:
                close = closest(str(set_name), known)
                listed = listing(known, str(set_name), quote=lambda k: f"'{k}'")
                self.report(
                    "SG-P035",
                    f"hold_markers names the marker set '{set_name}', which the scenario does not define "
                    f"(its sets: {listed})",
                    set_node.span,
                    hint=f"did you mean '{close}'?" if close else "define the set under markers:",
                )
                continue
            value = args.get("at_least")
            conditions.append(
                (WinCondition(kind, sides, set_name, int(value.value) if value is not None else None), item.span)
            )
        return conditions


def _text(node: YNode | None) -> str:
    return str(node.value) if node is not None and node.value is not None else ""


def _counts(node: YNode) -> Counts:
    values: dict[str, YNode] = node.value
    a, b, c, d, e = (int(values[k.letter].value) if k.letter in values else 0 for k in NON_KING_KINDS)
    return (a, b, c, d, e)


def shown(value: Any) -> str:
    """A YAML value as a message quotes it: short, and without control characters."""
    text = str(value)
    text = text if len(text) <= 24 else text[:24] + "…"
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)
