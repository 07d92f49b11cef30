"""The one stamp of a file: what decides that a file changed since it was last looked at.

A :class:`Stamp` is a file's identity and state: its inode, size and modification time (ns), and
the hash of its bytes when they were read (BLAKE2b, :func:`digest_of`). Two uses, one record:

* a cache of what was made from files (a checked pack, a scenario, the language server's replay
  of a log) keeps the :func:`stamp` of each file it read and makes it again when one differs;
  an editor's unsaved text stands for its file (``lang.source.overlaid``) and is stamped by the
  hash of that text instead;
* a rewrite (``sgcheck fmt``, ``check --fix``) keeps :meth:`Stamp.of` what it read and refuses to
  write over a file whose size, time or bytes differ from it just before the write
  (``lang/rewrite.py``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Stamp", "digest_of", "hasher", "stamp", "stamps"]

#: The inode of a stamp taken of an editor's text rather than of a file.
HELD = -2


def hasher() -> hashlib.blake2b:
    """The hash a stamp keeps of a file's bytes."""
    return hashlib.blake2b(digest_size=32)


def digest_of(data: bytes | Iterable[bytes]) -> bytes:
    """The hash of ``data``: its bytes whole, or the pieces as they were read."""
    found = hasher()
    for piece in (data,) if isinstance(data, bytes) else data:
        found.update(piece)
    return found.digest()


@dataclass(frozen=True, slots=True)
class Stamp:
    """A file as it was seen: inode, size, modification time (ns) and the hash of the bytes read
    (empty when they were not read)."""

    inode: int
    size: int
    mtime_ns: int
    digest: bytes = b""

    @classmethod
    def of(cls, status: os.stat_result, data: bytes | Iterable[bytes]) -> Stamp:
        """The stamp of a file whose ``stat`` (taken just before the read) was ``status`` and whose
        bytes are ``data`` (whole, or the pieces as they were read)."""
        return cls(status.st_ino, status.st_size, status.st_mtime_ns, digest_of(data))

    def same_stat(self, status: os.stat_result) -> bool:
        """``status`` has the size and modification time this stamp saw (the file may still be
        another one, or hold other bytes: a rewrite compares the hash as well)."""
        return (status.st_size, status.st_mtime_ns) == (self.size, self.mtime_ns)


def stamp(path: str | os.PathLike[str]) -> Stamp | None:
    """The file at ``path`` as it is now, without reading it: the editor's text held for it
    (hashed), else its ``stat``; None when there is no such file."""
    from sgcheck.lang.source import overlay_text

    held = overlay_text(path)  # an editor's unsaved text stands for the file (sgcheck.server)
    if held is not None:
        return Stamp(HELD, len(held), 0, hash(held).to_bytes(8, "little", signed=True))
    try:
        status = os.stat(path)
    except (OSError, ValueError):  # no file; a name too long for the file system, a NUL byte
        return None
    return Stamp(status.st_ino, status.st_size, status.st_mtime_ns)


def stamps(paths: Iterable[str | os.PathLike[str]]) -> tuple[Stamp | None, ...]:
    """The :func:`stamp` of each file, in order."""
    return tuple(stamp(path) for path in paths)
