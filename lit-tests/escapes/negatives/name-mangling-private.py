# Look-alike: `self.__cache` in a class becomes `self._RunningMean__cache`:
# a private attribute of the user's own class, not a dunder (it has no
# trailing underscores). Calling a same-file class's method may be ISOLATE,
# but it is not an escape.
# Expected: FAST or ISOLATE (never REJECT)
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "reject"
# CHECK: "tier": "{{fast|isolate}}"
# CHECK-NOT: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class RunningMean:
    def __init__(self):
        self.__cache = []

    def update(self, x):
        self.__cache.append(x)
        return sum(self.__cache) / len(self.__cache)


tracker = RunningMean()

with model.trace("Private names") as tracer:
    norm = model.transformer.h[5].output[0].norm()
    mean = tracker.update(norm).save()
