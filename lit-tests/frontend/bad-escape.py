# Invalid escapes point at the escape itself.
# RUN: not %ivc dump-ir %s 2>&1 >/dev/null | FileCheck %s
s = "ok \x4 then"
# CHECK: bad-escape.py:3:9: error: truncated \xXX escape [IVC002]
# CHECK-NEXT: s = "ok \x4 then"
# CHECK-NEXT:         ^~~
