"""``python -m sgcheck``."""

from sgcheck.cli import main

main()
