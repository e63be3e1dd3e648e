# Unsafe tensor and array members (IVC307) are judged by name on every value
# that may be a tensor or an array: numpy arrays (typed as tensors, so
# `numpy.ndarray.resize`, whose refcheck=False frees the buffer under live
# views, crashed the server), a function's parameter, and an attribute of
# anything (`rng.bit_generator.ctypes` hands out ctypes function pointers).
# Known from: a red team of ivc's classifier (2026-11-25).
# RUN: %ivc check --verify %s
import numpy as np
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def grad_node(t):
    return t.grad_fn  # expected-remark {{Function 'grad_node' uses 'torch.Tensor.grad_fn' (hook)}}


def storage_class_of(t):
    return t.storage_type  # expected-remark {{Function 'storage_class_of' uses 'torch.Tensor.storage_type' (raw-memory)}}


with model.trace("numpy arrays"):
    a = np.ones(16)
    a.resize(64, refcheck=False)  # expected-remark {{uses 'numpy.ndarray.resize' (raw-memory)}}
    ptr = a.ctypes  # expected-remark {{uses 'numpy.ndarray.ctypes' (raw-memory)}}

with model.trace("attributes of anything"):
    iface = np.random.default_rng().bit_generator.ctypes  # expected-remark {{uses 'numpy.ndarray.ctypes' (raw-memory)}}

with model.trace("through parameters"):
    h = model.lm_head.output
    node = grad_node(h)
    s = storage_class_of(h)

with model.trace("data attributes of other names stay FAST"):
    h = model.lm_head.output
    cfg = {"layer": 3}
    n = h.shape[-1] + cfg["layer"]
    y = h.save()
