# A function that is passed rather than called runs all the same: map, sort
# keys, defaultdict factories and functools.partial call it. Each one here is
# judged as if called: typing.get_type_hints evaluates string annotations
# with the real builtins, functools.update_wrapper copies a module's __dict__,
# torch.nn.functional.torch is torch (so .load is torch.load), and hasattr
# and str.format as values take names and formats known only when called.
# Known from: a red team of ivc's classifier (2026-11-24).
# RUN: %ivc check --verify %s
import collections
import functools
import typing

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def probe(x: "__import__('os').system('id')"):
    return x


with model.trace("Passed, not called"):
    hints = list(map(typing.get_type_hints, [probe]))  # expected-remark {{'typing.get_type_hints' as a value}}
    lazy = collections.defaultdict(functools.partial(typing.get_type_hints, probe))  # expected-remark {{'typing.get_type_hints' as a value}}
    copy = functools.partial(functools.update_wrapper, updated=("__dict__",))  # expected-remark {{'functools.update_wrapper' as a value}}
    loaded = list(map(torch.nn.functional.torch.load, ["acts.pt"]))  # expected-remark {{'torch.nn.functional.torch.load' as a value}}
    found = list(map(hasattr, [torch], ["os"]))  # expected-error {{calls 'hasattr' with a name known only where it is called}} expected-remark {{uses 'torch' as a value}}
    text = list(map(str.format, ["{0.__globals__}"], [probe]))  # expected-error {{str.format as a value}}
    # Pure functions and constants stay FAST as values.
    ranked = sorted([3, 1, 2], key=abs)
    widths = list(map(len, ["a", "bb"]))
    cast = model.lm_head.output.to(torch.float32)
    is_tensor = isinstance(cast, torch.Tensor)
    summed = functools.reduce(torch.add, [cast, cast])
