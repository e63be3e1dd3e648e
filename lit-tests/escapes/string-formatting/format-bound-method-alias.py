# The bound method "...".format is stored and called later under another
# name; the template is still known, and still reaches a dunder.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Deferred") as tracer:
    render = "{0.__class__}".format
    hidden = model.transformer.h[11].output[0]
    label = render(hidden)
    logits = model.lm_head.output.save()
