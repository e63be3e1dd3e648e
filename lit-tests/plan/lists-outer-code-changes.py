# A module-level list or dict that outer code may change before a trace
# runs is the caller's, not pinned: a mutation hidden after a `#` inside a
# string, one in a comprehension's target, or after a trace that runs
# again (in a loop) all leave the name a free name.
# RUN: %ivc plan %s | FileCheck %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
HIDDEN = []
TARGET = {"layer": 0}
LOOPED = []
note = """
# """; HIDDEN.append(2)
[0 for TARGET["layer"] in [2]]

for _ in range(2):
    with model.trace("hi"):
        n = model.lm_head.output[0, : len(HIDDEN) + len(LOOPED) + TARGET["layer"]].save()
    LOOPED.append(1)

# CHECK:      "free_names": [
# CHECK-NEXT:   "HIDDEN",
# CHECK-NEXT:   "LOOPED",
# CHECK-NEXT:   "TARGET"
# CHECK-NEXT: ],
