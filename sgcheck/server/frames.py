"""The language server's frames: reading ``Content-Length`` framed messages, bounded and resynchronising.

A client speaks in frames: header lines (``Content-Length: N``, maybe ``Content-Type``), a blank
line, then a body of N bytes holding one JSON-RPC message. :class:`Frames` cuts a byte stream
into bodies without doing any input or output itself, so it is tested and fuzzed on its own:

* a header block longer than :data:`HEADER_LIMIT` bytes, a block with no ``Content-Length``, or
  a length above :data:`FRAME_LIMIT` is a bad frame: it is reported (:class:`BadFrame`) and
  skipped, never read whole; what the reader holds never exceeds a frame and a header block;
* a wrong length never stalls the stream: a body that holds the start of another frame's header
  (``Content-Length: N`` and a line end, which no JSON text holds raw) was declared too long, so
  it is reported and reading starts again at that header; the rest of a body declared too short
  comes before the next header, which is still found (the last ``Content-Length`` of a block
  counts).

:func:`serve` runs a server over a binary stream with it: every message is handed to pygls, and
every bad frame or body that is not JSON is answered with a JSON-RPC error (``-32700`` parse
error, ``-32600`` invalid request) whose ``id`` is null, as JSON-RPC 2.0 asks when the request's
id cannot be known. The server keeps serving.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

#: The biggest body a frame may declare: 16 MiB, twice the biggest document the server reads.
FRAME_LIMIT = 16 << 20
#: The longest header block (its lines and the blank line ending it).
HEADER_LIMIT = 8 << 10
#: JSON-RPC 2.0 error codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600

_LENGTH = re.compile(rb"Content-Length:[ \t]*([0-9]{1,12})[ \t]*\r?\n", re.IGNORECASE)
_HEADER_END = re.compile(rb"\r?\n\r?\n")
#: How far back a header may start before the bytes not yet searched (a header cut between reads).
_OVERLAP = 64


@dataclass(frozen=True, slots=True)
class BadFrame:
    """A frame that could not be read: the JSON-RPC error code and what was wrong."""

    code: int
    message: str


Event = bytes | BadFrame


class Frames:
    """Cuts the bytes fed to it into frame bodies (``bytes``) and bad frames (:class:`BadFrame`)."""

    def __init__(self, frame_limit: int = FRAME_LIMIT, header_limit: int = HEADER_LIMIT) -> None:
        self.frame_limit = frame_limit
        self.header_limit = header_limit
        self._buffer = bytearray()
        #: The body's start and declared length, once a header block has been read.
        self._body: tuple[int, int] | None = None
        #: Bytes of the body already searched for another frame's header.
        self._searched = 0
        #: A header block too long was reported; its bytes are being skipped.
        self._skipping = False

    @property
    def held(self) -> int:
        """Bytes held, waiting for the rest of their frame."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[Event]:
        """The frames completed by ``data``, in order."""
        self._buffer += data
        events: list[Event] = []
        while self._step(events):
            pass
        return events

    def _step(self, events: list[Event]) -> bool:
        if self._body is None:
            return self._header(events)
        start, length = self._body
        buffer = self._buffer
        scan_from = max(start, start + self._searched - _OVERLAP)
        end = min(len(buffer), start + length)
        found = _LENGTH.search(buffer, scan_from, end + _OVERLAP if end < len(buffer) else end)
        if found is not None and found.start() < end:
            events.append(BadFrame(PARSE_ERROR, "the frame's body holds another frame: its Content-Length is wrong"))
            del buffer[: found.start()]
            self._body = None
            return True
        self._searched = end - start
        if len(buffer) < start + length:
            return False
        events.append(bytes(buffer[start : start + length]))
        del buffer[: start + length]
        self._body = None
        return True

    def _header(self, events: list[Event]) -> bool:
        buffer = self._buffer
        ended = _HEADER_END.search(buffer)
        if ended is None or ended.start() > self.header_limit:
            if len(buffer) <= self.header_limit:
                return False
            if not self._skipping:
                events.append(BadFrame(INVALID_REQUEST, f"a frame header longer than {self.header_limit} bytes"))
                self._skipping = True
            # only the last bytes of a header block too long are kept: they may hold the length of
            # the frame that follows it
            del buffer[: (len(buffer) if ended is None else ended.start()) - self.header_limit]
            if ended is None:
                return False
            ended = _HEADER_END.search(buffer)
            assert ended is not None
        skipped, self._skipping = self._skipping, False
        lengths = list(_LENGTH.finditer(buffer, 0, ended.end()))
        if not lengths:
            if buffer[: ended.start()].strip() and not skipped:
                events.append(BadFrame(INVALID_REQUEST, "a frame header without Content-Length"))
            del buffer[: ended.end()]
            return True
        length = int(lengths[-1].group(1))
        if length > self.frame_limit:
            events.append(BadFrame(INVALID_REQUEST, f"a frame of {length} bytes, over the limit of {self.frame_limit}"))
            del buffer[: ended.end()]
            return True
        self._body = (ended.end(), length)
        self._searched = 0
        return True


def error_response(bad: BadFrame) -> dict[str, Any]:
    """The JSON-RPC error that answers a bad frame (its request's id cannot be known)."""
    return {"jsonrpc": "2.0", "id": None, "error": {"code": bad.code, "message": bad.message}}


def decode(body: bytes, structure: Callable[[dict[str, Any]], Any]) -> Any:
    """The message a body holds; a :class:`BadFrame` when it is not a JSON-RPC message."""
    try:
        message = json.loads(body, object_hook=structure)
    except (ValueError, RecursionError):
        return BadFrame(PARSE_ERROR, "a frame whose body is not JSON")
    except Exception:  # pygls could not make a message of it (missing or ill-typed fields)
        return BadFrame(INVALID_REQUEST, "a frame whose body is not a JSON-RPC message")
    if not hasattr(message, "jsonrpc"):
        return BadFrame(INVALID_REQUEST, "a frame whose body is not a JSON-RPC message")
    return message


#: Bytes asked of the stream at a time.
_CHUNK = 1 << 16


async def serve(server: Any, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Serve ``server`` (a pygls server) over ``stdin`` and ``stdout`` until the stream ends or
    the client exits; bad frames are answered and skipped (module docstring)."""
    from pygls.io_ import StdoutWriter

    protocol = server.protocol
    protocol.set_writer(StdoutWriter(stdout))
    loop = asyncio.get_running_loop()
    frames = Frames()
    read = getattr(stdin, "read1", stdin.read)
    stop: threading.Event = server._stop_event
    while not stop.is_set():
        data = await loop.run_in_executor(server.thread_pool, read, _CHUNK)
        if not data:
            break
        for event in frames.feed(data):
            message = event if isinstance(event, BadFrame) else decode(event, protocol.structure_message)
            if isinstance(message, BadFrame):
                protocol._send_data(error_response(message))
                continue
            try:
                protocol.handle_message(message)
            except Exception as error:  # a handler's failure is pygls's to report; the server goes on
                server._report_server_error(error, type(error))


def start_io(server: Any, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Run ``server`` over the two streams with :func:`serve` until the client exits."""
    server._stop_event = threading.Event()
    try:
        asyncio.run(serve(server, stdin, stdout))
    except BrokenPipeError:
        pass
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
