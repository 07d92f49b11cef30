"""Rewrite a file in place, only if it still holds what was read: what ``fmt`` and ``check --fix`` write.

A file is rewritten where it is (opened for reading and writing, the new bytes written from
its start, the rest cut off), as black and ruff write: the file stays the same file, so its
owner, group, mode, ACLs and every hard link to it are kept by construction, and a symbolic
link keeps pointing at it. The new bytes are prepared whole before the file is opened and
written in one go; when they are longer than the file, the room is reserved first
(``posix_fallocate``), so a full disk is found before a byte of the file changes.

Nothing is written over a file that:

- is read-only: sgcheck may not write it (``os.access``), or no one may (its mode has no write
  bit: ``chmod a-w``, 0444). The second rule holds for root too, who can open any file for
  writing; vim decides a file is read-only the same way;
- changed since it was read: its size, modification time (ns) or the hash of its bytes
  (BLAKE2b) differs from the :class:`~sgcheck.project.stamps.Stamp` taken when it was read, checked
  just before the write.

Either is reported as ``SG-P009`` at the file, which is left as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat

from sgcheck import codes
from sgcheck.diagnostics import Diagnostic, Span
from sgcheck.project import stamps
from sgcheck.project.stamps import Stamp

__all__ = ["rewrite_file", "stat_before_read"]

#: Bytes read at a time when the file is compared with its stamp.
CHUNK_BYTES = 1 << 20


def stat_before_read(path: str | os.PathLike[str]) -> os.stat_result | None:
    """The ``stat`` of ``path`` to take just before reading it (a link followed), or None when there
    is none: the read then says why, or the rewrite refuses the file as changed."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _refused(path: str, why: str) -> Diagnostic:
    return codes.diagnostic("SG-P009", f"not rewritten: {why}; it is left as it was").at(Span.point(path))


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def rewrite_file(path: str, data: bytes, stamp: Stamp | None) -> Diagnostic | None:
    """Write ``data`` over the file at ``path`` in place, if it is writable and still what ``stamp``
    says was read (None: nothing was recorded, so it is not written); None, or SG-P009 saying why
    the file was left alone (or, after a failure in the middle of writing, what it holds)."""
    if stamp is None:
        return _refused(path, "the file could not be examined when it was read")
    try:
        status = os.stat(path)
    except OSError as error:
        return _refused(path, f"the file cannot be examined ({_reason(error)})")
    if not stat.S_ISREG(status.st_mode):
        return _refused(path, "the file is no longer a regular file")
    if not status.st_mode & 0o222:
        return _refused(path, "the file is read-only (its mode gives no one write permission)")
    if not os.access(path, os.W_OK):
        return _refused(path, "the file is read-only for this user (no write permission)")
    flags = os.O_RDWR | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(path, flags)
    except OSError as error:
        return _refused(path, f"the file cannot be opened for writing ({_reason(error)})")
    try:
        return _rewrite_open(handle, path, data, stamp)
    finally:
        os.close(handle)


def _rewrite_open(handle: int, path: str, data: bytes, stamp: Stamp) -> Diagnostic | None:
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            return _refused(path, "the file is no longer a regular file")
        if not stamp.same_stat(status) or _digest(handle) != stamp.digest:
            return _refused(path, "the file changed after it was read (another program wrote it meanwhile)")
        reserved = _reserve(handle, status.st_size, len(data))
    except OSError as error:
        return _refused(path, f"the file cannot be read again to compare ({_reason(error)})")
    if reserved is not None:
        return _refused(path, f"there is no room for the new text ({reserved})")
    try:
        os.lseek(handle, 0, os.SEEK_SET)
        view = memoryview(data)
        while view:
            written = os.write(handle, view)
            view = view[written:]
        os.ftruncate(handle, len(data))
        os.fsync(handle)
    except OSError as error:
        message = f"writing failed part way ({_reason(error)}); the file may be incomplete: check it"
        return codes.diagnostic("SG-P009", message).at(Span.point(path))
    return None


def _digest(handle: int) -> bytes:
    """The hash of the whole file behind ``handle``, read from its start."""
    os.lseek(handle, 0, os.SEEK_SET)
    hasher = stamps.hasher()
    while piece := os.read(handle, CHUNK_BYTES):
        hasher.update(piece)
    return hasher.digest()


#: What ``posix_fallocate`` says when the file system cannot reserve room ahead (nothing is reserved).
_NOT_SUPPORTED = frozenset({errno.EOPNOTSUPP, errno.EINVAL, getattr(errno, "ENOSYS", errno.EINVAL)})


def _reserve(handle: int, size: int, wanted: int) -> str | None:
    """Reserve the room the new bytes need beyond the file's ``size`` before any byte is written:
    None, or why there is none (the file is cut back to its size, as it was)."""
    allocate = getattr(os, "posix_fallocate", None)
    if allocate is None or wanted <= size:
        return None
    try:
        allocate(handle, size, wanted - size)
    except OSError as error:
        if error.errno in _NOT_SUPPORTED:
            return None
        with contextlib.suppress(OSError):  # some systems reserve by writing: cut back what was added
            if os.fstat(handle).st_size != size:
                os.ftruncate(handle, size)
        return _reason(error)
    return None
