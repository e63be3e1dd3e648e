# A runtime keeps the module's names apart from those of the function around
# the trace, but not more: the caller's values and imports are bound by name,
# and the functions around the trace share one namespace. A mediator that
# reaches one name as two such variables is ISOLATE; a module constant and
# the body's own variable of the same name are kept apart, and stay FAST.
# RUN: %ivc check --verify --remarks %s
import numpy as np
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
s = "a%d"
s = "b%d"
scale = 2


def fmt(v):
    # expected-remark@+1 {{'s % v' formats a field of a width or precision beyond 2^28 or that the inputs choose}}
    return s % v  # expected-remark {{Function 'fmt' uses the name 's' for a variable of the module and one of the function around the trace, both bound by name (a runtime binds one value to both), which is outside the FAST subset}}


def f():
    return np.fmod(np.asarray([-(2**63)]), -1)  # expected-remark {{Function 'f' uses the name 'np' for a variable of the module and one of the function around the trace}}


def halve(t):
    return t // scale


def run(ids):
    s = torch.ones(1)
    s = torch.ones(2)
    with model.trace(ids):
        x = fmt(-1)
        y = (s + 1).save()


def run_numpy(ids):
    import torch as np

    with model.trace(ids):
        z = f()
        y = np.ones(3).save()


def outer():
    d = 2

    def g(t):
        return t // d  # expected-remark {{Function 'g' uses the name 'd' for variables of two functions around the trace (a runtime keeps one of them)}}

    def run_nested(ids):
        with model.trace(ids):
            d = -1
            x = g(torch.tensor([-(2**63)])).save()

    def run_walrus(ids):
        with model.trace(ids):
            xs = [(d := -1) for _ in [0]]
            x = g(torch.tensor([-(2**63)])).save()

    return run_nested, run_walrus


def run_apart(ids):
    with model.trace(ids):
        scale = -1
        kept = halve(torch.tensor([-(2**63)])).save()
