"""Every shipped example, mutated with a fixed seed: a line dropped, duplicated or swapped, a bit
flipped, or the file cut short.

The mutants are the same on every run (the seed is the file's name, the mutation and its number),
so a failure is reproducible. All mutants of one kind go through one command line, which also
checks that many broken files in one run each get their own entry in a complete report.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from .harness import EXAMPLES, FORMATS, MUTATIONS, check_sane, mutate, run_in_process

MUTANTS_PER_KIND = 1

EXAMPLE_LOGS = sorted(EXAMPLES.glob("logs/**/*.sglog"))
EXAMPLE_CARD_FILES = sorted(p for p in EXAMPLES.rglob("*") if p.name.endswith((".sgcard", ".sgcard.yaml")))
EXAMPLE_PACKS = sorted(p.parent for p in EXAMPLES.glob("packs/*/sgpack.yaml"))


def _mutants(source: Path, folder: Path) -> list[Path]:
    """The fixed mutants of ``source``, written into ``folder`` under names that keep its suffix."""
    data = source.read_bytes()
    stem, _, suffix = source.name.partition(".")
    written = []
    for kind in MUTATIONS:
        for number in range(MUTANTS_PER_KIND):
            rng = random.Random(f"{source.relative_to(EXAMPLES)}:{kind}:{number}")
            path = folder / f"{source.parent.name}-{stem}-{kind}-{number}.{suffix}"
            path.write_bytes(mutate(data, kind, rng))
            written.append(path)
    return written


@pytest.fixture(scope="module")
def mutated_logs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("mutated-logs")
    return [str(path) for source in EXAMPLE_LOGS for path in _mutants(source, folder)]


@pytest.fixture(scope="module")
def mutated_card_files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("mutated-cards")
    return [str(path) for source in EXAMPLE_CARD_FILES for path in _mutants(source, folder)]


@pytest.fixture(scope="module")
def mutated_packs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Copies of the example packs, each with its manifest mutated."""
    root = tmp_path_factory.mktemp("mutated-packs")
    packs = []
    for pack in EXAMPLE_PACKS:
        scratch = root / f"{pack.name}-sources"
        scratch.mkdir()
        for manifest in _mutants(pack / "sgpack.yaml", scratch):
            copy = root / manifest.name.replace(".yaml", "")
            shutil.copytree(pack, copy)
            shutil.copyfile(manifest, copy / "sgpack.yaml")
            packs.append(str(copy))
    return packs


def test_the_examples_are_all_mutated(mutated_logs: list[str], mutated_card_files: list[str]) -> None:
    """The mutation corpus covers every shipped example log and card file."""
    assert len(EXAMPLE_LOGS) >= 20 and len(EXAMPLE_CARD_FILES) >= 10 and len(EXAMPLE_PACKS) >= 2
    assert len(mutated_logs) == len(EXAMPLE_LOGS) * len(MUTATIONS) * MUTANTS_PER_KIND
    assert len(mutated_card_files) == len(EXAMPLE_CARD_FILES) * len(MUTATIONS) * MUTANTS_PER_KIND


@pytest.mark.parametrize("fmt", FORMATS)
def test_mutated_example_logs(mutated_logs: list[str], fmt: str) -> None:
    """Replaying every mutant of every example log in one run: no traceback, no internal error,
    exit status 0/1/2, and a complete report with one entry per log."""
    check_sane(run_in_process("replay", *mutated_logs, fmt=fmt), inputs=len(mutated_logs))


def test_mutated_example_logs_with_keep_going(mutated_logs: list[str]) -> None:
    """The same with `--keep-going`, which replays past every illegal action of every mutant."""
    check_sane(run_in_process("replay", "--keep-going", *mutated_logs, fmt="json"), inputs=len(mutated_logs))


@pytest.mark.parametrize("fmt", FORMATS)
def test_mutated_example_card_files(mutated_card_files: list[str], fmt: str) -> None:
    """Checking every mutant of every example card file in one run keeps every promise, and each
    file is reported."""
    outcome = check_sane(run_in_process("check", "--isolated", *mutated_card_files, fmt=fmt))
    if fmt == "json":
        assert len(outcome.document["files"]) == len(mutated_card_files), outcome.describe()


@pytest.mark.parametrize("fmt", FORMATS)
def test_mutated_example_manifests(mutated_packs: list[str], fmt: str) -> None:
    """Checking the example packs with mutated manifests keeps every promise."""
    check_sane(run_in_process("check", "--isolated", *mutated_packs, fmt=fmt))
