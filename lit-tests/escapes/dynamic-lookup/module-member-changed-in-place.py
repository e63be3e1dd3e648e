# An augmented assignment changes a list, dict or set in place. On a name
# bound to a module's own object it changes that object for the whole
# server: `np.sctypeDict |= {"float": np.int8}` through an alias made every
# later `np.dtype("float")` int8, and `*= 0` emptied typing's own list. The
# attribute and item spellings were caught already; the plain name, however
# it got the member (a helper's return, a table's lambda, a walrus, `or`,
# a conditional), is ISOLATE too. Numbers bound to names stay FAST.
# Known from: a red team of ivc's classifier (2026-11-27).
# RUN: %ivc check --verify %s
import typing

import numpy as np
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def wipe():
    names = typing.EXCLUDED_ATTRIBUTES
    names *= 0  # expected-remark {{Function 'wipe' uses '*=' on 'typing.EXCLUDED_ATTRIBUTES' (it may change the module's own object)}}


def types():
    return np.sctypeDict


LOOKUP = {"types": lambda: np.sctypeDict}

with model.trace("Changed in place"):
    table = np.sctypeDict
    table |= {"float": np.int8}  # expected-remark {{uses '|=' on 'numpy.sctypeDict'}}
    returned = types()
    returned |= {}  # expected-remark {{uses '|=' on 'numpy.sctypeDict'}}
    looked_up = LOOKUP["types"]()
    looked_up |= {}  # expected-remark {{uses '|=' on 'numpy.sctypeDict'}}
    either = (np.sctypeDict if len(model.transformer.h) else {}) or {}
    either |= {}  # expected-remark {{uses '|=' on 'numpy.sctypeDict'}}
    loaded = torch.ops.loaded_libraries
    loaded -= {"x"}  # expected-remark {{uses '-=' on 'torch.ops.loaded_libraries'}}
    wipe()

with model.trace("Numbers"):
    scale = np.pi
    scale *= 2
    eps = torch.finfo(torch.float32).eps
    eps += 1e-6
    hidden = (model.transformer.h[0].output[0] * scale + eps).save()
