"""sgcheck: the rules checker for the Soul Gems tactical chess wargame."""

__version__ = "0.1.0"
