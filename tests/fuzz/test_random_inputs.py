"""Hypothesis: random text, random bytes and random mutations of the examples, through the command
line in process (cheap enough for many examples; each run has a hang guard).

Every run keeps the promises of :func:`harness.check_sane`: exit status 0, 1 or 2, no traceback,
no internal error, and a complete, valid report in the format asked for.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .harness import (
    ALL_FORMATS,
    EXAMPLES,
    REPLAY_FORMATS,
    Mutation,
    apply_mutations,
    check_sane,
    mutations,
    run_in_process,
    scratch_folder,
)

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Odd characters every language must survive: digits that are not ASCII, a BOM, a NUL, a
#: bidirectional override, isolate and mark, an escape, a bell, NEL, line ends of every kind.
ODD = ["²", "¹⁰", "٣", "１０", "\ufeff", "\x00", "\u202e", "\u2066", "\u200f", "\x1b[2J", "\x07", "\x85"]
ODD += ["é", "東", "\r\n", "\r", "\t", "\u2028", "9" * 40]
#: Letters that Unicode case folding once matched to ASCII keywords (ſ, ı, İ, the Kelvin sign),
#: and look-alikes that it does not (Cyrillic, fullwidth, a ligature).
ODD += ["ſ", "ı", "İ", "\u212a", "ſp", "paſs", "hıt", "\u0430", "\u0455", "ｓ", "ﬀ"]

LOG_WORDS = [
    *["[Event", '"Fuzz"]', "[TurnLimit", '"30"]', '"²"]', "[Result", '"*"]', '"1-0"]', "[Ruleset", '"core"]'],
    *["rolloff", "white", "black", "choose", "king", "e1", "e8", "a1", "a3", "a5", "d8", "Ra1", "Ra3", "Pa5"],
    *["1.", "1...", "2.", "4.", "upkeep:", "main1:", "battle:", "main2:", "end:", "summon", "move", "attack"],
    *["teleport", "break", "repair", "activate", "pass", "R", "P", "Q", "K", "roll", "cost", "lp", "sp"],
    *["threshold", "hit", "miss", "damage", "capture", "gain", "5sp", "result", "*", "1-0", "1/2-1/2"],
    *["{", "}", ";", "\n", "0", "1", "3", "6", "10", "60", "100"],
    *ODD,
]

CARD_WORDS = [
    *["relic", "spell", "passive", "activated", "instant", "{", "}", "cost", "SP", "LP", "phase", "main1"],
    *["battle", "text", '"Name"', '"', "effect", "on", "capture", "gain", "lose", "steal", "to_hit", "+10"],
    *["-2", "3", "damage", "this", "attack", "turn", "limit", "once", "per", "when", "target", "is", "Knight"],
    *["King", "own", "enemy", "equal", "to", "extra", "phase", "movement", "after", ":", "#", "#" * 12, "\n"],
    *ODD,
]

YAML_WORDS = [
    *["cards:", "- name:", "Soul Drain", "kind:", "spell", "relic", "mode:", "passive", "cost:", "{SP: 3}"],
    *["phase:", "main1", "effects:", "- steal:", "{amount: 5, resource: SP}", "to_hit:", "10", "when:"],
    *["&a", "*a", "<<:", "!!python/object/apply:os.system", "!!binary", "[", "]", "{", "}", ":", "-", ",", "?"],
    *["'", '"', "|", ">", "---", "...", "%YAML 1.1", ".inf", ".nan", "0x1F", "0o17", "~", "null", "#"],
    *["\n", "\n  ", "\n    ", "  ", "text: |", "text: |-", "text: >", "a line \n", " \n", "\t\n"],
    *ODD,
]

MANIFEST_WORDS = [
    *["name:", "pack", "version:", "1.0.0", "ruleset:", "core", '"core; king_value=3"', '"core; turn_limit=¹"'],
    *["description:", "draft:", "draw:", "keep:", "hand_limit:", "5", "3", "cards:", "- cards.sgcard"],
    *["- ../outside.sgcard", "- /dev/zero", "- sgpack.yaml", "- .", "- missing.sgcard"],
    *YAML_WORDS,
]

RULESET_ALPHABET = "core;king_value=income=allturn_limit0123456789²¹٣１ ,.-+_:\t\x00é"

SOUL_DRAIN = 'spell "Soul Drain" {\n    cost 3 SP\n    phase main1\n    effect steal 5 SP\n}\n'
EXAMPLE_LOGS = sorted(EXAMPLES.glob("logs/**/*.sglog"))
EXAMPLE_CARD_FILES = sorted(p for p in EXAMPLES.rglob("*") if p.name.endswith((".sgcard", ".sgcard.yaml")))
WRONG_HIT = "examples/logs/broken/wrong-hit.sglog"
GUIDE_CARDS = "examples/cards/guide-relics.sgcard"


def _words(words: list[str], max_size: int = 60) -> st.SearchStrategy[str]:
    """Sequences of the language's words and odd characters, joined by spaces, newlines or nothing."""
    pieces = st.one_of(st.sampled_from(words), st.text(max_size=4))
    return st.tuples(st.lists(pieces, max_size=max_size), st.sampled_from([" ", "\n", ""])).map(
        lambda parts: parts[1].join(parts[0])
    )


