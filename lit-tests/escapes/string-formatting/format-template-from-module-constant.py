# The template lives in a module-level constant, away from the .format call;
# the analyzer has to resolve the receiver of .format to its constant value.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

TEMPLATE = "layer {0.__class__.__base__}"

with model.trace("Templates") as tracer:
    hidden = model.transformer.h[7].output[0]
    label = TEMPLATE.format(hidden)
    logits = model.lm_head.output.save()
