# A function whose arguments ivc checks where it is called (a pool's
# divisor_override, histogramdd's bins, median's dim) gets them unchecked
# when handed to map, starmap, reduce, a sort key or partial; a getter
# factory gets its names unchecked; and tracer.apply(fn, *args), like
# nnsight.apply, calls fn with arguments nothing judged: each is ISOLATE,
# unless apply's fn is a function of the file.
# Known from: a red team of ivc's classifier (2026-11-27).
# RUN: %ivc check --verify %s
import functools
import itertools
import operator

import numpy as np
import torch
import torch.nn.functional as F
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def double(h):
    return h * 2


with model.trace("The Eiffel Tower is in") as tracer:
    x = torch.full((1, 1, 1, 1), -2**63, dtype=torch.long)
    h = model.transformer.h[0].output[0]
    a = list(map(F.avg_pool2d, [x], [1], [None], [0], [False], [True], [-1]))  # expected-remark {{uses 'F.avg_pool2d as a value' (raw-memory: its arguments are checked only where it is called)}}
    b = list(itertools.starmap(torch.histogramdd, [(h[0, :, :2], [])]))  # expected-remark {{uses 'torch.histogramdd as a value'}}
    c = sorted([h], key=torch.median)  # expected-remark {{uses 'torch.median as a value'}}
    d = list(map(operator.attrgetter, ["__globals__"]))  # expected-remark {{uses 'operator.attrgetter' as a value}}
    e = functools.partial(np.exp, where=np.array([False]))  # expected-remark {{uses 'functools.partial(where=... or layout=...)' (raw-memory)}}
    f = tracer.apply(F.avg_pool2d, x, 1, divisor_override=-1)  # expected-remark {{calls 'tracer.apply', which is not in the op catalog}} expected-remark {{uses 'F.avg_pool2d as a value'}}
    g = tracer.apply(double, h)

# Called directly: a pool's window whose area wraps to -1 in int64,
# numpy's mode="wrap", which loops once per length added (forever on an
# empty array), and a difference of an order past any deadline.
with model.trace("The Eiffel Tower is in"):
    x = torch.full((1, 1, 1, 1), -2**63, dtype=torch.long)
    p = F.avg_pool2d(x, (65535, 281479271743489), padding=(32767, 140739635871744))  # expected-remark {{uses 'torch.nn.functional.avg_pool2d(kernel_size=...)' (integer-division)}}
    q = F.avg_pool2d(x, (2, 2)) + F.avg_pool2d(x, 3)
    t = np.take(np.array([None]), [-2**63], mode="wrap")  # expected-remark {{uses 'numpy.take(mode=...)' (no-return)}}
    u = np.take(np.arange(3), [1], mode="clip")
    np.put(np.arange(0), [5], 1, "wrap")  # expected-remark {{uses 'numpy.put(mode=...)' (no-return)}}
    v = torch.diff(torch.ones(3), n=2**31, prepend=torch.ones(2**20))  # expected-remark {{uses 'torch.diff(n=...)' (no-return)}}
    w = torch.diff(torch.ones(3)) + torch.ones(3).diff(n=2)
