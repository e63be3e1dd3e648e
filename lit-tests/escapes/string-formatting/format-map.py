# format_map takes the fields from a mapping instead of arguments; the field
# syntax, attribute lookups included, is the same.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Mappings") as tracer:
    hidden = model.transformer.h[5].output[0]
    text = "{h.__class__.__mro__}".format_map({"h": hidden})
    logits = model.lm_head.output.save()
