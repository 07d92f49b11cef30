"""The card language: ``.sgcard`` files and YAML cards, loaded into one typed model."""
