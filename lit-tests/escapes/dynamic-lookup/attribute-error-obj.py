# Since Python 3.10 an AttributeError carries the object whose lookup failed
# in .obj (and the name in .name). A wrapper that refuses an attribute by
# raising AttributeError hands out the unwrapped object it was guarding; for
# an nnsight envoy that can be the underlying torch module.
# Known from: RestrictedPython CVE-2024-47532 (information leak through
# AttributeError.obj and the string module).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# A handler that reads more of the error than its message makes the
# mediator ISOLATE: err.obj is then only an object of the sandboxed worker.
# CHECK: "tier": "isolate"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Failed lookups") as tracer:
    try:
        model.transformer.h[0].no_such_submodule
    except AttributeError as err:
        unwrapped = err.obj
    logits = model.lm_head.output.save()
