# ivc explain FILE:LINE says in prose what was decided for the mediator at a
# line and why: the tier, each deciding reason with its path into helpers,
# what it touches, and how to fix each rule from docs/diagnostics.
# RUN: %ivc explain %s:18 | FileCheck %s --check-prefix=INVOKE
# RUN: %ivc explain %s:14 | FileCheck %s --check-prefix=TRACE
# RUN: not %ivc explain %s:5 2>&1 | FileCheck %s --check-prefix=OUTSIDE
import json


def summarize(x):
    return json.dumps(x)


with model.trace() as tracer:
    with tracer.invoke("a"):
        clean = model.transformer.h[3].output[0].save()
    with tracer.invoke("b"):
        note = summarize(model.lm_head.output)
# INVOKE:      explain-line.py:18: trace #0 (model.trace at lines 14-18, policy 'ndif') has 2 mediators.
# INVOKE-EMPTY:
# INVOKE-NEXT: Mediator #0.1 (an invoke body, line 18) is ISOLATE: it runs in a sandboxed worker, because:
# INVOKE-NEXT:   - line 11: Function 'summarize' calls 'json.dumps', which is not in the op catalog [IVC305]
# INVOKE-NEXT:     path: body L18 → summarize() L11 → json.dumps(x)
# INVOKE-NEXT:   It touches: lm_head (output.read).
# INVOKE-NEXT:   It does not differentiate.
# INVOKE-NEXT:   The caller supplies: json.
# INVOKE:      How to fix IVC305 (uncatalogued-call):
# TRACE: Mediator #0.0 (an invoke body, line 16) is FAST: every operation is confirmed safe, so it runs in the server process.
# TRACE: It touches: transformer.h.3 (output.read, output.save).
# TRACE: It saves: clean.
# TRACE: Mediator #0.1 (an invoke body, line 18) is ISOLATE
# OUTSIDE: ivc: error: {{.*}}explain-line.py:5 is not inside a trace region
# The FILE:LINE:COLUMN that diagnostics print works too; lines that no file
# has (0, negative, past 2^32) are usage errors, not wrapped around.
# RUN: %ivc explain %s:18:9 | FileCheck %s --check-prefix=INVOKE
# RUN: not %ivc explain %s:4294967314 2>&1 | FileCheck %s --check-prefix=BADLINE
# RUN: not %ivc explain %s:-1 2>&1 | FileCheck %s --check-prefix=BADLINE
# BADLINE: ivc: error: explain needs FILE:LINE or FILE:LINE:COLUMN
