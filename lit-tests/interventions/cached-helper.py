# Helpers cached with functools.lru_cache, with or without its arguments,
# and functools.cache: the cache lives as long as the mediator's
# definitions, within its memory budget. A cache built by calling
# lru_cache outside a decorator is still an uncatalogued call.
# Expected: the first trace FAST, the second ISOLATE.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{fast|reject}}"
# CHECK: "tier": "isolate"
import functools
from functools import lru_cache

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


@lru_cache(maxsize=128)
def layer_of(depth):
    return min(depth, len(model.transformer.h) - 1)


@functools.lru_cache
def head_slice(head):
    return slice(head * 64, (head + 1) * 64)


@functools.cache
def label(layer):
    return f"layer {layer}"


with model.trace("Cached") as tracer:
    hidden = model.transformer.h[layer_of(6)].output[0][:, :, head_slice(2)].save()
    print(label(6))

with model.trace("Cached by hand") as tracer:
    cached = functools.lru_cache(maxsize=8)(label)
    print(cached(3))
