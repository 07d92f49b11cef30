"""``python -m sgcheck``."""

from sgcheck.launcher import run

run()
