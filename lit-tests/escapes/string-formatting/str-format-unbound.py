# str.format called unbound, with the template as first argument: there is no
# "literal.format(" in the source for a pattern to latch on to.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Unbound") as tracer:
    hidden = model.transformer.h[10].output[0]
    label = str.format("{0.__class__}", hidden)
    logits = model.lm_head.output.save()
