"""No error without a proof: every contract error with a game that replays to it.

An error of the contract says that some game breaks core §8. The rules of play
(SG-C150-SG-C158) find that game by playing the pack; the card and pack rules (SG-C0xx,
SG-C1xx) read the break from the cards' words. Before the report is made, each error of the
card and pack rules that judges a break of §8 is given its game, by one of three routes:

- *Refused in every game.* A card whose effect the contract forbids in every game (a rewritten
  core number, a changed turn structure, extra activations, direct damage to a King, a
  conversion at another rate, an unlimited amount: :func:`sgcheck.core.cards.semantics.forbidden`)
  is refused by the core when it is played, under ``--allow-violations`` too (SG-R123). The game
  is the holder playing it in its window, from the open field; the error names the code the core
  refuses it with, and the card's effect is that code's.
- *Shown in play.* A break of the same consequence that the explorer found in a game
  (:mod:`sgcheck.contract.analysis.explore`) with the card among the cards that make it: a
  discount too large (SG-C005) by a cost below 0, a bonus past its cap by the attack that passes
  it, a conversion in disguise by the exchange, a repair denial by two consecutive Upkeeps, and
  so on (:data:`SHOWN_BY`).
- *Found by the witness search.* When no game of the explorer shows it, a game directed at the
  events the card's triggers wait for (:func:`sgcheck.contract.analysis.explore.witness_for`,
  :mod:`sgcheck.contract.analysis.witness`), played from each probe, shows a break of those kinds
  with the card among its cards.

An error with none of them is not proven: it becomes a warning that says so, with the rule's reasoning
(its message) and the bounds of the games played. What the rules judge that is no break of §8 in
a game (two cards sharing a name, SG-C140: the pack cannot be written in a log; the ``SG-C2xx``
codes of packs and configuration; the ``SG-P`` reading errors) stays an error: it is about the
files as written, not about a game.

Every error that has a game names what replay reports there and at which line of the proof's log
(:func:`proof_line`), and ``check --explain-break`` writes that log.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from sgcheck.contract.analysis.explore import Exploration, Found, card_goals, witness_for
from sgcheck.contract.analysis.meeting import shape
from sgcheck.contract.analysis.probes import PROBES, start
from sgcheck.contract.proof import LOG_FILE, REFUSED, played_actions, proof_log
from sgcheck.contract.registry import Scope, rules_by_code
from sgcheck.core.actions import Action, EnterPhase, Play
from sgcheck.core.cards.model import Card
from sgcheck.core.cards.semantics import forbidden
from sgcheck.core.engine import apply
from sgcheck.core.outcome import Applied
from sgcheck.core.pieces import Color
from sgcheck.core.ruleset import CORE, Ruleset
from sgcheck.core.watch import KINDS, START, observe
from sgcheck.core.windows import next_phase
from sgcheck.diagnostics import Diagnostic, Severity, plural

__all__ = [
    "KEPT",
    "REFUSED_KIND",
    "SHOWN_BY",
    "card_at",
    "is_static_break",
    "proof_comments",
    "proof_line",
    "proved",
    "refusal",
    "refused_as",
    "replayed_as",
]

#: A line that opens a turn in a log: ``12.`` for White's, ``12...`` for Black's.
_TURN_LINE = re.compile(r"\d+\.(?:\.\.)?(?:\s|$)")

#: The kind of a game that ends in a card the core refuses in every game (SG-R123).
REFUSED_KIND = "refused"

#: For each error of the card and pack rules that a game can show, the kinds of break of play
#: (:data:`sgcheck.core.watch.KINDS` and the sweep's) that show the same consequence: the rules
#: of play leave a break out when one of these codes is on a card of its chain (their
#: ``COVERED_BY``), so it is the rule's game.
SHOWN_BY: dict[str, frozenset[str]] = {
    "SG-C005": frozenset({"negative-cost"}),
    "SG-C010": frozenset({"cap", "stacking"}),
    "SG-C011": frozenset({"cap", "stacking"}),
    "SG-C012": frozenset({"cap", "stacking", "reroll"}),
    "SG-C020": frozenset({"exchange"}),
    "SG-C022": frozenset({"exchange"}),
    "SG-C021": frozenset({"free-attempt"}),
    "SG-C030": frozenset({"growth"}),
    "SG-C031": frozenset({"growth"}),
    "SG-C032": frozenset({"growth"}),
    "SG-C033": frozenset({"growth"}),
    "SG-C101": frozenset({"growth"}),
    "SG-C110": frozenset({"growth"}),
    "SG-C040": frozenset({"repair-denied"}),
    "SG-C130": frozenset({"repair-denied"}),
    "SG-C060": frozenset({"king-damage"}),
    "SG-C121": frozenset({"king-immune", "king-damage"}),
}

#: Errors of the card and pack rules that judge the files as written, not a game: kept as errors
#: without one. Two cards that share a name cannot be told apart in a log (R22), so no game can
#: be written with both.
KEPT = frozenset({"SG-C140"})

#: What replay reports at the break for the kinds the watch has no code of its own for: a bonus
#: past its cap is clamped there (a note, SG-N304); a card refused in every game is SG-R123.
_REPLAYED: dict[str, str] = {"cap": "SG-N304", "caps-stacked": "SG-R132", REFUSED_KIND: REFUSED}
_UNCODED: dict[str, str] = {
    "king-immune": "a hit on the King that deals no damage",
    "king-fogged": "an attack on the King at the 5 floor of to-hit",
    "paid-attempt": "a second attempt in one Upkeep",
    "steep-price": "the price past what a side starts with",
}


def replayed_as(kind: str, what: str = "") -> tuple[str | None, str]:
    """The code replay reports at a break of ``kind`` (None where replay has no code for it), and
    what it is in words; ``what`` is the quantity a swept break is about (a second reroll source
    is the watch's own break, SG-R132)."""
    if kind == "cap" and what == "reroll":
        kind = "reroll"
    if kind in KINDS:
        code, what = KINDS[kind]
        return code, what
    if kind in _REPLAYED:
        code = _REPLAYED[kind]
        return code, {"cap": "a bonus clamped at its cap", REFUSED_KIND: "the card refused when played"}.get(kind, "")
    return None, _UNCODED.get(kind, kind)


def is_static_break(diagnostic: Diagnostic) -> bool:
    """An error of the card and pack rules (SG-C0xx, SG-C1xx below the rules of play) that judges
    a break of core §8 in a game, so that it needs one."""
    if diagnostic.severity is not Severity.ERROR or diagnostic.code in KEPT:
        return False
    rule = rules_by_code().get(diagnostic.code)
    return rule is not None and rule.meta.scope in (Scope.CARD, Scope.PACK)


def card_at(cards: Sequence[Card], diagnostic: Diagnostic) -> Card | None:
    """The card ``diagnostic`` points into (None: it points at none)."""
    span = diagnostic.span
    if span is None:
        return None
    for card in cards:
        if card.span.source == span.source and card.span.offset <= span.offset <= card.span.end_offset:
            return card
    return None


def refusal(card: Card, ruleset: Ruleset = CORE) -> Found | None:
    """The game in which ``card``'s holder plays it and the core refuses it (SG-R123), from the
    open field in the first phase of its window; None when the core would not refuse it."""
    probe = PROBES[0]
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((card.name,), ())
    state = start(probe, (card,), hands, ruleset)
    path: list[Action] = []
    play = Play(card.name)
    while True:
        step = apply(state, play)
        if not isinstance(step, Applied) and step.first.diagnostic.code == REFUSED:
            return Found(
                kind=REFUSED_KIND,
                cards=(card.name,),
                message=step.first.diagnostic.message,
                situation=f"{card.name!r} played in {state.turn.phase.title}",
                probe=probe,
                hands=hands,
                path=(*path, play),
            )
        after = next_phase(state.turn.phase)
        if after is None:
            return None
        moved = apply(state, EnterPhase(after))
        if not isinstance(moved, Applied):
            return None
        state = moved.state
        path.append(EnterPhase(after))


def refused_as(card: Card) -> frozenset[str]:
    """The codes the core refuses ``card`` with, one for each forbidden effect."""
    return frozenset(found[0] for effect in card.effects if (found := forbidden(effect)) is not None)


def _shown(code: str, card: Card, exploration: Exploration) -> Found | None:
    """The game the explorer played that shows the break ``code`` reads on ``card``: an error of a
    kind :data:`SHOWN_BY` names, played (not projected), with ``card`` among its cards; the fewest
    cards, then the shortest game."""
    kinds = SHOWN_BY.get(code, frozenset())
    games = [
        found
        for found in exploration.findings
        if found.kind in kinds and found.severity is Severity.ERROR and not found.projected and card.name in found.cards
    ]
    return min(games, key=lambda found: (len(found.cards), len(found.path)), default=None)


def proved(
    found: Iterable[Diagnostic],
    cards: Sequence[Card],
    exploration: Exploration | None,
    *,
    name: str,
    ruleset: Ruleset = CORE,
    games: list[Found] | None = None,
) -> Iterator[Diagnostic]:
    """``found`` (the card and pack rules' findings), each error that judges a break of §8 either
    with its game (named in its ``proof`` context, and added to ``games`` for ``--explain-break``)
    or made a warning that says no game shows it. ``exploration`` is what playing the pack found
    (None: it is not needed, every error is refused in every game or kept)."""
    by_name = {card.name: card for card in cards}
    unwitnessed: set[tuple[object, frozenset[str]]] = set()
    for diagnostic in found:
        if not is_static_break(diagnostic):
            yield diagnostic
            continue
        card = card_at(cards, diagnostic)
        game: Found | None = None
        if card is not None and diagnostic.code in refused_as(card):
            game = refusal(card, ruleset)
        if game is None and card is not None and exploration is not None:
            game = _shown(diagnostic.code, card, exploration)
        tried = ""
        if game is None and card is not None and diagnostic.code in SHOWN_BY:
            # the reasoning says the break is possible: the witness search looks for its game (once
            # for cards of one shape, which play alike, when it finds none)
            kinds = SHOWN_BY[diagnostic.code]
            if (shape(card), kinds) not in unwitnessed:
                game = witness_for(card, kinds, ruleset)
                if game is None:
                    unwitnessed.add((shape(card), kinds))
            tried = "; ".join(goal.describe() for goal in card_goals(card, Color.WHITE))
        if game is None:
            yield _unproven(diagnostic, exploration, tried)
            continue
        if games is not None:
            games.append(game)
        yield diagnostic.with_context(("proof", proof_line(game, by_name, name, ruleset)))


def _unproven(diagnostic: Diagnostic, exploration: Exploration | None, tried: str = "") -> Diagnostic:
    """The rule's finding, reasoned and shown by no game: a warning that says so (as SG-C162), with
    the bounds of the games played and of the witness games ``tried``."""
    bounds = exploration.bounds.describe() if exploration is not None else "no game played"
    if tried:
        bounds = f"{bounds}; {tried}"
    return dataclasses.replace(
        diagnostic,
        severity=Severity.WARNING,
        message=f"possibly: {diagnostic.message}; no game found that shows it",
    ).with_context(
        ("reasoning", "read from the card's words by the rule; an error needs a game that replays to the break"),
        ("no game found", bounds),
    )


def proof_comments(name: str, found: Found, target: Path) -> tuple[str, ...]:
    """The comment lines at the top of a proof's log: the pack, the break, the cards, the start and
    the commands that replay it. Every character that would break a line is shown as ``?``, so the
    comments take as many lines whatever the paths are (:func:`proof_line` counts on it)."""
    log = target / LOG_FILE
    comments = (
        f"Proof of a break of core §8 found by `sgcheck check` in {name}:",
        found.message,
        f"Cards: {', '.join(found.cards) or 'none'}; where: {found.situation}.",
        f"Start: the probe position '{found.probe.name}' (probe.scenario.yaml); then "
        f"{plural(played_actions(found.path), 'action')} over {plural(found.turns, 'turn')}.",
        *(
            (f"Projected past the turns played ({found.projected}): this game shows the copies begin.",)
            if found.projected
            else ()
        ),
        "The pack breaks the contract, so replay plays it with --allow-violations; from where",
        "`sgcheck check` ran, or from this folder:",
        f"  sgcheck replay --allow-violations {shlex.quote(str(log))}",
        f"  sgcheck replay --allow-violations {LOG_FILE}",
    )
    return tuple("".join(ch if ch.isprintable() else "?" for ch in line) for line in comments)


def proof_log_of(found: Found, by_name: dict[str, Card], name: str, target: Path, ruleset: Ruleset) -> str:
    """The text of ``found``'s proof log, as ``check --explain-break`` writes it under ``target``."""
    dealt = [by_name[n] for n in dict.fromkeys((*found.hands[0], *found.hands[1])) if n in by_name]
    return proof_log(
        cards=dealt,
        scenario=found.probe.scenario,
        hands=found.hands,
        actions=found.path,
        ruleset=ruleset,
        comments=proof_comments(name, found, target),
        refused=found.kind == REFUSED_KIND,
    )


def _breaking_step(found: Found, by_name: dict[str, Card], ruleset: Ruleset) -> int:
    """How many actions of ``found``'s path replay plays up to its break: the run-time watch
    (:func:`sgcheck.core.watch.observe`, which replay keeps) is asked at each step, for the kinds
    it reports; what the sweep found, and a refused card, is the path's last action."""
    if found.kind not in KINDS:
        return len(found.path)
    dealt = tuple(by_name[n] for n in dict.fromkeys((*found.hands[0], *found.hands[1])) if n in by_name)
    state = start(found.probe, dealt, found.hands, ruleset)
    watch = START
    for index, action in enumerate(found.path, 1):
        step = apply(state, action)
        if not isinstance(step, Applied):
            break
        watch, breaches = observe(watch, state, action, step)
        if any(breach.kind == found.kind for breach in breaches):
            return index
        state = step.state
    return len(found.path)


def proof_line(found: Found, by_name: dict[str, Card], name: str, ruleset: Ruleset = CORE) -> str:
    """What replay reports at ``found``'s break and where: ``SG-R131 at line 17 of proof.sglog``.
    The line is the last of the log written up to the step at which the run-time watch sees the
    break (the lines before a step do not depend on the steps after it)."""
    steps = _breaking_step(found, by_name, ruleset)
    upto = dataclasses.replace(found, path=found.path[:steps])
    try:
        lines = proof_log_of(upto, by_name, name, Path("proof"), ruleset).splitlines()
    except ValueError as error:  # a game the proof cannot write: said, never hidden
        return f"no log can be written for this game: {error}"
    line = len(lines)
    if steps and isinstance(found.path[steps - 1], EnterPhase):
        # a phase entered is written on no line of its own: replay places what happens as it
        # starts at the line its turn opens with
        line = max((n for n, text in enumerate(lines, 1) if _TURN_LINE.match(text)), default=line)
    code, what = replayed_as(found.kind, found.what)
    seen = f"{code}, {what}," if code is not None else f"{what}"
    return f"replay shows {seen} at line {line} of {LOG_FILE} (`sgcheck check --explain-break DIR` writes it)"
