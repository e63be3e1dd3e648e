# A name spelled in fullwidth letters is the same identifier to Python
# (NFKC): the list below is changed before the trace under such a spelling,
# so it is the caller's, not pinned as the empty list its binding makes.
# (The name is spelled nowhere else, in these lines neither.)
# RUN: %ivc plan %s | FileCheck %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
LAYERS = []
ＬAYERS.append(2)

with model.trace("hi"):
    n = model.lm_head.output[0, : len(LAYERS)].save()

# CHECK:      "free_names": [
# CHECK-NEXT:   "LAYERS"
# CHECK-NEXT: ],
