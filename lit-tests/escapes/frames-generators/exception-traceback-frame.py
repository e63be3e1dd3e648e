# A caught exception's __traceback__ holds tb_frame, the frame that raised,
# and from there f_back/f_globals lead outward. Raising on purpose to harvest
# frames is common in pyjail write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Divide and conquer") as tracer:
    try:
        1 / 0
    except ZeroDivisionError as err:
        outer = err.__traceback__.tb_frame.f_back
    logits = model.lm_head.output.save()
