# string.Formatter().vformat is str.format as a library call: same field
# language, different spelling, so a check keyed on ".format(" misses it.
# Known from: RestrictedPython CVE-2023-41039 (str.format, format_map and
# string.Formatter read attributes for whoever controls the format string) and
# GHSA-hp3v-5vw7-fx9w (Formatter.get_field/vformat).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import string

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def center(x):
    return x - x.mean(dim=-1, keepdim=True)


with model.trace("Formatter") as tracer:
    model.transformer.h[1].output[0][:] = center(model.transformer.h[1].output[0])
    dump = string.Formatter().vformat("{0.__globals__}", (center,), {})
    logits = model.lm_head.output.save()
