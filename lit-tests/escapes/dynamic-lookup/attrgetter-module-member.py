# operator.attrgetter and methodcaller look attributes up by name: a public
# name can still reach a module (`attrgetter("os")(torch)` is torch.os) or
# call str.format on a format string that is only data. Only tensor, string
# and container members and envoy activations are confirmed by name.
# Known from: a red team of ivc's classifier (2026-11-24).
# RUN: %ivc check --verify %s
import operator

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def helper(x):
    return x


with model.trace("By name"):
    run = list(map(operator.methodcaller("system", "id"), map(operator.attrgetter("os"), [torch])))  # expected-remark {{operator.methodcaller of 'system'}} expected-remark {{operator.attrgetter of 'os'}} expected-remark {{uses 'torch' as a value}}
    shown = list(map(operator.methodcaller("format", helper), ["{0.__globals__}"]))  # expected-error {{reaches str.format}}
    # Tensor members by name stay FAST.
    h = model.transformer.h[0].output[0]
    shapes = list(map(operator.attrgetter("shape"), [h, h]))
    means = list(map(operator.methodcaller("mean", -1), [h]))
