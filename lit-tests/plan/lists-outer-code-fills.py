# A list, dict or set is pinned (made again by the plan for each mediator)
# only while outer code cannot have changed it: its name spelled outside
# the traces only to read it (`len(prompts)`, a trace's inputs), or after
# the last trace. `filled` filled by a loop is the caller's. A defaultdict
# is made by the plan too (the channel would hand a caller's over as a dict).
# RUN: %ivc plan %s | FileCheck %s
from collections import defaultdict

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
filled = []
for i in range(3):
    filled.append(i)
questions = ["a", "b"]
width = len(questions)
kept = []
by_layer = defaultdict(list)

with model.trace(questions):
    n = model.lm_head.output[0, : len(filled) + width].save()
    kept.append(n)
    by_layer[0].append(n)

print(kept)

# CHECK:      "definitions": [
# CHECK-NOT:    "name": "filled"
# CHECK:        "source": "questions = ([\"a\", \"b\"])\n"
# CHECK:        "source": "width = (len(questions))\n"
# CHECK:        "source": "kept = ([])\n",
# CHECK-NEXT:   "starts_empty": true
# CHECK:        "source": "by_layer = (defaultdict(list))\n"
# CHECK:      "free_names": [
# CHECK-NEXT:   "defaultdict",
# CHECK-NEXT:   "filled"
# CHECK-NEXT: ],
