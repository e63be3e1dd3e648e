# A syntax error is a clang-style diagnostic with exit status 1; the rest of
# the file, including the trace, is still lowered.
# RUN: not %ivc dump-ir %s > %t.ir 2> %t.err
# RUN: FileCheck %s --check-prefix=IR < %t.ir
# RUN: FileCheck %s --check-prefix=DIAG < %t.err
def broken(:
    pass
with model.trace("x") as tracer:
    out = model.lm_head.output.save()
# IR: trace #0 trace receiver="model" tracer="tracer"
# IR: attr "save"
# DIAG:      syntax-error.py:6:{{[0-9]+}}: error: {{.*}} [IVC001]
# DIAG-NEXT: def broken(:
# DIAG-NEXT: {{ *}}^