@st.composite
def mutants(draw: st.DrawFn, sources: list[Path]) -> tuple[Path, list[Mutation]]:
    """An example file and one to four mutations of it (lines, bytes and bits drawn within the
    file, so a failure shrinks to the fewest and smallest changes)."""
    source = draw(st.sampled_from(sources))
    return source, draw(mutations(source.read_bytes(), min_size=1, max_size=4))


# --- game logs through standard input ------------------------------------------------------------


@FUZZ
@given(text=_words(LOG_WORDS, 80), fmt=st.sampled_from(REPLAY_FORMATS), keep_going=st.booleans())
def test_random_log_text(text: str, fmt: str, keep_going: bool) -> None:
    """No log text, however wrong, produces a traceback, an internal error or an invalid report."""
    options = ["--keep-going"] if keep_going else []
    check_sane(run_in_process("replay", *options, "-", fmt=fmt, stdin=text.encode()), inputs=1)


@FUZZ
@given(data=st.binary(max_size=400), fmt=st.sampled_from(REPLAY_FORMATS))
def test_random_log_bytes(data: bytes, fmt: str) -> None:
    """No byte string given as a log (binary, not UTF-8, any line ends) breaks the report."""
    check_sane(run_in_process("replay", "-", fmt=fmt, stdin=data), inputs=1)


@FUZZ
@given(mutant=mutants(EXAMPLE_LOGS), fmt=st.sampled_from(REPLAY_FORMATS), keep_going=st.booleans())
def test_randomly_mutated_example_logs(mutant: tuple[Path, list[Mutation]], fmt: str, keep_going: bool) -> None:
    """An example log with random lines dropped, duplicated or swapped, bits flipped or its end
    cut off is reported, never crashed on."""
    source, steps = mutant
    data = apply_mutations(source.read_bytes(), steps)
    options = ["--keep-going"] if keep_going else []
    check_sane(run_in_process("replay", *options, "-", fmt=fmt, stdin=data), inputs=1)


# --- card files, YAML cards and manifests ------------------------------------------------------------


@FUZZ
@given(text=_words(CARD_WORDS, 60), fmt=st.sampled_from(ALL_FORMATS))
def test_random_card_text(text: str, fmt: str) -> None:
    """No text in a `.sgcard` file produces a traceback, an internal error or an invalid report,
    and none takes unbounded time (the hang guard)."""
    path = scratch_folder() / "random.sgcard"
    path.write_text(text, encoding="utf-8")
    check_sane(run_in_process("check", "--isolated", str(path), fmt=fmt))


@FUZZ
@given(text=_words(YAML_WORDS, 60), fmt=st.sampled_from(ALL_FORMATS))
def test_random_yaml_card_text(text: str, fmt: str) -> None:
    """No text in a YAML card file (aliases, tags, odd scalars, broken structure) breaks a run."""
    path = scratch_folder() / "random.sgcard.yaml"
    path.write_text(text, encoding="utf-8")
    check_sane(run_in_process("check", "--isolated", str(path), fmt=fmt))


