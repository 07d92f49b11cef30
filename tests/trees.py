"""A folder tree written for a test: files by relative name, text (UTF-8) or bytes."""

from __future__ import annotations

from pathlib import Path


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` under ``folder`` (making sub-folders); return ``folder``."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder
