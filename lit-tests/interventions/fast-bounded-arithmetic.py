# Arithmetic and loops whose cost ivc can bound stay FAST: tensor powers,
# float powers, small constant exponents (also on a helper's parameter),
# modular pow, repetitions by a constant or a length (nested ones up to
# 2^24 items in all), `sum` of a small display of lists, ranges a Python loop
# walks (the loop releases the interpreter lock) or that nothing iterates
# (`len`, `in`), unpacking a range of a length, loops that extend
# another list than the one they iterate, and tensors of constant shapes up
# to 1 GiB (2^28 float32 elements, fewer of wider dtypes; also repeated or
# expanded) or of shapes taken from activations; comprehensions over
# ranges of lengths ivc cannot size; a trace in a loop that extends the
# loop's list (the loop runs the mediator again); sets and dicts filled from
# items that cannot all hash alike, few items, or Python code the deadline
# interrupts (a generator, a comprehension).
# Expected: every mediator FAST.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
import functools
import itertools
import math
import operator
import random

import numpy as np
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def gelu(x):
    return 0.5 * x * (1 + torch.tanh(0.79788456 * (x + 0.044715 * x**3)))


with model.trace("tensors and floats"):
    hidden = model.transformer.h[4].output[0]
    norm = hidden.norm() ** 0.5
    scaled = hidden**2 / hidden.shape[-1] ** 0.5 + gelu(hidden)
    for _ in range(12):
        hidden = hidden**2
        hidden **= 2
    model.transformer.h[4].output[0][:] = scaled * 2.0 ** hidden.shape[-1]

with model.trace("constants"):
    k = 3
    sizes = (2**10, 10**k, 1 << 20, pow(2, 10**30, 7), math.factorial(20), math.comb(50, 25))
    rsa = pow(2, 65537, 2**4096 - 1) + (2**4096) * (2**4096) + int(2**64) ** 2
    shown = "{:>8} {}".format("a", 10**12) + "%5.2f %d" % (1.5, 10**12) + f"{k:>10}" + format(3.0, ".3f")
    small = math.prod(range(1, 20)) + math.prod([2, 3])
    pair = (1, 2)
    pair = (pair, 3)
    log = ""
    for i in range(3):
        log = log + str(i)
        log += "x"
    rule = "-" * 80
    zeros = [0] * 4096
    grid = [[0] * 2**10] * 2**10 + [[1] * 2**10] * 2**10
    halves = [0] * 2**23 + [1] * 2**23
    text = "ab" * 2**24 + str(k) * 16
    flat = sum([[1], [2, 3]], []) + sum([1, 2, 3])
    model.lm_head.output[0, -1, : len(sizes)] = 0

with model.trace("lengths and loops"):
    layers = [model.transformer.h[i].output[0] for i in range(len(model.transformer.h))]
    n = int("12")
    picked = []
    for layer in layers:
        picked.append(layer.mean())
    for i in range(n):
        picked.append(layers[i % len(layers)].sum())
    for i, layer in zip(range(n), reversed(list(enumerate(layers)))):
        picked.append(layer[1].max())
    total = sum(range(len(picked)))
    every = [*range(len(layers))]
    big = range(10**12)
    inside = 5 in big and len(big) > 0 and bool(big)
    lazily = sum(i for i in big if i > 10**13)
    pairs = [(i, j) for i in range(len(layers)) for j in range(3)]
    walked = [model.transformer.h[i].output[0].norm() for i in range(n)]
    label = bytes([1, 2]) + bytes(16) + bytes(len(layers)) + bytearray(1 << 28)
    title = "a".ljust(8) + "b".center(n) + str(n).zfill(2)
    masks = [None] * len(layers)
    acc = 1
    for _ in range(8):
        acc = acc * 2
    model.lm_head.output[0, -1, 0] = total + acc

