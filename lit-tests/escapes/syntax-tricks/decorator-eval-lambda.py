# Decorators are calls: since Python 3.9 any expression may follow `@`, so
#   @eval  @lambda _: "..."  def f(): ...
# calls eval on the lambda's result when the def runs. Used in pyjails that
# ban parentheses or call syntax.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Decorators") as tracer:
    hidden = model.transformer.h[8].output[0]

    @eval
    @lambda _: "1 + 1"
    def computed():
        pass

    logits = model.lm_head.output.save()
