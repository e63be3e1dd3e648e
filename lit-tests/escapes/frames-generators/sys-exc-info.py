# sys.exc_info()[2] is the traceback of the exception being handled, with no
# __traceback__ in sight; from it tb_frame is the current frame. Both the
# module (sys) and the frame attributes are on pyjail deny lists.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import sys

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Error handling") as tracer:
    try:
        {}["missing"]
    except KeyError:
        frame = sys.exc_info()[2].tb_frame
    logits = model.lm_head.output.save()
