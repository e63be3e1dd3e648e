# String literals are decoded: escapes, implicit concatenation, raw, bytes, \N{...}.
# RUN: %ivc dump-ir %s | FileCheck %s
a = "tab\there" 'q\'s' "\x5f\x5fclass\x5f\x5f"
# CHECK: str "tab\there{{q}}'s__class__"
b = b"\x00\xff" rb'\d'
# CHECK: bytes "\x00\xff\\d"
c = "implicit" ' concat' """triple
line"""
# CHECK: str "implicit concattriple\nline"
e = "\N{GREEK SMALL LETTER ALPHA}" "\u00e9" "\137\137"
# CHECK: str "αé__"