@FUZZ
@given(
    data=st.binary(max_size=400), suffix=st.sampled_from([".sgcard", ".sgcard.yaml"]), fmt=st.sampled_from(ALL_FORMATS)
)
def test_random_card_bytes(data: bytes, suffix: str, fmt: str) -> None:
    """No byte string in a card file breaks a run."""
    path = scratch_folder() / f"bytes{suffix}"
    path.write_bytes(data)
    check_sane(run_in_process("check", "--isolated", str(path), fmt=fmt))


@FUZZ
@given(mutant=mutants(EXAMPLE_CARD_FILES), fmt=st.sampled_from(ALL_FORMATS))
def test_randomly_mutated_example_card_files(mutant: tuple[Path, list[Mutation]], fmt: str) -> None:
    """An example card file with random mutations is reported, never crashed on."""
    source, steps = mutant
    path = scratch_folder() / f"mutated.{source.name.partition('.')[2]}"
    path.write_bytes(apply_mutations(source.read_bytes(), steps))
    check_sane(run_in_process("check", "--isolated", str(path), fmt=fmt))


@FUZZ
@given(text=_words(MANIFEST_WORDS, 50), fmt=st.sampled_from(ALL_FORMATS))
def test_random_manifest_text(text: str, fmt: str) -> None:
    """No manifest text (odd paths, rulesets, draft settings, broken YAML) breaks a run."""
    pack = scratch_folder() / "pack"
    pack.mkdir(exist_ok=True)
    (pack / "cards.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    (pack / "sgpack.yaml").write_text(text, encoding="utf-8")
    check_sane(run_in_process("check", "--isolated", str(pack), fmt=fmt))


# --- the --ruleset option ---------------------------------------------------------------------------


def _ruleset_outcome_is_sane(args: tuple[str, ...], fmt: str) -> None:
    outcome = run_in_process(*args, fmt=fmt)
    if outcome.exit_code == 2 and not outcome.stdout:
        check_sane(outcome, expect_report=False)
        assert "Error:" in outcome.stderr and "--ruleset" in outcome.stderr, outcome.describe()
    else:
        check_sane(outcome)


@FUZZ
@given(profile=st.text(RULESET_ALPHABET, max_size=30), fmt=st.sampled_from(ALL_FORMATS))
def test_random_ruleset_option_for_replay(profile: str, fmt: str) -> None:
    """A bad `--ruleset` (such as `king_value=²`) is a usage error naming the option (exit status
    2, no traceback); a good one gives a valid report."""
    _ruleset_outcome_is_sane(("replay", "--ruleset", profile, WRONG_HIT), fmt)


@FUZZ
@given(profile=st.text(RULESET_ALPHABET, max_size=30), fmt=st.sampled_from(ALL_FORMATS))
def test_random_ruleset_option_for_check(profile: str, fmt: str) -> None:
    """`sgcheck check --ruleset` handles any profile text like replay does."""
    _ruleset_outcome_is_sane(("check", "--isolated", "--ruleset", profile, GUIDE_CARDS), fmt)


@pytest.mark.parametrize("profile", ["king_value=²", "turn_limit=¹", "king_value=٣", "income=all; turn_limit=１０"])
@pytest.mark.parametrize("command", ["replay", "check"])
def test_ruleset_option_with_digits_that_are_not_ascii(command: str, profile: str) -> None:
    """`--ruleset 'king_value=²'` once ended in a raw traceback with exit status 1: digits that
    `str.isdigit()` accepts but the language does not are a usage error, or accepted with the
    value they denote, never a crash."""
    target = WRONG_HIT if command == "replay" else GUIDE_CARDS
    args = (
        (command, "--ruleset", profile, target)
        if command == "replay"
        else (command, "--isolated", "--ruleset", profile, target)
    )
    _ruleset_outcome_is_sane(args, "json")
