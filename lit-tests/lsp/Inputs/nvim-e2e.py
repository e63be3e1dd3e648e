import os
from nnsight import LanguageModel

model = LanguageModel("gpt2")
with model.trace("hello") as tracer:
    import subprocess
    s = 'é😀'; os.getcwd()
    logits = model.lm_head.output.save()
