"""The event protocol between the host's interleaver and a mediator.

Messages are tuples of codec values (docs/runtime.md, "Protocol"). Both tiers
speak exactly this protocol; only the channel and the tensor transport
differ. Every mediator message ends with `mutations`: [(delivery id,
tensor)], the delivered activations it changed in place since its last
message (always empty in process, where the mediator changes them directly).

host -> mediator
  ("run", job)                           start a mediator (job: see interleaver)
  ("value", value)                       the activation (or parameter) requested,
                                         or what a module call returned
  ("ok",)                                a swap, skip, log or stop was applied
  ("error", type_name, message)          raise this at the request site
  ("release", {name: value})             a barrier opened; bind these names
  ("cancel", reason)                     unwind quietly (trace stopped)
  ("segments", [(space, size, role)], [dropped spaces]) + fds   (worker only)

mediator -> host
  ("request", path, what, call, mutations)        what: output input inputs param
  ("swap", path, what, call, value, mutations)    what: output input
  ("skip", path, call, value, mutations)
  ("call", path, args, kwargs, mutations)         run a submodule on these values
  ("barrier", name, participants, exports, mutations)
  ("log", text, mutations)
  ("stop", mutations)
  ("end", saves, mutations)                       terminal
  ("exception", type_name, message, traceback, location, mutations)  terminal
  ("need", nbytes)                                (worker only) upload space
"""

import os

import torch

from . import _core

MAX_PATH = 1024
MAX_CALL = 1 << 20
MAX_TYPE_NAME = 256
MAX_TEXT = 1 << 20  # characters of a log line, exception message or traceback
MAX_PARTICIPANTS = 4096  # of a barrier
MAX_CALL_ARGUMENTS = 16  # positional and keyword, each, of a module call
REQUEST_WHATS = ("output", "input", "inputs", "param")
SWAP_WHATS = ("output", "input")


def fit_text(text, limit=MAX_TEXT):
    """Text a mediator sends, made sendable: characters UTF-8 cannot encode
    (lone surrogates) escaped, and at most `limit` characters, with a note
    when cut, so that a user's long or odd message is reported, not a
    protocol violation."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) <= limit:
        return text
    note = f" [ivc: cut at {limit} of {len(text)} characters]"
    return text[:max(0, limit - len(note))] + note[:limit]


def check_participants(n):
    """A barrier's size, checked where it is made (ValueError), as the host
    checks it when a mediator reaches the barrier."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PARTICIPANTS:
        raise ValueError(f"a barrier is for 1 to {MAX_PARTICIPANTS} mediators, not {n!r}")
    return n


def no_tensors(*args):
    raise TypeError("this message cannot carry tensors")


class MediatorPort:
    """The mediator's end: send a message, get the host's reply."""

    def __init__(self, channel, tensors):
        self.channel = channel
        self.tensors = tensors

    def send(self, msg):
        tensors = self.tensors
        begin = getattr(tensors, "begin_message", None)
        while True:
            if begin:
                begin()
            data = _core.encode(msg, tensors.export)
            need = tensors.needed() if begin else 0
            if not need:
                break
            # The upload segment is too small for this message: ask for a
            # bigger one and encode again.
            self.channel.send(_core.encode(("need", need), no_tensors))
            reply = self._recv_raw()
            if reply[0] != "segments":
                raise RuntimeError("host did not answer a request for upload space")
        before_send = getattr(tensors, "before_send", None)
        if before_send:
            before_send()  # the cuda-ipc transport orders its copies
        self.channel.send(data)

    def _recv_raw(self):
        data, fds = self.channel.recv()
        after_recv = getattr(self.tensors, "after_recv", None)
        if after_recv:
            after_recv()
        try:
            msg = _core.decode(data, self.tensors.import_)
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise
        if msg and msg[0] == "segments":
            self.tensors.adopt(msg[1], fds)
            self.tensors.drop(msg[2])
        else:
            for fd in fds:
                os.close(fd)
        return msg

    def recv(self):
        while True:
            msg = self._recv_raw()
            if msg[0] != "segments":
                return msg

    def exchange(self, msg):
        self.send(msg)
        return self.recv()


