"""Hypothesis on ``sgcheck fmt``: random and mutated logs and card files through ``fmt -``.

``fmt`` keeps the promises of every run (exit status 0, 1 or 2, no traceback, no internal error),
and two of its own: what it writes, formatted again, does not change (the layout is a fixed
point), and a text it cannot read is refused with a finding, never written.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .harness import EXAMPLES, Mutation, Outcome, apply_mutations, check_sane, mutations, run_in_process
from .test_random_inputs import CARD_WORDS, LOG_WORDS, YAML_WORDS, _words

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Each kind of file ``fmt`` formats, by the name standard input is given.
NAMES = {"log": "<stdin>.sglog", "cards": "<stdin>.sgcard", "yaml": "<stdin>.sgcard.yaml"}
EXAMPLE_FILES = {
    "log": sorted(EXAMPLES.glob("logs/**/*.sglog")),
    "cards": sorted(EXAMPLES.rglob("*.sgcard")),
    "yaml": sorted(EXAMPLES.rglob("*.sgcard.yaml")),
}


def _fmt(data: bytes, kind: str) -> Outcome:
    return check_sane(run_in_process("fmt", "--stdin-filename", NAMES[kind], "-", fmt=None, stdin=data))


def _fmt_keeps_its_promises(data: bytes, kind: str) -> None:
    """``fmt -`` on ``data``: formatted text is a fixed point; an unread text writes nothing."""
    first = _fmt(data, kind)
    if first.exit_code != 0:
        assert first.stdout == "", f"fmt wrote text it could not read\n{first.describe()}"
        assert first.stderr.strip(), f"fmt refused a text without saying why\n{first.describe()}"
        return
    second = _fmt(first.stdout.encode("utf-8"), kind)
    assert second.exit_code == 0, f"fmt cannot read its own output\n{second.describe()}"
    assert second.stdout == first.stdout, f"formatting twice changed the text\n{first.describe()}\n{second.describe()}"


@FUZZ
@given(text=_words(LOG_WORDS, 80))
def test_fmt_random_log_text(text: str) -> None:
    _fmt_keeps_its_promises(text.encode("utf-8"), "log")


@FUZZ
@given(text=_words(CARD_WORDS, 60))
def test_fmt_random_card_text(text: str) -> None:
    _fmt_keeps_its_promises(text.encode("utf-8"), "cards")


@FUZZ
@given(text=_words(YAML_WORDS, 60))
def test_fmt_random_yaml_card_text(text: str) -> None:
    _fmt_keeps_its_promises(text.encode("utf-8"), "yaml")


@FUZZ
@given(kind=st.sampled_from(sorted(EXAMPLE_FILES)), data=st.data())
def test_fmt_randomly_mutated_examples(kind: str, data: st.DataObject) -> None:
    """An example log or card file with random lines dropped, duplicated or swapped, bits flipped
    or its end cut off is formatted to a fixed point, or refused."""
    source: Path = data.draw(st.sampled_from(EXAMPLE_FILES[kind]))
    steps: list[Mutation] = data.draw(mutations(source.read_bytes(), min_size=1, max_size=4))
    _fmt_keeps_its_promises(apply_mutations(source.read_bytes(), steps), kind)


def test_the_example_files_of_every_kind_are_fuzzed() -> None:
    assert all(EXAMPLE_FILES.values()), {kind: len(files) for kind, files in EXAMPLE_FILES.items()}
