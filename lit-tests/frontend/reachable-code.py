# `ivc check` parses the statements trace regions can reach. A syntax error in
# code no trace reaches is not reported (Python reports it when the file runs;
# `ivc lsp` and `ivc dump-ir` parse the whole file). When the code a trace
# reaches has one, the whole file is parsed and every error is reported.
# RUN: %ivc check %s | FileCheck %s --check-prefix=SKIPPED
# RUN: sed 's/^    return scale \* h$/    return scale * h +/' %s > %t.py
# RUN: not %ivc check %t.py | FileCheck %s --check-prefix=KEPT
from nnsight import LanguageModel

model = LanguageModel("gpt2")
scale = 2.0


def plot_results(rows):
    for row in rows
        print(row)


def steer(h):
    return scale * h


with model.trace("The Eiffel Tower is in") as tracer:
    out = steer(model.transformer.h[5].output[0]).save()

# SKIPPED: checked 1 file: 0 errors, 0 warnings; 1 mediator: 1 fast, 0 isolate, 0 reject
# KEPT: .py:15:{{[0-9]+}}: error: {{.*}} [IVC001]
# KEPT: .py:20:{{[0-9]+}}: error: {{.*}} [IVC001]
# KEPT: checked 1 file: 2 errors
