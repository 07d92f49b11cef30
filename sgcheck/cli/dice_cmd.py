"""``sgcheck dice``: verifiable dice at the table or online (protocol sg-dice-v1, docs/dice.md),
and the statistics of a corpus' dice.

The derivation is :mod:`sgcheck.core.dice`; this module parses the options, asks it, and hands the
typed result (:mod:`sgcheck.replay.dice_next`, :mod:`sgcheck.replay.dice_stats`) to the report layer.
A roll needs both players' keys of that roll, each checked against its player's commitment, so
no roll is ever printed before both commitments exist.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

import click

from sgcheck.cli.common import FormatChoice, guarded, output_file_option
from sgcheck.report.formats import ResultKind


def _bytes32(value: str, what: str) -> bytes:
    from sgcheck.core.dice import parse_hex

    parsed = parse_hex(value)
    if parsed is None:
        raise click.BadParameter(f"{what} must be 64 hexadecimal digits (32 bytes), not {value.strip()[:80]!r}")
    return parsed


def _read_secret(value: str) -> str:
    """SECRET as given, or read from standard input for ``-``, or from a file for ``@PATH``."""
    if value == "-":
        return _bounded_line(sys.stdin.readline(_SECRET_CHARS + 1), "standard input")
    if value.startswith("@"):
        try:
            with open(value[1:], encoding="utf-8", errors="replace") as handle:
                return _bounded_line(handle.readline(_SECRET_CHARS + 1), value[1:])
        except OSError as error:
            raise click.BadParameter(f"cannot read the secret from {value[1:]!r}: {error}") from None
    return value


#: The most characters read for a secret or key (64 hex digits, blanks and a line end besides):
#: ``@/dev/zero`` or an endless standard input is refused after these, never read on.
_SECRET_CHARS = 256


def _bounded_line(line: str, source: str) -> str:
    if len(line) > _SECRET_CHARS:
        raise click.BadParameter(
            f"the secret read from {source!r} is longer than {_SECRET_CHARS} characters: a secret is 64 hex digits"
        )
    return line.strip()


def _is_text(value: str) -> bool:
    """``value`` is text (a command line's bytes that are not UTF-8 arrive as lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@click.group("dice", short_help="Verifiable dice: secrets, commitments, rolls; dice statistics.")
def dice_command() -> None:
    """Verifiable dice (sg-dice-v1, docs/dice.md) and the statistics of a corpus' dice.

    \b
    sgcheck dice secret -o mine.secret       a new secret (kept in the file) and its commitment
    sgcheck dice commit SECRET               the commitment of a secret
    sgcheck dice key SECRET --roll 5         your key of roll 5, to tell the other player
    sgcheck dice next --game-id G --white-commit C --black-commit C --white KEY --black KEY
                                             the roll both keys reach, checked against the commitments
    sgcheck dice stats league/               chi-square test of each player's dice, per die kind
    """


@dice_command.command("secret", short_help="Create a secret and print its commitment.")
@output_file_option(
    "Write the secret to this new file (readable by you alone) and print only the commitment.",
    dash=False,
    name="output",
)
@guarded
def secret_command(**given: Any) -> int:
    """Create a secret (32 random bytes from the system's secure source, as 64 hex digits) and
    print it with its commitment. Share the commitment before the game; keep the secret."""
    return run_secret(SecretOptions(**given))


@dataclass(frozen=True, slots=True)
class SecretOptions:
    """The options of ``sgcheck dice secret``, as parsed."""

    output: str | None


def run_secret(options: SecretOptions) -> int:
    """Make a secret, write or print it with its commitment; the exit code."""
    import secrets

    from sgcheck.core.dice import commitment

    secret = secrets.token_hex(32)
    commit = commitment(bytes.fromhex(secret)).hex()
    if options.output is None:
        click.echo(f"secret      {secret}\ncommitment  {commit}")
        return 0
    try:
        fd = os.open(options.output, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        click.echo(f"sgcheck: {options.output} already exists; a secret is never written over another", err=True)
        return 2
    except OSError as error:
        click.echo(f"sgcheck: cannot write {options.output}: {error.strerror or error}", err=True)
        return 2
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(secret + "\n")
    click.echo(f"commitment  {commit}")
    return 0


@dice_command.command("commit", short_help="Print the commitment of a secret.")
@click.argument("secret")
@guarded
def commit_command(**given: Any) -> int:
    """Print the commitment of SECRET (64 hex digits; '-' reads it from standard input, @FILE
    from a file): SHA-256 applied 4096 times (docs/dice.md)."""
    return run_commit(CommitOptions(**given))


@dataclass(frozen=True, slots=True)
class CommitOptions:
    """The options of ``sgcheck dice commit``, as parsed."""

    secret: str


def run_commit(options: CommitOptions) -> int:
    """Print the commitment of the secret given; the exit code."""
    from sgcheck.core.dice import commitment

    click.echo(commitment(_bytes32(_read_secret(options.secret), "SECRET")).hex())
    return 0


@dice_command.command("key", short_help="Print your key of one roll, to tell the other player.")
@click.argument("secret")
@click.option("--roll", "index", type=click.IntRange(min=0), required=True, help="The roll's number, from 0.")
@guarded
def key_command(**given: Any) -> int:
    """Print the key of roll N of SECRET's chain ('-' reads SECRET from standard input, @FILE
    from a file). Telling it reveals nothing of the later rolls' keys."""
    return run_key(KeyOptions(**given))


@dataclass(frozen=True, slots=True)
class KeyOptions:
    """The options of ``sgcheck dice key``, as parsed."""

    secret: str
    index: int


def run_key(options: KeyOptions) -> int:
    """Print the key of the roll asked for; the exit code."""
    from sgcheck.core.dice import CHAIN_LENGTH, roll_key

    if options.index >= CHAIN_LENGTH:
        raise click.BadParameter(f"a game has rolls 0 to {CHAIN_LENGTH - 1}", param_hint="'--roll'")
    click.echo(roll_key(_bytes32(_read_secret(options.secret), "SECRET"), options.index).hex())
    return 0


def _reach(key: bytes, commit: bytes) -> int | None:
    """The roll whose key ``key`` is, in the chain ``commit`` commits to, or None."""
    from sgcheck.core.dice import reach

    return reach(key, commit)


@dice_command.command("next", short_help="Print a game's next rolls from both players' keys.")
@click.option("--game-id", required=True, help="The game's id, as in its [GameId] tag.")
@click.option("--white-commit", required=True, help="White's commitment (64 hex digits).")
@click.option("--black-commit", required=True, help="Black's commitment (64 hex digits).")
@click.option("--white", "white", required=True, help="White's key of the roll (or White's secret).")
@click.option("--black", "black", required=True, help="Black's key of the roll (or Black's secret).")
@click.option(
    "--from",
    "start",
    type=click.IntRange(min=0),
    default=None,
    help="The first roll to print (default: the last roll both keys reach).",
)
@click.option("--count", type=click.IntRange(min=1, max=4096), default=1, show_default=True, help="Rolls to print.")
@click.option(
    "--purpose",
    metavar="TEXT",
    default=None,
    help="sg-dice-v2: what the roll decides, 'rolloff', 'attack a3 a5', 'reroll a3 a5', 'advantage a3 a5', "
    "'break white' or 'repair black'; the roll is derived for it alone.",
)
@click.option("--format", "fmt", type=FormatChoice(ResultKind.DICE_NEXT), default="text", show_default=True)
@guarded
def next_command(**given: Any) -> int:
    """Print the dice of a game's rolls from both players' keys, each checked against its
    player's commitment first. A key of roll N also gives every earlier roll's key, never a later
    one; a secret is the key of the last roll, so with both secrets every roll is printed (the
    check of a finished game). Each roll is shown in every reading: two d10 (an attack's
    accuracy or a second roll), three d6 (Break, Repair) and a roll-off round."""
    return run_next(NextOptions(**given))


@dataclass(frozen=True, slots=True)
class NextOptions:
    """The options of ``sgcheck dice next``, as parsed."""

    game_id: str
    white_commit: str
    black_commit: str
    white: str
    black: str
    start: int | None
    count: int
    purpose: str | None
    fmt: str


def run_next(options: NextOptions) -> int:
    """Check both keys against their commitments, derive the rolls asked for, print them; the exit code."""
    from sgcheck.core import dice

    game_id = options.game_id
    aim = None
    if options.purpose is not None:
        aim = dice.parse_purpose(options.purpose)
        if aim is None:
            raise click.BadParameter(
                f"{options.purpose[:80]!r} is not a purpose: 'rolloff', 'attack a3 a5', 'reroll a3 a5', "
                "'advantage a3 a5', 'break white' or 'repair black'",
                param_hint="'--purpose'",
            )
    if not game_id or "\x00" in game_id or not _is_text(game_id):
        raise click.BadParameter("the game id must be a non-empty UTF-8 text", param_hint="'--game-id'")
    commits = {
        "White": _bytes32(options.white_commit, "--white-commit"),
        "Black": _bytes32(options.black_commit, "--black-commit"),
    }
    if commits["White"] == commits["Black"]:
        raise click.BadParameter("the two commitments are the same: each player commits to a secret of their own")
    keys = {"White": _bytes32(options.white, "--white"), "Black": _bytes32(options.black, "--black")}
    reach: dict[str, int] = {}
    for side in ("White", "Black"):
        found = _reach(keys[side], commits[side])
        if found is None:
            raise click.BadParameter(
                f"{side}'s key is not a key of the chain {side}'s commitment commits to "
                "(SHA-256 applied up to 4096 times never gives it)",
                param_hint=f"'--{side.lower()}'",
            )
        reach[side] = found
    last = min(reach.values())
    first = last if options.start is None else options.start
    end = first + options.count - 1
    if end > last:
        behind = " and ".join(f"{side}'s to roll {reach[side]}" for side in ("White", "Black") if reach[side] < end)
        click.echo(
            f"sgcheck: roll {end} needs both players' keys of that roll; the keys given reach {behind}", err=True
        )
        return 2
    chains = {side: _chain_from(keys[side], reach[side]) for side in keys}
    from sgcheck.replay.dice_next import NextRolls, PurposeRolls, next_rolls, purpose_rolls
    from sgcheck.report import render

    indices = range(first, end + 1)
    if aim is not None:
        rolls: NextRolls | PurposeRolls = purpose_rolls(game_id, commits, chains, indices, aim)
    else:
        rolls = next_rolls(game_id, commits, chains, indices)
    click.echo(render(rolls, options.fmt), nl=False)
    return 0


def _chain_from(key: bytes, index: int) -> dict[int, bytes]:
    """The keys of rolls ``index`` down to 0 from the key of roll ``index``."""
    from sgcheck.core.dice import step

    out = {index: key}
    for i in range(index - 1, -1, -1):
        key = step(key)
        out[i] = key
    return out


@dice_command.command("stats", short_help="Chi-square test of each player's dice in logs.")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=FormatChoice(ResultKind.DICE_STATS), default="text", show_default=True)
@guarded
def stats_command(**given: Any) -> int:
    """Count the dice of the logs (files, or folders searched for *.sglog) per player and die kind
    (d6: roll-off, Break, Repair; d10: accuracy) and test each against a fair die (Pearson's
    chi-square). A player whose dice of a kind have p < 0.001 is flagged (exit 1). Logs with
    committed dice are counted too and verified roll by roll (which were verified is said), and
    a secret two logs share is an error naming both (exit 1). A log that cannot be read is
    reported and counted, the others analysed (exit 2)."""
    return run_stats(StatsOptions(**given))


@dataclass(frozen=True, slots=True)
class StatsOptions:
    """The options of ``sgcheck dice stats``, as parsed."""

    paths: tuple[str, ...]
    fmt: str


def run_stats(options: StatsOptions) -> int:
    """Count the dice of the logs found, test them, render the statistics; the exit code."""
    from sgcheck.lang.logs.grammar import LogSyntaxError
    from sgcheck.lang.logs.reader import read_log
    from sgcheck.lang.source import SourceText, read_source
    from sgcheck.replay.dice_stats import Corpus, count_log, dice_stats
    from sgcheck.replay.files import discover_logs
    from sgcheck.report import render

    logs = discover_logs(list(options.paths))
    if not logs:
        click.echo("sgcheck: no logs (*.sglog) found in " + ", ".join(options.paths), err=True)
        return 2
    corpus = Corpus()
    for log in logs:
        if log.problem is not None:
            corpus.unread.append((log.path, log.problem.message))
            continue
        source = read_source(log.path, log.path)
        if not isinstance(source, SourceText):
            corpus.unread.append((log.path, f"not read: {source.message}"))
            corpus.unreadable += 1
            continue
        try:
            count_log(corpus, log.path, read_log(source))
        except LogSyntaxError as error:
            span = error.diagnostic.span
            where = f" at line {span.line}" if span is not None else ""
            corpus.unread.append((log.path, f"syntax error{where}; the dice before it are counted"))
    stats = dice_stats(corpus)
    click.echo(render(stats, options.fmt), nl=False)
    if stats.unreadable:
        return 2
    return 1 if stats.implausible else 0
