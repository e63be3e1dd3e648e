# In a replacement field, `:=` is not a walrus: `f"{v:=10}"` formats v with
# the spec "=10" (a walrus there needs parentheses). tree-sitter reads a
# walrus, and for `=^10` a broken one; ivc lowers what Python reads, binds
# nothing and reports no syntax error.
# RUN: %ivc dump-ir %s | FileCheck %s
v = 1.5
a = f"{v:=10}"
# CHECK: %[[V:[0-9]+]] = name "v" @7:8-7:9
# CHECK-NEXT: %[[S:[0-9]+]] = str "=10" @7:10-7:13
# CHECK-NEXT: %[[F:[0-9]+]] = fstring %[[S]] @7:10-7:13
# CHECK-NEXT: format %[[V]], %[[F]] @7:7-7:14
b = f"{v:=^10}|{v:=10.2f}|{v:=10,}"
# CHECK: str "=^10"
# CHECK: str "=10.2f"
# CHECK: str "=10,"
c = f"{(v:=10)}"
# CHECK: walrus "v"
# CHECK-NOT: walrus
# CHECK-NOT: opaque
