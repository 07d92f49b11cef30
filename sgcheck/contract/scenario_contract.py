"""Scenarios against the contract (core §8, R24).

A scenario may set the position, each side's LP, SP and Gem, the first player, a turn limit and
win conditions; it may not change combat math, costs, caps, rates, thresholds or the turn
structure. The scenario format has no place for such a change, except the ``rules:`` (or
``set:``) section, which exists so that a scenario that tries is reported precisely: each key
there names a number of the core and is reported with the contract code of that number, read
from the core's parameter table (:mod:`sgcheck.core.parameters`), as a card's ``set`` effect is.

``sgcheck check`` reads ``*.scenario.yaml`` files and the ``scenario:`` section of pack
manifests with :func:`check_scenario_text` and :func:`check_scenario_node`; replay reads the
scenario a log names the same way, so a game is never played under a scenario the checker would
refuse.
"""

from __future__ import annotations

from collections.abc import Iterator

from sgcheck.codes import diagnostic
from sgcheck.contract.registry import meta
from sgcheck.core.parameters import PARAMETERS, Parameter
from sgcheck.diagnostics import Diagnostic, Fix, Span, closest
from sgcheck.lang.scenarios.scenario_loader import ScenarioFile, load_scenario, load_scenario_node, shown
from sgcheck.lang.yaml.tree import YNode
from sgcheck.letters import ascii_lower, foreign_note

#: Names of a ruleset's table choices (R09, R14) and the core number each would rewrite.
_SETTING_NAMES = {"king_value": "value.king", "income": "income.rate"}
#: Words for the turn structure (core §2), which a scenario may not change (SG-C050).
_STRUCTURE = frozenset(
    {"phases", "phase_order", "turn_order", "turn_structure", "extra_phase", "extra_turn", "skip_phase"}
)
#: What a scenario does set, and where it is written instead.
_SCENARIO_SETTINGS = {
    "start.lp": "each side's starting LP is written per side: white: {lp: 30}, black: {lp: 30}",
    "start.sp": "each side's starting SP is written per side: white: {sp: 10}, black: {sp: 10}",
    "turn_limit": "the turn limit is written at the top level: turn_limit: 30",
    "first": "the first player is written at the top level: first: black",
}
_WHY = "a scenario sets the position, resources, first player, turn limit and win conditions, never a core number"


def check_scenario_text(text: str, source: str) -> tuple[ScenarioFile, list[Diagnostic]]:
    """A scenario file read, and everything ``check`` reports on it, in order."""
    return _checked(load_scenario(text, source))


def check_scenario_node(node: YNode, source: str) -> tuple[ScenarioFile, list[Diagnostic]]:
    """The ``scenario:`` section of a pack manifest, read and checked."""
    return _checked(load_scenario_node(node, source, prefix="scenario."))


def _checked(loaded: ScenarioFile) -> tuple[ScenarioFile, list[Diagnostic]]:
    findings = [*loaded.diagnostics, *contract_findings(loaded)]
    findings.sort(key=lambda d: d.sort_key)
    if loaded.scenario is not None and any(d.is_error for d in findings):
        loaded = ScenarioFile(loaded.source, None, loaded.diagnostics, loaded.rules, loaded.prefix)
    return loaded, findings


def contract_findings(loaded: ScenarioFile) -> Iterator[Diagnostic]:
    """One finding for each key of the ``rules:``/``set:`` sections: the core number it would change
    (with that number's contract code), or why it is not one."""
    for section_key, section in loaded.rules:
        for key, node in section.value.items():
            span = section.key_spans.get(key, node.span)
            normal = ascii_lower(key.strip()).replace("-", "_")
            parameter = _parameter(normal)
            if normal in _SCENARIO_SETTINGS:
                yield diagnostic(
                    "SG-P032",
                    f"{loaded.prefix}{section_key}.{key} is not a core number to change: {_SCENARIO_SETTINGS[normal]}",
                    hint="move it out of this section",
                ).at(span)
            elif parameter is not None:
                yield _rewrite(parameter, node, span)
            elif normal in _STRUCTURE:
                yield meta("SG-C050").diagnostic(
                    f"the scenario changes the turn structure ({key}); a turn is Upkeep, Main 1, Battle, "
                    "Main 2, End, the players taking turns (core §2)",
                    span,
                    hint=_WHY + " (R24)",
                    fix=Fix("remove this key"),
                    label="changes the turn structure",
                    rules=("core §2", "core §8", "R24"),
                )
            else:
                close = closest(normal, sorted(PARAMETERS))
                yield diagnostic(
                    "SG-P032",
                    f"{loaded.prefix}{section_key}.{key}: unknown core number{foreign_note(key)}",
                    hint=f"did you mean '{close}'? (a scenario may not change it either)"
                    if close
                    else "the core numbers are listed in docs/cards.md (core parameters)",
                ).at(span)


def _parameter(key: str) -> Parameter | None:
    """The core number a key names: ``cost.move``, also written ``cost_move``, or a table choice's name."""
    return PARAMETERS.get(_SETTING_NAMES.get(key, key)) or PARAMETERS.get(key.replace("_", ".", 1))


def _rewrite(parameter: Parameter, node: YNode, span: Span) -> Diagnostic:
    same = " (the same number, but a scenario still may not own it)" if parameter.core == str(node.value) else ""
    return meta(parameter.code).diagnostic(
        f"the scenario sets {parameter.name} to {shown(node.value)}; the core fixes it at {parameter.core}{same}",
        span,
        hint=_WHY + " (R24)",
        fix=Fix("remove this key"),
        label="rewrites a core number",
        rules=("core §8", "R24", parameter.section),
    )
