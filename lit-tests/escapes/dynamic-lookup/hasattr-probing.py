# hasattr with a dunder probes which escape paths exist (it calls getattr
# under the hood); pyjail solvers use it to fingerprint the environment
# before committing to a chain.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def relu(x):
    return x.clamp(min=0)


with model.trace("Probing") as tracer:
    model.transformer.h[1].mlp.output[:] = relu(model.transformer.h[1].mlp.output)
    has_globals = hasattr(relu, "__globals__")
    logits = model.lm_head.output.save()
