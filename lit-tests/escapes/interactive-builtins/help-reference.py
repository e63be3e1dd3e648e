# help is the interactive help system: it imports modules by name and pipes
# text to a pager (less), whose `!cmd` runs a shell. Binding it to another
# name is enough to be refused, whether or not it is called here.
# Known from: pyjail write-ups on the site module's interactive helpers.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Help") as tracer:
    pager = help
    logits = model.lm_head.output.save()
