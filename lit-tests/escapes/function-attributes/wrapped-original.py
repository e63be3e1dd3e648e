# functools.wraps stores the undecorated function in __wrapped__; a wrapper
# that checks or restricts its arguments is skipped by calling the original,
# and the original's __globals__ is reachable as usual.
# Known from: pysandbox's blacklist of function attributes and pyjail CTF
# write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import functools

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def checked(fn):
    @functools.wraps(fn)
    def inner(x):
        return fn(x.clamp(-1, 1))

    return inner


@checked
def amplify(x):
    return x * 10


with model.trace("Mary had a little") as tracer:
    raw = amplify.__wrapped__
    model.transformer.h[4].output[0][:] = raw(model.transformer.h[4].output[0])
    logits = model.lm_head.output.save()
