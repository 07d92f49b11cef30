"""Command-line interface: parse arguments, call the library, render, exit.

Exit codes: 0 clean, 1 findings (errors in checked files, syntax errors included),
2 usage, configuration, I/O or internal error; a closed pipe ends a run quietly with its own
status. Heavy imports (lark, jsonschema) happen inside the commands that need them so that
``sgcheck --help`` stays fast.
"""

from __future__ import annotations

from typing import Any

import click

from sgcheck import __version__
from sgcheck.build import describe
from sgcheck.cli.check_cmd import check_command, schema_command
from sgcheck.cli.dice_cmd import dice_command
from sgcheck.cli.fmt_cmd import fmt_command
from sgcheck.cli.info_cmds import explain_command, rulings_command
from sgcheck.cli.odds_cmd import odds_command
from sgcheck.cli.replay_cmd import replay_command
from sgcheck.cli.server_cmd import server_command
from sgcheck.cli.simulate_cmd import simulate_command


def _written(error: OSError) -> None:
    """A write failure of click's own output becomes sgcheck's one line and exit 2, a closed pipe a
    quiet exit 0; anything else is raised."""
    from sgcheck.streams import cannot_write, end_quietly, is_closed_pipe, is_write_failure

    if is_closed_pipe(error):
        end_quietly()
    if is_write_failure(error):
        cannot_write(error)


class _Application(click.Group):
    """The command group. Click's own output (``--help`` and ``--version`` of the group and of each
    command) that cannot be written is reported as a report that cannot be: one line, exit 2,
    rather than a traceback (a full disk); a closed pipe ends it quietly with exit 0, as help
    does, rather than click's silent exit 1. The commands' own output is
    :func:`~sgcheck.cli.common.guarded`'s."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except OSError as error:
            _written(error)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as error:
            _written(error)
            raise


@click.group(
    cls=_Application,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(f"{__version__} ({describe()})", "-V", "--version", prog_name="sgcheck")
def main() -> None:
    """Rules checker for the Soul Gems tactical chess wargame.

    \b
    sgcheck replay game.sglog        audit a game log against the locked core rules
    sgcheck check mypack/            check Relic & Spell cards against the core §8 contract
    sgcheck fmt games/ mypack/       rewrite logs and card files in the canonical layout
    sgcheck explain SG-R204          what a diagnostic code means
    sgcheck rulings                  the default rulings R01-R26
    sgcheck odds                     accuracy and cost tables; the chance to capture this turn
    sgcheck simulate mypack/         play many games with and without a pack: win rates, cards
    sgcheck dice secret              verifiable dice: a secret and its commitment; the rolls
    sgcheck server                   the language server for editors (the server extra)
    """


main.add_command(replay_command)
main.add_command(check_command)
main.add_command(schema_command)
main.add_command(explain_command)
main.add_command(rulings_command)
main.add_command(odds_command)
main.add_command(fmt_command)
main.add_command(simulate_command)
main.add_command(dice_command)
main.add_command(server_command)
