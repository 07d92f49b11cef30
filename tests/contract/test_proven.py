"""No error without a proof (core §8): every error of `sgcheck check` comes with a game that replays
to the run-time break it names, at the line it names.

The check of each design of the corpus and of every example is run with ``--explain-break``'s
library path; each error that judges a game (the card and pack rules, SG-C0xx and SG-C1xx, and
the rules of play) must carry a ``proof`` context naming what replay reports and at which line of
the proof's log. The oracle is replay itself: every log written is replayed with
``--allow-violations`` and the named code must be reported at the named line of a log that deals
the error's card. An error that has no game must not exist: it is a warning that says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sgcheck.config import Config
from sgcheck.contract.checker import plan_check
from sgcheck.contract.proven import KEPT, SHOWN_BY, refusal
from sgcheck.diagnostics import Diagnostic, Severity
from tests.contract.test_corpus import design_paths
from tests.contract.test_explore import cards_of, replayed

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(
    [p for p in (ROOT / "examples" / "packs").iterdir() if p.is_dir()]
    + [p for p in (ROOT / "examples" / "modules").iterdir() if p.is_dir()]
    + [p for p in (ROOT / "examples" / "cards").iterdir() if p.name.endswith((".sgcard", ".sgcard.yaml"))]
    + [p for p in (ROOT / "examples" / "scenarios").iterdir() if p.name.endswith(".scenario.yaml")]
)
CHECKED = [*design_paths(), *EXAMPLES]

#: A scenario's ``rules:`` section and a module's market and dice (R24, R26) are reported on the
#: scenario file or the manifest; replay refuses such a scenario or module when a log names it,
#: before any action, and those findings are not given a game yet: these designs, and only these.
SCENARIO_AND_MODULE_FILES = (".scenario.yaml", "sgpack.yaml")
NOT_YET_PROVEN = frozenset(
    {"012-heavy-bishops", "015-sharpshooters-scenario", "161-omen-market-twice", "208-shield-dice-crown", "soul-master"}
)

_PROOF = re.compile(r"replay shows (?:(?P<code>SG-[A-Z]\d{3}), )?.* at line (?P<line>\d+) of proof\.sglog")


def _judges_a_game(diagnostic: Diagnostic) -> bool:
    """An error of the contract's card, pack and play rules (not the files as written: SG-C140,
    the SG-C2xx packs and configuration, the SG-P reading errors)."""
    code = diagnostic.code
    return (
        diagnostic.severity is Severity.ERROR
        and code.startswith("SG-C")
        and code[4:].isdigit()
        and int(code[4:]) < 200
        and code not in KEPT
    )


def _checked(path: Path, folder: Path) -> tuple[list[Diagnostic], list[Path]]:
    job = plan_check([str(path)], Config())
    job.proof_dir = folder
    found = [d for result, _ in job.results() for d in result.diagnostics]
    logs = [Path(line) for line in job.proofs]
    assert all(log.is_file() for log in logs), job.proofs
    return found, logs


def _card_of(diagnostic: Diagnostic) -> str:
    """The card an error is on, as its context names it (``card: relic "Name"``, ``cards: 'A', 'B'``)."""
    context = dict(diagnostic.context)
    if "card" in context:
        return context["card"].split(" ", 1)[1].strip("\"'")
    return ""


@pytest.mark.parametrize("path", CHECKED, ids=[str(p.relative_to(ROOT)) for p in CHECKED])
def test_every_error_replays_to_the_break_it_names_at_the_line_it_names(path: Path, tmp_path: Path) -> None:
    """core §8: an error says a game breaks the contract, so it comes with that game."""
    found, logs = _checked(path, tmp_path)
    seen: dict[Path, list[Diagnostic]] = {log: replayed(log) for log in logs}
    for diagnostic in filter(_judges_a_game, found):
        context = dict(diagnostic.context)
        if diagnostic.span is not None and diagnostic.span.source.endswith(SCENARIO_AND_MODULE_FILES):
            assert path.name in NOT_YET_PROVEN, f"{diagnostic.code} {diagnostic.message}: an error without a game"
            continue
        assert "proof" in context, f"{diagnostic.code} {diagnostic.message}: an error without a game"
        named = _PROOF.search(context["proof"])
        assert named is not None, context["proof"]
        line = int(named["line"])
        card = _card_of(diagnostic)
        candidates = [log for log in logs if not card or f'"{card}"' in log.read_text()]
        assert candidates, f"{diagnostic.code}: no proof log deals {card!r}"
        if named["code"] is None:  # replay has no code of its own for it: the log's last line shows it
            assert any(len(log.read_text().splitlines()) == line for log in candidates)
            continue
        hits = [
            log
            for log in candidates
            if any(d.code == named["code"] and d.span is not None and d.span.line == line for d in seen[log])
        ]
        assert hits, f"{diagnostic.code} names {named['code']} at line {line}; replay reports " + "; ".join(
            f"{log.parent.name}: {[(d.code, d.span and d.span.line) for d in seen[log]]}" for log in candidates
        )


def _check_text(text: str, tmp_path: Path) -> list[Diagnostic]:
    card_file = tmp_path / "cards.sgcard"
    card_file.write_text(text, encoding="utf-8")
    found, _ = _checked(card_file, tmp_path / "proofs")
    return found


def test_a_card_the_core_refuses_is_an_error_with_the_refused_play(tmp_path: Path) -> None:
    """core §8, R19: a rewritten core number is refused in every game (SG-R123), so the game is
    the card played, and the error stays."""
    found = _check_text('relic "Heavy Rooks" passive {\n    cost 3 SP\n    effect set value.rook 6\n}\n', tmp_path)
    (error,) = [d for d in found if d.code == "SG-C001"]
    assert error.severity is Severity.ERROR
    assert "SG-R123" in dict(error.context)["proof"]


def test_a_rule_error_no_game_shows_is_a_warning_that_says_so(tmp_path: Path) -> None:
    """core §8: a self-feeding amount (SG-C031) that no game the checker plays makes grow past a
    bound is reasoned, not proven: a warning with the reasoning, never an error. Here the doubling
    at each Upkeep sits beside the card's own loss at each End, which may keep the pool down, so
    the watch judges no game by ruling CR3 (3) and the reasoning only says it may be unbounded."""
    card = (
        'relic "Mirror" passive {\n    cost 3 SP\n    effect at upkeep: gain SP equal to own SP\n'
        "    effect at end: lose 1 SP\n}\n"
    )
    found = _check_text(card, tmp_path)
    reported = [d for d in found if d.code == "SG-C031"]
    assert reported
    for diagnostic in reported:
        assert diagnostic.severity is Severity.WARNING
        assert "no game found" in diagnostic.message
        assert "reasoning" in dict(diagnostic.context)
    assert not [d for d in found if _judges_a_game(d) and "proof" not in dict(d.context)]


def test_two_cards_sharing_a_name_stay_an_error_without_a_game(tmp_path: Path) -> None:
    """R22: a log names cards, so two cards sharing a name cannot be written in one: the files are
    wrong as written, an error that needs no game (SG-C140)."""
    card = 'spell "Twin" {\n    cost 1 SP\n    phase main1\n    effect gain 1 SP\n}\n'
    found = _check_text(card + card, tmp_path)
    (error,) = [d for d in found if d.code == "SG-C140"]
    assert error.severity is Severity.ERROR


def test_a_card_the_core_plays_has_no_refusal() -> None:
    """Only what the core refuses in every game is proven by its refusal: a legal card is played."""
    (card,) = cards_of('relic "Lance" passive {\n    cost 3 SP\n    effect to_hit +10 when distance <= 1\n}\n')
    assert refusal(card) is None


def test_every_rule_shown_by_play_names_kinds_the_watch_or_the_sweep_reports() -> None:
    """Each consequence a rule reads is one the explorer can find (core §8's list)."""
    from sgcheck.core.watch import KINDS

    swept = {"cap", "king-immune"}
    for code, kinds in SHOWN_BY.items():
        assert kinds, code
        assert kinds <= set(KINDS) | swept, (code, kinds)
