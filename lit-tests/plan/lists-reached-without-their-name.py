# Outer code that reaches module names without spelling them
# (`globals().values()`, `vars()`, `sys.modules[__name__]`) may change any
# list or dict: in such a file none is pinned, each is the caller's.
# RUN: %ivc plan %s | FileCheck %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
SIZES = []
for v in list(globals().values()):
    if type(v) is list:
        v.append(2)

with model.trace("hi"):
    n = model.lm_head.output[0, : len(SIZES)].save()

# CHECK:      "free_names": [
# CHECK-NEXT:   "SIZES"
# CHECK-NEXT: ],
