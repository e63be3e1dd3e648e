# A class FAST may name as a value (for isinstance) is not one it may call:
# handed to map, a sort key or functools.partial, `np.ndarray` built an
# object array over a caller's buffer (any integer read as a pointer: a
# shell ran in the server) and `torch.Tensor` handed out uninitialized
# memory holding another tenant's values.
# Known from: a red team of ivc's classifier (2026-11-25).
# RUN: %ivc check --verify %s
import functools

import numpy as np
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("classes handed to callers"):
    arrays = list(map(np.ndarray, [(1,)], ["O"], [bytearray(8)]))  # expected-remark {{uses 'numpy.ndarray' as a value (what receives it calls it)}}
    blank = list(map(torch.Tensor, [64]))  # expected-remark {{uses 'torch.Tensor' as a value (what receives it calls it)}}
    made = functools.partial(np.ndarray, (1,))  # expected-remark {{uses 'numpy.ndarray' as a value}}

with model.trace("classes named for isinstance stay FAST"):
    h = model.transformer.h[0].output[0]
    ok = isinstance(h, torch.Tensor) and not isinstance(h, np.ndarray)
    scaled = list(map(torch.tanh, [h]))
