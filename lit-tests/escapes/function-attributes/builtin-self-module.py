# Builtin functions are methods of the builtins module: len.__self__ (or
# print.__self__) *is* that module, so eval and __import__ follow. A
# well-known pyjail shortcut when __builtins__ itself has been removed.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Alpha beta gamma") as tracer:
    n_layers = len(model.transformer.h)
    builtins_module = len.__self__
    logits = model.lm_head.output.save()
