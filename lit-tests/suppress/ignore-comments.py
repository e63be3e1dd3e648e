# `# ivc: ignore[...]` silences a diagnostic on its line (by code or rule
# name), or every diagnostic of a trace when on its `with` line; a bare
# `# ivc: ignore` silences everything there. Suppressions never change a
# mediator's tier: the plan still says reject.
# RUN: not %ivc check %s | FileCheck %s
# RUN: not %ivc check --format json %s | FileCheck %s --check-prefix=JSON
# RUN: %ivc plan %s | FileCheck %s --check-prefix=PLAN
with model.trace("a") as tracer:
    x = eval("1")  # ivc: ignore[IVC102]
    y = exec("2")  # ivc: ignore[prohibited-builtin]
    z = __import__("os")  # ivc: ignore
with model.trace("b") as tracer:  # ivc: ignore[IVC201, IVC102]
    w = tracer.__class__
    v = eval("3")
# The word in a string is not a suppression:
with model.trace("c") as tracer:
    s = "# ivc: ignore"; t = compile("x", "f", "exec")
# CHECK: ignore-comments.py:17:30: error: Trace body references prohibited builtin 'compile'
# CHECK: checked 1 file: 1 error, 0 warnings; 3 mediators: 0 fast, 0 isolate, 3 reject
# JSON: "suppressed": true
# PLAN-COUNT-3: "tier": "reject"
