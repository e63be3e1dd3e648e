# string.Formatter().get_field resolves one field expression, attribute and
# index steps included, and returns the object itself rather than its text.
# It is getattr with extra steps.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string) and
# GHSA-hp3v-5vw7-fx9w (Formatter.get_field/vformat).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import string

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Formatter internals") as tracer:
    hidden = model.transformer.h[6].output[0]
    obj, _ = string.Formatter().get_field("0.__class__", [hidden], {})
    logits = model.lm_head.output.save()
