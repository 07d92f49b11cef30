"""A log's header in a replay: its tags, the ruleset they set, and the game's pack and scenario.

Each function takes the :class:`~sgcheck.replay.session.Session` being fed and reports through it.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import TYPE_CHECKING

from sgcheck.codes import diagnostic
from sgcheck.core.ruleset import CORE, Ruleset, RulesetError, parse_ruleset
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.lang.logs.ast import Header, Tag
from sgcheck.replay.findings import SCORES, allowed

if TYPE_CHECKING:
    from sgcheck.replay.session import Session


def no_header(replayer: Session) -> None:
    """The log's first item is not its header's: the pack and scenario of the command line only."""
    load_pack(replayer, None)
    load_scenario(replayer, None)
    opening = replayer.opening
    limited = scenario_limit(replayer, opening.ruleset, Header((), Span.point(replayer.source)))
    replayer.settle(opening.replace(ruleset=limited))


def read_header(replayer: Session, header: Header) -> None:
    """The header's tags: none twice, the ruleset, the pack, the scenario, house rules, [Result]."""
    replayer.settle(replayer.opening.replace(header=header))
    seen: set[str] = set()
    for tag in header.tags:
        key = tag.name.lower()
        if key in seen:
            replayer.report(diagnostic("SG-P007", f"the tag [{tag.name}] is given twice").at(tag.span))
        seen.add(key)
    replayer.settle(replayer.opening.replace(ruleset=ruleset(replayer, header), pack_asked=True))
    load_pack(replayer, header.get("Pack"))
    load_scenario(replayer, header.get("Scenario"))
    rules = replayer.opening.ruleset
    limited = scenario_limit(replayer, rules, header)
    if limited is not rules:
        replayer.settle(replayer.opening.replace(ruleset=limited))
    ruleset_tag = header.get("Ruleset")
    for house in replayer.opening.ruleset.house_rules():
        note = diagnostic(
            "SG-N303",
            f"house rule {house.setting} ({house.ruling}): {house.description}; breaks {house.breaks}",
            rules=("core §8", house.ruling),
        )
        replayer.report(note.at(ruleset_tag.span if ruleset_tag is not None else None))
    result_tag = header.get("Result")
    if result_tag is not None and result_tag.value not in SCORES:
        replayer.report(
            diagnostic("SG-P007", f"[Result] must be 1-0, 0-1, 1/2-1/2 or *, not {result_tag.value!r}").at(
                result_tag.span
            )
        )


def load_pack(replayer: Session, tag: Tag | None) -> None:
    """The game's cards: --pack, else the [Pack] tag; checked against the contract first (R22).

    A pack that breaks the contract stops the replay (SG-P015) after its findings, unless
    --allow-violations replays it anyway (SG-N305), its errors reported as warnings of the same
    codes; its cards still cannot do what the contract forbids in every game (an error when
    played), and the caps still bind.
    """
    if not replayer.opening.pack_asked:
        replayer.settle(replayer.opening.replace(pack_asked=True))
    options = replayer.options
    if options.pack is None and tag is None:
        return  # no pack: the loader (and the contract checker it calls) is not imported
    from sgcheck.play.pack import load_game_pack

    if options.pack is not None:
        loaded = load_game_pack(options.pack, log_folder=replayer.folder, from_tag=False)
    elif tag is not None:
        loaded = load_game_pack(tag.value, log_folder=replayer.folder, from_tag=True, span=tag.span)
    else:
        return
    if isinstance(loaded, Diagnostic):
        replayer.report(loaded if loaded.span is not None else loaded.at(Span.point(replayer.source)), fatal=True)
        return
    replayer.settle(replayer.opening.replace(pack=loaded))
    if not loaded.breaks_contract:
        return
    where = tag.span if tag is not None and options.pack is None else Span.point(replayer.source)
    errors = sum(1 for f in loaded.findings if f.is_error)
    if not options.allow_violations:
        replayer.sink.extend(loaded.findings)
        message = f"the pack {loaded.shown} breaks the contract ({errors} error{'s' if errors != 1 else ''} above)"
        hint = "fix the cards, or replay a prototype with --allow-violations"
        replayer.report(diagnostic("SG-P015", message, hint=hint).at(where), fatal=True)
    replayer.sink.extend(allowed(finding) if finding.is_error else finding for finding in loaded.findings)
    message = (
        f"the pack {loaded.shown} breaks the contract ({errors} error{'s' if errors != 1 else ''}, reported above "
        f"as {'warnings' if errors != 1 else 'a warning'}) and is replayed anyway (--allow-violations); forbidden "
        "effects are refused when played, the caps still bind"
    )
    replayer.report(diagnostic("SG-N305", message).at(where))


