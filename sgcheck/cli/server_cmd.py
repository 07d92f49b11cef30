"""``sgcheck server``: the language server over standard input and output (sgcheck.server)."""

from __future__ import annotations

import click


@click.command("server", short_help="Run the language server (LSP) over standard input and output.")
def server_command() -> None:
    """Run sgcheck's language server over standard input and output, for editors: the findings of
    replay and check as you type, hover, completion, fixes and formatting (docs/server.md).

    \b
    Needs the server extra: pip install 'sgcheck[server]'.
    """
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        click.echo("sgcheck: the language server needs pygls and lsprotocol: pip install 'sgcheck[server]'", err=True)
        raise SystemExit(2) from None
    from sgcheck.server.app import main

    main()
