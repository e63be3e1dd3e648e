"""Turns a delimited LSP transcript into the bytes a client sends over stdio.

Blocks are separated by lines `---`; lines starting with `#` are comments. A
block is framed with a Content-Length header, unless its first line is
`@raw`: then the rest of the block, after Python string-escape decoding
(\\x00, \\r, \\n), is written as is, to put garbage on the wire.
"""
import codecs
import sys


def blocks(text):
    block = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if line == "---":
            yield block
            block = []
        else:
            block.append(line)
    yield block


def main():
    out = sys.stdout.buffer
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    for block in blocks(text):
        if not any(line.strip() for line in block):
            continue
        if block[0] == "@raw":
            raw = "\n".join(block[1:])
            out.write(codecs.escape_decode(raw.encode("utf-8"))[0])
        else:
            body = "\n".join(block).encode("utf-8")
            out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()


if __name__ == "__main__":
    main()
