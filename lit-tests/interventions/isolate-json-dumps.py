# json.dumps inside the trace: json is not a catalogued tensor op (it calls
# back into arbitrary objects' methods via `default=`), so ISOLATE, not REJECT.
# Expected: ISOLATE, no differentiation.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{fast|reject}}"
# CHECK: "tier": "isolate"
# CHECK-NOT: "tier": "{{fast|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
import json

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Serialise results") as tracer:
    norms = [model.transformer.h[i].output[0].norm().item() for i in range(3)]
    report = json.dumps({"norms": norms}).save()
