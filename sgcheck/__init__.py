"""sgcheck: the rules checker for the Soul Gems tactical chess wargame.

The Python library is :mod:`sgcheck.api`, whose names are here too (``sgcheck.read_game``,
``sgcheck.Position``, ...), imported on first use so that ``import sgcheck`` stays light; see
docs/api.md. With ``SGCHECK_PURE=1`` set, a compiled install runs its pure Python sources
(:mod:`sgcheck.build`).
"""

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sgcheck.api import (
        Finding,
        Game,
        IllegalAction,
        LegalAction,
        Pack,
        Position,
        check_pack,
        parse_game,
        read_game,
        read_pack,
    )

__version__ = "0.1.0"

if os.environ.get("SGCHECK_PURE") == "1":
    from sgcheck.build import prefer_pure

    prefer_pure()

__all__ = [
    "Finding",
    "Game",
    "IllegalAction",
    "LegalAction",
    "Pack",
    "Position",
    "__version__",
    "check_pack",
    "parse_game",
    "read_game",
    "read_pack",
]

#: The public names of :mod:`sgcheck.api`, served from here.
_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    if name in _API:
        from sgcheck import api

        return getattr(api, name)
    raise AttributeError(f"module 'sgcheck' has no attribute {name!r}")
