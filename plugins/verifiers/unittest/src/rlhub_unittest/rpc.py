"""Synchronous, re-entrant calls over one stream socket between two processes.

Each message is a length-prefixed msgpack list (codec.py):

    ["req", op, args]            ask the peer to do `op`
    ["ok", value, output]        the answer to the latest request
    ["err", exception, output]   the request raised `exception`

While a side waits for its answer it serves the peer's requests (a solution function calling
a test-side callback, which calls the solution again...), so calls nest both ways on one wire.
`output` is what the solution printed meanwhile ([stdout, stderr] or None).
"""

from __future__ import annotations

import os
import select

from .codec import MAX_FRAME, Codec, CodecError


class WireClosed(Exception):
    """The peer went away (its end of the socket closed)."""


class WireTimeout(Exception):
    """No message arrived before the deadline."""


class Wire:
    """Length-prefixed frames on a blocking stream fd."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._poll = None

    def send(self, data: bytes) -> None:
        view = memoryview(len(data).to_bytes(4, "big") + data)
        while view:
            try:
                view = view[os.write(self.fd, view):]
            except (BrokenPipeError, ConnectionResetError):
                raise WireClosed from None

    def recv(self, deadline: float | None = None, clock=None) -> bytes:
        size = int.from_bytes(self._read(4, deadline, clock), "big")
        if size > MAX_FRAME:
            raise CodecError(f"a message of {size} bytes, more than the {MAX_FRAME} allowed")
        return self._read(size, deadline, clock)

    def _read(self, n: int, deadline: float | None, clock) -> bytes:
        chunks, got = [], 0
        while got < n:
            if deadline is not None:
                if self._poll is None:
                    self._poll = select.poll()
                    self._poll.register(self.fd, select.POLLIN)
                left = deadline - clock()
                if left <= 0 or not self._poll.poll(left * 1000):
                    raise WireTimeout
            try:
                chunk = os.read(self.fd, min(n - got, 1 << 20))
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                raise WireClosed
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)


class Peer:
    """One side of the conversation: `request` the other side, serve its requests meanwhile."""

    def __init__(self, wire: Wire, codec: Codec, handlers: dict, deadline=None, clock=None) -> None:
        self.wire, self.codec, self.handlers = wire, codec, handlers
        self.deadline = deadline  # None: wait forever (the solution's side); else a float, read each wait
        self.clock = clock

    def request(self, op: str, *args):
        try:
            data = self.codec.dumps(["req", op, list(args)])
        except CodecError as exc:  # a bad argument: the caller's TypeError, as in one process (nothing was sent)
            raise TypeError(str(exc)) from None
        self.wire.send(data)
        while True:
            msg = self._next()
            kind = msg[0]
            if kind == "req":
                self._serve(msg)
                continue
            self.on_output(msg[2])
            if kind == "ok":
                return msg[1]
            raise msg[1]

    def serve_forever(self) -> None:
        while True:
            msg = self._next()
            if msg[0] != "req":
                raise CodecError(f"expected a request, got {msg[0]!r}")
            self._serve(msg)

    def _next(self) -> list:
        msg = self.codec.loads(self.wire.recv(self.deadline, self.clock))
        if type(msg) is not list or len(msg) != 3 or msg[0] not in ("req", "ok", "err"):
            raise CodecError("a malformed message")
        if msg[0] == "err" and not isinstance(msg[1], BaseException):
            raise CodecError("an error reply without an exception")
        return msg

    def _serve(self, msg: list) -> None:
        op, args = msg[1], msg[2]
        handler = self.handlers.get(op) if type(op) is str else None
        try:
            if handler is None or type(args) is not list:
                raise TypeError(f"unknown request {op!r}")
            reply = ["ok", handler(*args), None]
        except BaseException as exc:  # the peer gets every failure of its request as its own exception
            reply = ["err", exc, None]
        reply[2] = self.take_output()
        try:
            data = self.codec.dumps(reply)
        except CodecError as exc:
            data = self.codec.dumps(["err", TypeError(f"the result cannot be sent to the tests: {exc}"), reply[2]])
        self.wire.send(data)

    # hooks -----------------------------------------------------------------------------------
    def on_output(self, output) -> None:
        """What the peer printed while serving our request."""

    def take_output(self):
        """What this side printed since the last message (sent along with the reply)."""
        return None
