# help(obj) on a server opens the pager on the server's terminal; help("os")
# imports a module by name. The classic pyjail route is help() -> pager ->
# `!sh`.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Help me") as tracer:
    help(model)
    logits = model.lm_head.output.save()