class Violation(Exception):
    """A mediator message that breaks the protocol."""


def _str(v, what, limit=MAX_PATH):
    if not isinstance(v, str) or len(v) > limit:
        raise Violation(f"{what} must be a str of at most {limit} characters")
    return v


def _call(v):
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < MAX_CALL:
        raise Violation("call index out of range")
    return v


def _mutations(v):
    if not isinstance(v, list):
        raise Violation("mutations must be a list")
    for m in v:
        if not (isinstance(m, tuple) and len(m) == 2 and isinstance(m[0], int) and
                isinstance(m[1], torch.Tensor)):
            raise Violation("a mutation must be (delivery id, tensor)")
    return v


def check_mediator_message(msg):
    """Validates the shape of a decoded mediator message; returns its kind.
    Values inside (swaps, saves) are checked where they are used."""
    if not isinstance(msg, tuple) or not msg or not isinstance(msg[0], str):
        raise Violation("a message must be a tuple starting with its kind")
    kind, n = msg[0], len(msg)
    if kind == "request" and n == 5:
        _str(msg[1], "path")
        if msg[2] not in REQUEST_WHATS:
            raise Violation(f"cannot request {msg[2]!r}")
        _call(msg[3])
        _mutations(msg[4])
    elif kind == "swap" and n == 6:
        _str(msg[1], "path")
        if msg[2] not in SWAP_WHATS:
            raise Violation(f"cannot swap {msg[2]!r}")
        _call(msg[3])
        _mutations(msg[5])
    elif kind == "skip" and n == 5:
        _str(msg[1], "path")
        _call(msg[2])
        _mutations(msg[4])
    elif kind == "call" and n == 5:
        _str(msg[1], "path")
        if not isinstance(msg[2], tuple) or len(msg[2]) > MAX_CALL_ARGUMENTS:
            raise Violation(f"a module call's arguments must be a tuple of at most "
                            f"{MAX_CALL_ARGUMENTS}")
        if (not isinstance(msg[3], dict) or len(msg[3]) > MAX_CALL_ARGUMENTS or
                not all(isinstance(k, str) for k in msg[3])):
            raise Violation(f"a module call's keyword arguments must be a dict of at most "
                            f"{MAX_CALL_ARGUMENTS} names")
        _mutations(msg[4])
    elif kind == "barrier" and n == 5:
        _str(msg[1], "barrier name")
        if not isinstance(msg[2], int) or not 1 <= msg[2] <= MAX_PARTICIPANTS:
            raise Violation("barrier participants out of range")
        if not isinstance(msg[3], dict) or not all(isinstance(k, str) for k in msg[3]):
            raise Violation("barrier exports must be a dict of names")
        _mutations(msg[4])
    elif kind == "log" and n == 3:
        _str(msg[1], "log text", limit=MAX_TEXT)
        _mutations(msg[2])
    elif kind == "stop" and n == 2:
        _mutations(msg[1])
    elif kind == "end" and n == 3:
        if not isinstance(msg[1], dict) or not all(isinstance(k, str) for k in msg[1]):
            raise Violation("saves must be a dict of names")
        _mutations(msg[2])
    elif kind == "exception" and n == 6:
        _str(msg[1], "exception type", limit=MAX_TYPE_NAME)
        _str(msg[2], "exception message", limit=MAX_TEXT)
        _str(msg[3], "traceback", limit=MAX_TEXT)
        loc = msg[4]
        if loc is not None and not (isinstance(loc, tuple) and len(loc) == 2 and
                                    isinstance(loc[0], str) and isinstance(loc[1], int)):
            raise Violation("exception location must be (file, line) or None")
        _mutations(msg[5])
    elif kind == "need" and n == 2:
        if not isinstance(msg[1], int) or msg[1] <= 0:
            raise Violation("need must ask for a positive number of bytes")
    else:
        raise Violation(f"unknown message {kind!r} with {n} fields")
    return kind
