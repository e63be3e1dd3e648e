# IVC305: a call ivc resolves but cannot confirm as pure is a remark and makes
# the mediator ISOLATE: a function of an allowed module that the op catalog
# does not list, a builtin outside the pure set, a tensor, str or tracer
# method that is not catalogued. Catalogued torch/numpy/math functions, pure
# builtins, catalogued tensor methods and pure str and container methods are
# not.
# RUN: %ivc check --verify %s
import json
import math
import numpy as np
import random
import torch


def noisy(hidden):
    return hidden + random.getrandbits(8)  # expected-remark {{Function 'noisy' calls 'random.getrandbits', which is not in the op catalog}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[6].output[0]
    layer = random.randrange(12)
    random.seed(layer)  # expected-remark {{Trace body calls 'random.seed', which is not in the op catalog}}
    record = json.dumps({"layer": layer})  # expected-remark {{calls 'json.dumps'}}
    torch.nn.init.normal_(hidden)  # expected-remark {{calls 'torch.nn.init.normal_'}}
    ident = id(hidden)  # expected-remark {{calls 'id'}}
    raw = torch.Tensor(3)  # expected-remark {{calls 'torch.Tensor'}}
    odd = hidden.mystery_method()  # expected-remark {{calls 'torch.Tensor.mystery_method'}}
    text = "layer".format_it()  # expected-remark {{calls 'str.format_it'}}
    tracer.unknown_helper()  # expected-remark {{calls 'tracer.unknown_helper'}}
    jittered = noisy(hidden)

    # Confirmed calls: not reported.
    probs = torch.softmax(hidden, dim=-1)
    root = math.sqrt(hidden.shape[-1])
    top = sorted([3, 1, 2])[:2]
    parts = ["a", "b"]
    parts.append("c".upper())
    mean = hidden.mean(dim=1).save()
    count = len(parts) + max(1, 2)

with model.trace("The Eiffel Tower is in") as tracer:
    # A configuration value is a number: its methods are a number's
    # (`bit_length` yes, `to_bytes` no), never a module's call.
    width = model.config.n_embd.bit_length()
    wide = model.config.n_embd.to_bytes(2**31, "big")  # expected-remark {{calls '<number>.to_bytes'}}
    # A list's methods on what is typed a tensor alone (numpy returns a
    # list from `split`) are not confirmed; on a name bound to a list
    # before it is stacked, they are.
    halves = np.split(np.zeros(4), 2)
    halves.extend(halves)  # expected-remark {{calls 'torch.Tensor.extend'}}
    rows = []
    rows.append(model.transformer.h[0].output[0])
    rows = torch.stack(rows)


def run_head(m):
    return m.lm_head.register_forward_hook(print)  # expected-remark {{calls 'model.lm_head.register_forward_hook'}}


def handed_on(m):
    return m.lm_head(m.transformer.h[0].output[0])  # expected-remark {{Function 'handed_on' calls 'm.lm_head'}}


with model.trace("The Eiffel Tower is in") as tracer:
    # A parameter is the model's where every call passes it the model: its
    # hooks are still no module's to call, and a helper handed on (called
    # out of sight) keeps an untyped parameter.
    hooked = run_head(model)
    mapped = list(map(handed_on, [model]))
