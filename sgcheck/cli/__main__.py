"""``python -m sgcheck.cli``."""

from sgcheck.cli import main

main()