def load_scenario(replayer: Session, tag: Tag | None) -> None:
    """The game's scenario: --scenario, else the [Scenario] tag, else the pack's (R24).

    Its findings are reported first; one with an error stops the replay (SG-P037): the game
    is never played under a scenario ``sgcheck check`` would refuse.
    """
    options, pack = replayer.options, replayer.opening.pack
    if options.scenario is None and tag is None and (pack is None or pack.scenario is None):
        return  # no scenario: its loader is not imported
    from sgcheck.play.game_scenario import GameScenario, load_game_scenario

    if options.scenario is not None:
        loaded = load_game_scenario(options.scenario, log_folder=replayer.folder, from_tag=False)
    elif tag is not None:
        loaded = load_game_scenario(tag.value, log_folder=replayer.folder, from_tag=True, span=tag.span)
    elif pack is not None and pack.scenario is not None:
        loaded = GameScenario(pack.shown, pack.scenario, (), {})  # its findings are the pack's
    else:
        return
    if isinstance(loaded, Diagnostic):
        replayer.report(loaded if loaded.span is not None else loaded.at(Span.point(replayer.source)), fatal=True)
        return
    replayer.settle(replayer.opening.replace(scenario=loaded))
    replayer.sink.extend(loaded.findings)
    if loaded.refused:
        errors = sum(1 for f in loaded.findings if f.is_error)
        where = tag.span if tag is not None and options.scenario is None else Span.point(replayer.source)
        message = (
            f"the scenario {loaded.shown} has {errors} error{'s' if errors != 1 else ''} (above); "
            "the game is not replayed under it"
        )
        refused = diagnostic("SG-P037", message, hint="fix the scenario, then replay again")
        replayer.report(refused.at(where), fatal=True)


def scenario_limit(replayer: Session, rules: Ruleset, header: Header) -> Ruleset:
    """The scenario's turn limit (R18, R24), unless --ruleset sets one; a [TurnLimit] or
    [Ruleset] tag that says otherwise is reported (SG-P007)."""
    scenario = replayer.game_scenario
    if scenario is None or scenario.turn_limit is None:
        return rules
    option = replayer.options.ruleset
    if option and parse_ruleset(option, Ruleset(turn_limit=-1)).turn_limit != -1:
        return rules  # the command line decides
    if rules.turn_limit is not None and rules.turn_limit != scenario.turn_limit:
        tag = header.get("TurnLimit") or header.get("Ruleset")
        message = (
            f"the log's turn limit is {rules.turn_limit}, but its scenario {scenario.name} sets {scenario.turn_limit}"
        )
        replayer.report(diagnostic("SG-P007", message).at(tag.span if tag is not None else None))
    return replace(rules, turn_limit=scenario.turn_limit)


def ruleset(replayer: Session, header: Header) -> Ruleset:
    """The header's [Ruleset] and [TurnLimit], refined by the --ruleset option (R09, R14, R18)."""
    rules = CORE
    for tag_name, setting in (("Ruleset", "{}"), ("TurnLimit", "turn_limit={}")):
        tag = header.get(tag_name)
        if tag is None:
            continue
        try:
            rules = _parsed(setting.format(tag.value.strip()), rules)
        except RulesetError as exc:
            replayer.report(diagnostic("SG-P007", f"bad [{tag_name}]: {exc}").at(tag.span), fatal=True)
    if replayer.options.ruleset:
        rules = _parsed(replayer.options.ruleset, rules)
    return rules


@functools.lru_cache(maxsize=256)
def _parsed(text: str, base: Ruleset) -> Ruleset:
    """:func:`~sgcheck.core.ruleset.parse_ruleset`, once a run for each text the logs write (a
    ruleset is immutable; a text that is refused raises each time)."""
    return parse_ruleset(text, base)
