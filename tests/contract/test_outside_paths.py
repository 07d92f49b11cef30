"""Paths sgcheck finds by itself are never shown absolute (sgcheck.paths.found_display).

A link's target and a configuration file found from the path a user named are shown relative to
the working directory when they lie under it or in a folder above it, and as ``<outside>/NAME``
anywhere else: a report never tells where the checkout lies, and is the same wherever it does.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from sgcheck.cli import main
from sgcheck.paths import OUTSIDE, found_display
from tests.fuzz.harness import ALL_FORMATS

SOUL_DRAIN = 'spell "Soul Drain" {\n    cost 3 SP\n    phase main1\n    effect steal 5 SP\n}\n'
MANIFEST = "name: pack\nversion: 1.0.0\nruleset: core\ncards:\n  - cards.sgcard\n"

needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links are not available")


def _check(*args: str, fmt: str = "text") -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args, "--format", fmt])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def _absolute_forms(folder: Path) -> list[str]:
    return sorted({str(folder), os.path.realpath(folder)})


def test_found_display_rule(tmp_path: Path) -> None:
    here = tmp_path / "work" / "checkout"
    here.mkdir(parents=True)
    start = str(here)
    assert found_display(here / "cards" / "a.sgcard", start) == "cards/a.sgcard"
    assert found_display(here / "pyproject.toml", start) == "pyproject.toml"
    assert found_display(tmp_path / "work" / "pyproject.toml", start) == "../pyproject.toml"
    assert found_display(tmp_path / "pyproject.toml", start) == "../../pyproject.toml"
    assert found_display(tmp_path / "elsewhere" / "secret.sgcard", start) == f"{OUTSIDE}/secret.sgcard"
    assert found_display(tmp_path / "work" / "other" / "x.sgcard", start) == f"{OUTSIDE}/x.sgcard"
    assert found_display("/", start) == "/".join([".."] * len(here.parts[1:]))  # a folder above, climbing


@needs_symlinks
def test_found_display_meets_through_links(tmp_path: Path) -> None:
    """A working directory reached through a link, a target given as its real path."""
    real = tmp_path / "real"
    (real / "cards").mkdir(parents=True)
    (tmp_path / "alias").symlink_to(real, target_is_directory=True)
    assert found_display(real / "cards" / "a.sgcard", str(tmp_path / "alias")) == "cards/a.sgcard"


@pytest.fixture
def linked_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``work/pack`` (the working directory is ``work``) lists two links out of the pack: one to a
    card in ``work/other``, one to a card outside ``work``."""
    if not hasattr(os, "symlink"):
        pytest.skip("symbolic links are not available")
    work = tmp_path / "work"
    pack = work / "pack"
    pack.mkdir(parents=True)
    (pack / "sgpack.yaml").write_text(MANIFEST + "  - near.sgcard\n  - far.sgcard\n", encoding="utf-8")
    (pack / "cards.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    (work / "other").mkdir()
    (work / "other" / "near.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "far.sgcard").write_text(SOUL_DRAIN, encoding="utf-8")
    (pack / "near.sgcard").symlink_to(work / "other" / "near.sgcard")
    (pack / "far.sgcard").symlink_to(tmp_path / "secret" / "far.sgcard")
    monkeypatch.chdir(work)
    return pack


def test_a_link_out_of_the_pack_names_its_target_without_an_absolute_path(linked_pack: Path) -> None:
    code, out = _check("pack")
    assert code == 1
    assert "SG-C202 card path 'near.sgcard' is a link to 'other/near.sgcard', outside the pack folder" in out
    assert "SG-C202 card path 'far.sgcard' is a link to '<outside>/far.sgcard', outside the pack folder" in out


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_no_format_holds_an_absolute_path(linked_pack: Path, fmt: str) -> None:
    code, out = _check("pack", fmt=fmt)
    assert code == 1 and "SG-C202" in out
    for absolute in _absolute_forms(linked_pack.parents[1]):
        assert absolute not in out
        assert json.dumps(absolute)[1:-1] not in out  # nor as JSON writes it


@pytest.mark.parametrize("fmt", ["text", "sarif"])
def test_a_configuration_beside_the_named_folder_is_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """Checking ``../b`` from ``a``: b's pyproject.toml is found and applies (its exclude patterns
    are read relative to its own folder), but it is not above the working directory, so reports
    name it ``<outside>/pyproject.toml``."""
    here, there = tmp_path / "a", tmp_path / "b"
    here.mkdir()
    (there / "skipped").mkdir(parents=True)
    config = '[tool.sgcheck]\nexclude = ["skipped"]\nunknown_key = 1\n'
    (there / "pyproject.toml").write_text(config, encoding="utf-8")
    (there / "good.sgcard").write_text(SOUL_DRAIN.replace("steal", "gain"), encoding="utf-8")
    (there / "skipped" / "bad.sgcard").write_text("relic {\n", encoding="utf-8")
    monkeypatch.chdir(here)
    code, out = _check("../b", fmt=fmt)
    assert code == 2  # an invalid configuration: reported, then exit 2
    assert "bad.sgcard" not in out  # the configuration's exclude still applies
    assert str(tmp_path) not in out and os.path.realpath(tmp_path) not in out
    if fmt == "text":
        assert out.startswith("<outside>/pyproject.toml:3:1: SG-C210 unknown key 'unknown_key'")
    else:
        [result] = [r for r in json.loads(out)["runs"][0]["results"] if r["ruleId"] == "SG-C210"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri == "%3Coutside%3E/pyproject.toml"


def test_a_configuration_named_with_config_is_shown_as_typed(tmp_path: Path) -> None:
    config = tmp_path / "sg.toml"
    config.write_text("[tool.sgcheck]\nunknown_key = 1\n", encoding="utf-8")
    code, out = _check("examples/cards/guide-relics.sgcard", "--config", str(config))
    assert code == 2
    assert f"{config}:2:1: SG-C210 unknown key 'unknown_key'" in out


SECRET = "//registry.example/:_authToken=npm_SECRETVALUE0123456789\n"


@pytest.mark.parametrize("entry", [".npmrc", "token", ".git/credentials", "notes.txt", "cards.sgcard.bak"])
@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_a_manifest_entry_that_is_not_a_card_file_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: str, fmt: str
) -> None:
    """The reproducer: a manifest could list any regular file of its folder as a card file (a token,
    .npmrc, .git/credentials); it was read and the text report printed its first line. An entry is
    held to the card suffixes as a link is (SG-C202): never read, only its name and place said."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pack").mkdir()
    secret = tmp_path / "pack" / entry
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text(SECRET, encoding="utf-8")
    (tmp_path / "pack" / "sgpack.yaml").write_text(
        f"name: pack\nversion: 1.0.0\nruleset: core\ncards:\n  - {entry}\n", encoding="utf-8"
    )
    code, output = _check("pack", fmt=fmt)
    assert code == 1
    assert "SG-C202" in output and "SECRET" not in output and "authToken" not in output


@pytest.mark.parametrize(
    "content",
    [
        SECRET,  # a line that YAML reads as one string
        "aws_secret_access_key: SECRETVALUE0123456789\n",  # a mapping, but not of cards
        "- SECRETVALUE0123456789\n- authToken\n",  # a list
    ],
)
@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_a_yaml_file_that_is_not_a_card_file_is_named_never_quoted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, fmt: str
) -> None:
    """A file with a card suffix (``.yaml``) that does not read as cards at all (its document is
    no mapping with a ``cards`` list) is an error naming the file, with no line of it and no value
    of it in any report (SG-P027): a token saved as ``secrets.yaml`` and listed by mistake stays
    unseen."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "secrets.yaml").write_text(content, encoding="utf-8")
    (tmp_path / "pack" / "sgpack.yaml").write_text(
        "name: pack\nversion: 1.0.0\nruleset: core\ncards:\n  - secrets.yaml\n", encoding="utf-8"
    )
    code, output = _check("pack", fmt=fmt)
    assert code == 1
    assert "SG-P027" in output and "secrets.yaml" in output
    assert "SECRET" not in output and "authToken" not in output and "aws_secret" not in output
