# Adjacent literals are joined by the parser: ("{0.__cl" "ass__}") is one
# string, "{0.__class__}", even though neither piece contains the word.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Glued") as tracer:
    hidden = model.transformer.h[8].output[0]
    label = ("{0.__cl" "ass__}").format(hidden)
    logits = model.lm_head.output.save()
