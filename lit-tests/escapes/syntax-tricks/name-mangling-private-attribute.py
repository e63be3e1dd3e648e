# Name mangling: `self.__cache` in a class becomes `self._RunningMean__cache`.
# ivc rejects every underscore attribute, mangled or not: a private name
# reaches state its owner did not publish, and mangling is one more spelling
# of the same access (`obj._C__x` from outside the class).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{fast|isolate}}"
# CHECK: "tier": "reject"
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
