"""Writes a stream of hostile framing to stdout, each followed by a request
the server must still answer (see hostile-framing.test)."""
import json
import sys


def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(id, method, params=None):
    msg = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        msg["params"] = params
    return frame(json.dumps(msg).encode())


out = sys.stdout.buffer
out.write(request(1, "initialize", {"capabilities": {}}))
# A length one byte short: the rest of the body runs into the next header.
out.write(b"Content-Length: 1\r\n\r\n{}")
out.write(request(2, "ivc/unknown"))
# Nesting that would overflow the parser's stack.
out.write(frame(b"[" * 40000 + b"]" * 40000))
out.write(request(3, "ivc/unknown"))
# A length no message can have: refused at once, not waited for.
out.write(b"Content-Length: 18446744073709551615\r\n\r\n")
out.write(request(4, "ivc/unknown"))
# Headers without the empty line that ends them: the body is read where
# the next message's headers are, glued to them or on its own line.
out.write(b"Content-Length: 2\r\n{}")
out.write(request(5, "ivc/unknown"))
out.write(b"Content-Length: 2\r\n{\"a\": 1}\r\n")
out.write(request(6, "ivc/unknown"))
# The same header twice is not an error.
out.write(b"Content-Length: 2\r\n" + request(7, "ivc/unknown"))
# A header line that never ends (1 MiB without a newline).
out.write(b"X" * (1 << 20) + b"\r\n\r\n")
out.write(request(8, "shutdown"))
out.write(frame(b'{"jsonrpc":"2.0","method":"exit"}'))
out.flush()
