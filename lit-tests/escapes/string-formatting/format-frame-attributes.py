# Format fields are not limited to dunders: "{0.gi_frame.f_back.f_globals}"
# walks a generator's frames with non-dunder names, so the field checker must
# apply the same attribute rules as the expression checker.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Frames in strings") as tracer:
    gen = (x for x in [0])
    text = "{0.gi_frame.f_back.f_globals}".format(gen)
    logits = model.lm_head.output.save()
