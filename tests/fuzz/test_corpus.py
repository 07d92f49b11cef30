"""The regression corpus: every crafted or mutated input kept under ``corpus/``.

Each file is replayed (logs) or checked (card files and pack folders) in every output format:
text, JSON, SARIF, GitHub annotations, JUnit XML, and for a log the HTML page.
Every run keeps the promises of :func:`harness.check_sane`; a file with a known outcome must
also give its exit status and report its codes. Inputs that have made sgcheck hang or grow
without bound run first in a child process under the hang guard and the memory cap.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from .harness import ALL_FORMATS, CORPUS, REPLAY_FORMATS, check_sane, run_in_process, run_subprocess


@dataclass(frozen=True)
class Expect:
    """What a corpus input must give: ``exit`` (None: any of 0/1/2) and codes that must appear.

    ``isolated`` inputs have made sgcheck hang (exponential matching) or could exhaust memory
    (alias bombs, deep nesting): they run in a child process under the guards first.
    """

    exit: int | None
    codes: frozenset[str] = frozenset()
    isolated: bool = False


def expect(exit: int | None, *codes: str, isolated: bool = False) -> Expect:
    return Expect(exit, frozenset(codes), isolated)


CLEAN = expect(0)
ERROR = expect(1)

EXPECTED: dict[str, Expect] = {
    # game logs: reading
    "logs/empty.sglog": expect(1, "SG-P006"),
    "logs/only-comments.sglog": expect(1, "SG-P006"),
    "logs/tags-only.sglog": ERROR,
    "logs/binary.sglog": expect(1, "SG-P005"),
    "logs/nul-in-middle.sglog": expect(1, "SG-P005"),
    "logs/latin1.sglog": expect(1, "SG-P004"),
    "logs/utf16-bom.sglog": expect(1, "SG-P004"),
    "logs/utf16-be-bom.sglog": expect(1, "SG-P004"),
    "logs/truncated-utf8.sglog": expect(1, "SG-P004"),
    "logs/bom-crlf.sglog": CLEAN,
    "logs/lone-cr.sglog": CLEAN,
    "logs/mixed-line-ends.sglog": CLEAN,
    # game logs: numbers that are digits to str.isdigit() but not to the language
    "logs/turn-limit-superscript.sglog": expect(1, "SG-P007"),
    "logs/turn-limit-arabic-indic.sglog": expect(None),
    "logs/claim-superscript.sglog": ERROR,
    "logs/turn-number-superscript.sglog": ERROR,
    "logs/die-superscript.sglog": ERROR,
    "logs/fullwidth-digits.sglog": ERROR,
    # game logs: truncated and odd text
    "logs/truncated-attack.sglog": ERROR,
    "logs/truncated-tag.sglog": expect(1, "SG-P002"),
    "logs/truncated-brace-comment.sglog": expect(1, "SG-P002"),
    "logs/truncated-setup.sglog": expect(1, "SG-P002"),
    "logs/repeated-tags.sglog": expect(1, "SG-P007"),
    "logs/result-only.sglog": ERROR,
    "logs/control-characters.sglog": ERROR,
    "logs/tabs-and-wide-characters.sglog": ERROR,
    "logs/dangerous-names.sglog": expect(0, "SG-N301"),
    "logs/nested-brace-comments.sglog": expect(1, isolated=True),
    # game logs: letters that Unicode case folding would read as ASCII ones (named, never read)
    "logs/long-s-unit.sglog": expect(1, "SG-P001"),
    "logs/long-s-claim.sglog": expect(1, "SG-P003"),
    "logs/long-s-statement.sglog": expect(1, "SG-P003"),
    "logs/long-s-pass.sglog": expect(1, "SG-P001"),
    "logs/dotless-i-phase.sglog": expect(1, "SG-P001"),
    "logs/dotless-i-claim.sglog": expect(1, "SG-P001"),
    "logs/dotted-capital-i-claim.sglog": expect(1, "SG-P001"),
    "logs/kelvin-sign-setup.sglog": expect(1, "SG-P003"),
    "logs/cyrillic-and-greek-lookalikes.sglog": expect(1, "SG-P003"),
    # card language
    "cards/empty.sgcard": expect(0, "SG-P028"),
    "cards/binary.sgcard": expect(1, "SG-P005"),
    "cards/latin1.sgcard": expect(1, "SG-P004"),
    "cards/utf16-bom.sgcard": expect(1, "SG-P004"),
    "cards/bom-crlf.sgcard": CLEAN,
    "cards/lone-cr.sgcard": CLEAN,
    "cards/banner-misspelt-keyword.sgcard": expect(1, "SG-P020", isolated=True),
    "cards/spaced-banner-misspelt-keyword.sgcard": expect(1, "SG-P020", isolated=True),
    "cards/superscript-numbers.sgcard": ERROR,
    "cards/unterminated-string.sgcard": ERROR,
    "cards/unterminated-brace.sgcard": ERROR,
    "cards/control-characters.sgcard": ERROR,
    "cards/deep-braces.sgcard": expect(1, isolated=True),
    "cards/long-s-resource.sgcard": expect(1, "SG-P022"),
    "cards/dotless-i-piece.sgcard": expect(1, "SG-P022"),
    # YAML cards
    "cards/empty.sgcard.yaml": expect(0, "SG-P028"),
    "cards/bom-crlf.sgcard.yaml": CLEAN,
    "cards/utf16-bom.sgcard.yaml": expect(1, "SG-P004"),
    "cards/alias-bomb-mappings.sgcard.yaml": expect(1, "SG-P025", isolated=True),
    "cards/recursive-alias.sgcard.yaml": expect(1, isolated=True),
    "cards/deep-flow.sgcard.yaml": expect(1, "SG-P026", isolated=True),
    "cards/python-tag.sgcard.yaml": ERROR,
    "cards/special-floats.sgcard.yaml": ERROR,
    "cards/integer-forms.sgcard.yaml": ERROR,
    "cards/duplicate-keys.sgcard.yaml": ERROR,
    "cards/binary-tag.sgcard.yaml": ERROR,
    "cards/tab-indent.sgcard.yaml": expect(1, "SG-P024"),
    "cards/multi-document.sgcard.yaml": ERROR,
    "cards/superscript-numbers.sgcard.yaml": ERROR,
    "cards/lookalike-values.sgcard.yaml": expect(1, "SG-P027"),
    "cards/dangerous-names.sgcard.yaml": expect(1, "SG-C140"),
    "cards/trailing-blank-text.sgcard.yaml": expect(0, "SG-C090"),  # a text line ending in a blank (fmt)
    # pack folders (the manifest is what is odd)
    "packs/superscript-turn-limit": expect(1, "SG-C205"),
    "packs/superscript-king-value": expect(1, "SG-C205"),
    "packs/empty-manifest": expect(1, "SG-C201"),
    "packs/manifest-not-a-mapping": expect(1, "SG-C201"),
    "packs/manifest-binary": expect(1, "SG-P005"),
    "packs/manifest-latin1": expect(1, "SG-P004"),
    "packs/manifest-alias-bomb": expect(1, "SG-P025", isolated=True),
    "packs/manifest-deep-flow": expect(1, "SG-P026", isolated=True),
    "packs/manifest-recursive-alias": expect(1, isolated=True),
    "packs/odd-card-paths": expect(1, "SG-C202", "SG-C203"),
    "packs/odd-draft-values": CLEAN,
    "packs/control-characters": expect(1, "SG-C201"),
    # shipped examples with one line dropped, duplicated or swapped, or one bit flipped
    "mutants/full-game-swapped.sglog": ERROR,
    "mutants/full-game-dropped.sglog": ERROR,
    "mutants/guide-example-b-flipped.sglog": ERROR,
    "mutants/guide-relics-duplicated.sgcard": ERROR,
    "mutants/guide-relics-flipped.sgcard": ERROR,
    "mutants/guide-relics-swapped.sgcard.yaml": ERROR,
}


def _inputs() -> list[str]:
    """Every corpus input: each file of logs/, cards/ and mutants/, each folder of packs/."""
    found = [f"packs/{p.name}" for p in (CORPUS / "packs").iterdir() if p.is_dir()]
    for folder in ("logs", "cards", "mutants"):
        found.extend(f"{folder}/{p.name}" for p in (CORPUS / folder).iterdir() if p.is_file())
    return sorted(found)


def _command(name: str) -> str:
    return "replay" if name.endswith(".sglog") else "check"


def test_every_corpus_input_has_an_expectation() -> None:
    """The corpus and its table agree, so no kept input goes unchecked and no entry is stale."""
    assert sorted(EXPECTED) == _inputs()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_input(name: str) -> None:
    """No input produces a traceback, an internal error or an exit status outside 0/1/2; JSON and
    SARIF are complete, valid documents; time and memory stay bounded; and an input with a known
    outcome reports it."""
    expected = EXPECTED[name]
    path = f"tests/fuzz/corpus/{name}"
    command = _command(name)
    outcomes = []
    if expected.isolated:
        outcomes.append(check_sane(run_subprocess(command, path, fmt="json")))
    formats = REPLAY_FORMATS if command == "replay" else ALL_FORMATS
    outcomes.extend(check_sane(run_in_process(command, path, fmt=fmt)) for fmt in formats)
    for outcome in outcomes:
        if expected.exit is not None:
            assert outcome.exit_code == expected.exit, outcome.describe()
        if outcome.fmt in ("junit", "html"):
            continue  # their codes are checked through the other formats
        missing = expected.codes - set(outcome.codes())
        assert not missing, f"{sorted(missing)} not reported\n{outcome.describe()}"
    if command == "replay":
        json_outcome = next(o for o in outcomes if o.fmt == "json")
        assert [f["path"] for f in json_outcome.document["files"]] == [path]