with model.trace("tensor factories"):
    h = model.transformer.h[0].output[0]
    noise = torch.randn(h.shape) + torch.zeros(*h.shape) + torch.ones(len(h), 768)
    steer = torch.zeros(4096, 4096, dtype=torch.float16)[0, :768] + torch.randn(size=(1 << 14, 1 << 14))[0, :768]
    picks = torch.randint(0, 10, (16,)) + torch.arange(16) + torch.linspace(0, 1, 16)
    wide = torch.zeros(1 << 26, dtype=torch.float64)[:16] + torch.hann_window(400)[:16]
    grown = h.new_zeros(h.shape) + h.expand(4, -1, -1)[0] + h.repeat(2, 1, 1)[0]
    tiled = torch.zeros(1 << 20).repeat(64)[:16] + torch.zeros(*[16])
    small = torch.ones(4096)
    grid = torch.outer(small, small) + torch.kron(small[:64], small[:64]).view(4096, 1)
    pairs = torch.cartesian_prod(small[:8], small[:8]).sum() + torch.combinations(small[:64]).sum()
    stacked = torch.cat([small] * 1024).sum() + torch.stack((small, small)).sum()
    exact = torch.zeros(2**10 // 2, 7 % 3, int(2.5)).sum() + torch.arange(0, 1, 0.25).sum()
    arrays = np.zeros((64, 64)).sum() + np.arange(100).sum() + np.outer(np.ones(8), np.ones(8)).sum()
    padded = torch.nn.functional.pad(h, (1, 1)) + torch.meshgrid(small[:4], small[:4])[0].sum()
    parsed = int("101", 2) ** 64 + int("7" * 40) ** 2
    combos = len(list(itertools.product(range(3), range(4)))) + len(list(itertools.combinations([1, 2, 3], 2)))
    found = (1, 2) in itertools.permutations(range(4), 2)
    counted = math.prod(list(range(1, 100))) + len(functools.reduce(operator.add, [[1], [2]]))
    text = "-".join(["a", "b"]) + "abc".replace("b", "xx") + "a\tb".expandtabs(4) + str(len("a b".split()))
    small_math = 10**6 % 7 + divmod(100, 7)[0] + max(3, 4) + pow(2, 10) + round(2.5) + math.isqrt(99)
    totals = list(itertools.accumulate([1, 2, 3])) + list(itertools.accumulate([[1], [2]]))
    grid = [[0] * 4 for _ in range(8)]
    listed = np.array([1, 2, 3]).sum() + np.array([np.ones(4)] * 4).sum() + torch.diagflat(torch.ones(8)).sum()
    width = 4
    width = 8
    counter = 0
    for _ in range(3):
        counter = counter + 1
    sized_twice = torch.ones(width).sum() + len(bytes(counter))
    views = small[:4].unsqueeze(0).expand(4, -1).sum() + np.tile(np.ones(2), 3).sum() + torch.randperm(10).sum()
    model.transformer.h[0].output[0][:] = h + noise + steer + torch.eye(1024)[0, 0] + picks.sum()

def distinct(words, ids):
    return (
        set(range(len(words)))
        | set("a b c".split())
        | set(x for x in ids)
        | {x for x in ids}
        | set(dict(enumerate(ids)))
        | set([1, 2, 3])
        | set(zip(range(4), "abcd"))
    )


def ranked(norms):
    # A dict's items are its own keys, hashed as it was filled: reordering
    # and copying them is as cheap as that was.
    by_norm = {layer: n for layer, n in norms}
    return dict(sorted(by_norm.items(), key=lambda kv: -kv[1])), dict(by_norm.items())


with model.trace("Ranges kept"):
    spans = [range(4), range(len(prompts))]
    first, second = range(10**15), 0
    size = len(first)
    layers = [model.transformer.h[i].output[0] for i in range(12)]

with model.trace("Sets"):
    ids = model.lm_head.output[0].argmax(-1).tolist()
    seen = distinct(["a"], ids)
    order = ranked(zip(range(3), ids))
    counts = {i: 1 for i in range(8)}
    merged = set(counts) | {*counts}
    seen.update(counts)

# A loop around a trace runs the mediator again; inside it, nothing loops.
queue = ["a", "b"]
for prompt in queue:
    with model.trace(prompt):
        queue.append(model.lm_head.output[0, -1].argmax().save())

# A range of an activation's dimension in a C call: as long as what exists.
with model.trace("positions"):
    positions_h = model.transformer.h[0].output[0]
    positions = torch.tensor(list(range(positions_h.shape[1])))
    picked = random.sample(range(positions_h.size(1)), 1)
    halves = list(range(positions_h.size(-1) // 2))
    numel = functools.reduce(operator.mul, positions_h.shape, 1) + functools.reduce(operator.mul, positions_h.size())

# A list extended by a copy of itself, its reversed iterator (which counts
# down from the length it started at) or a slice of it grows once; lazy
# wrappers over a short range cost little.
with model.trace("finite self-extension"):
    mirrored = [1, 2]
    mirrored.extend(reversed(mirrored))
    mirrored.extend(mirrored)
    mirrored += map(abs, mirrored[:2])
    few = max(map(math.sin, map(math.cos, range(2**20))))
