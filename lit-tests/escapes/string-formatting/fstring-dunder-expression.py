# An f-string's replacement fields are ordinary expressions: a dunder
# attribute inside the braces is a real attribute access, hidden inside a
# string token for tools that do not parse f-strings.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("F-strings") as tracer:
    hidden = model.transformer.h[9].output[0]
    label = f"resid {hidden.__class__.__mro__}"
    logits = model.lm_head.output.save()
