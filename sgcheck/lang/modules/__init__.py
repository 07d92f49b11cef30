"""The module section of pack manifests (R26, docs/modules.md)."""
