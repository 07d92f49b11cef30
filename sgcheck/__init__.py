"""sgcheck: the rules checker for the Soul Gems tactical chess wargame.

With ``SGCHECK_PURE=1`` set, a compiled install runs its pure Python sources (:mod:`sgcheck.build`).
"""

import os

__version__ = "0.1.0"

if os.environ.get("SGCHECK_PURE") == "1":
    from sgcheck.build import prefer_pure

    prefer_pure()
