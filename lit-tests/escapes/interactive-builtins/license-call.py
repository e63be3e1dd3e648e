# license() is a site-module helper that reads files from disk and pages
# them; its file list lives on the object (license._Printer__filenames),
# which pyjail write-ups retarget to read arbitrary files.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("License") as tracer:
    hidden = model.transformer.h[1].output[0]
    license()
    logits = model.lm_head.output.save()
