"""Writes a Python file whose string literals name, with \\N{...}, every
character this Python's unicodedata names (in upper and lower case where
CPython accepts both) and every alias of /usr/share/unicode/NameAliases.txt
it accepts. Each literal is followed by the code points it must decode to."""
import random
import unicodedata

GENERATED = ("HANGUL SYLLABLE ", "CJK UNIFIED IDEOGRAPH-")
rng = random.Random(1)
names = []
for cp in range(0x110000):
    name = unicodedata.name(chr(cp), None)
    if name is None:
        continue
    if not name.startswith(GENERATED) and rng.random() < 0.3:
        name = name.lower()
    names.append((name, cp))
with open("/usr/share/unicode/NameAliases.txt", encoding="utf-8") as f:
    for line in f:
        if line[:1].isalnum():
            code, alias, _ = line.strip().split(";")
            try:
                if ord(unicodedata.lookup(alias)) == int(code, 16):
                    names.append((alias.lower(), int(code, 16)))
            except KeyError:  # newer than this Python's Unicode
                pass
for i in range(0, len(names), 64):
    chunk = names[i:i + 64]
    body = "".join("\\N{%s}" % n for n, _ in chunk)
    print('s = "%s"' % body)
