# IVC312: work one C call does without releasing the interpreter lock, of a
# size ivc cannot bound, would stop the whole server if it ran FAST: each
# mediator here is ISOLATE, where a worker's limits and deadline apply.
# interventions/fast-bounded-arithmetic.py has what stays FAST.
# RUN: %ivc check --verify %s
import collections
import functools
import itertools
import math
import operator
import random
import statistics

import nnsight
import numpy as np
import torch
import torch.nn.functional as F
from nnsight import LanguageModel
from torch import zeros

model = LanguageModel("openai-community/gpt2")

with model.trace("power of powers"):
    a = 10 ** 10 ** 10  # expected-remark {{'10 ** 10 ** 10' computes an integer of up to 40000000000 bits}}

with model.trace("exponent from a name"):
    big = 10**9
    b = 7 ** big  # expected-remark {{'7 ** big' computes an integer of up to 3000000000 bits}}

with model.trace("exponent ivc cannot size"):
    n = int("9" * 20)
    c = 2**n  # expected-remark {{'2**n' computes an integer whose size ivc cannot bound}}

with model.trace("pow with keywords"):
    d = pow(base=10, exp=10**9)  # expected-remark {{computes an integer of up to 4000000000 bits}}

with model.trace("shift"):
    e = 1 << 10**10  # expected-remark {{'1 << 10**10' computes an integer of up to 10000000001 bits}}

with model.trace("augmented power"):
    f = 3
    f **= 10**12  # expected-remark {{'f **= 10**12' computes an integer}}

with model.trace("factorial"):
    g = math.factorial(10**6)  # expected-remark {{calls 'math.factorial' with 1000000}}

with model.trace("repetition"):
    h = [None] * (10**10)  # expected-remark {{repeats a sequence 10000000000 times}}
    # A block's output is a tuple, and so is what split() makes.
    outputs = model.transformer.h[0].output * 2**27  # expected-remark {{repeats what may be a sequence 134217728 times}}
    pieces = model.transformer.h[0].output[0].split(2) * 2**27  # expected-remark {{repeats what may be a sequence 134217728 times}}
    # So is a slice of a module list: a tuple of envoys.
    blocks = model.transformer.h[:] * 2**27  # expected-remark {{repeats what may be a sequence 134217728 times}}
    # A chain repeats its first value the product of its numbers, through
    # names too; a block's whole output doubled in a loop grows as a tuple.
    chained = model.transformer.h[0].output * 2**12 * 2**12 * 2**6  # expected-remark {{repeats what may be a sequence 1073741824 times}}
    half_chain = model.transformer.h[1].output * 2**12
    other_half = half_chain * 2**13  # expected-remark {{'half_chain * 2**13' repeats what may be a sequence 33554432 times}}
    rebound = model.transformer.h[1].output * 2**14
    rebound = rebound * 2**15  # expected-remark {{'rebound * 2**15' repeats what may be a sequence 536870912 times}}
    augmented = model.transformer.h[1].output * 2**14
    augmented *= 2**15  # expected-remark {{'augmented *= 2**15' repeats what may be a sequence 536870912 times}}
    whole = model.transformer.h[2].output
    for _ in range(40):
        whole = whole * 2  # expected-remark {{'whole * 2' doubles a sequence that its own rebinding grows}}
    decayed = model.transformer.h[3].output[0]
    for _ in range(40):
        decayed = decayed * 0.5

# A lambda in a table the plan carries is judged where a body reaches it.
TABLE = {"big": lambda: [None] * (10**10)}  # expected-remark {{Lambda is too costly to run in the server's process: '[None] * (10**10)' repeats a sequence 10000000000 times}}

with model.trace("a lambda from a table"):
    made = TABLE["big"]()


# So is a function bound by functools.partial.
def repeat_none(n):
    return [None] * n  # expected-remark {{Function 'repeat_none' is too costly to run in the server's process: '[None] * n' repeats a sequence a number of times ivc cannot bound}}


BOUND = functools.partial(repeat_none, 10**10)

with model.trace("a function bound by partial"):
    made = BOUND()


with model.trace("repetition of unknown length"):
    width = int("1" + "0" * 12)
    line = "-" * width  # expected-remark {{'"-" * width' repeats a sequence a number of times ivc cannot bound}}
    bar = "#" * min(40, width) + "." * min(width, 2**25)  # expected-remark {{'"." * min(width, 2**25)' repeats a sequence 33554432 times}}
    capped = min(40, width)
    spaces = " " * capped + "-" * max(40, width)  # expected-remark {{'"-" * max(40, width)' repeats a sequence a number of times ivc cannot bound}}

with model.trace("range consumed in C"):
    count = int("9" * 20)
    total = sum(range(count))  # expected-remark {{'sum(range(count))' iterates a range or combinatoric iterator whose length ivc cannot bound}}

with model.trace("range consumed in C through lazy wrappers"):
    count = int("9" * 20)
    pairs = list(zip(range(count), enumerate(range(count))))  # expected-remark {{'list(zip(range(c...erate(range(count))))' iterates a range}}

with model.trace("constant range consumed in C"):
    values = list(range(2, 10**12, 3))  # expected-remark {{'list(range(2, 10**12, 3))' iterates a range}}

with model.trace("range consumed in C through a name and a slice"):
    r = range(10**12)
    evens = r[::2]
    total = sum(evens)  # expected-remark {{'sum(evens)' iterates a range}}
    top = max(range(10**12)[1:])  # expected-remark {{'max(range(10**12)[1:])' iterates a range}}
    t = torch.tensor(data=reversed(r))  # expected-remark {{'torch.tensor(data=reversed(r))' iterates a range}}

with model.trace("collection built from a range"):
    r = range(10**12)
    squares = [i * i for i in r]  # expected-remark {{'[i * i for i in r]' builds a collection of more than 2^24 items from a range}}
    pairs = {(i, j) for i in range(3) for j in range(10**12)}  # expected-remark {{builds a collection of more than}}

with model.trace("bytes and padding filled in one call"):
    blank = bytes(2**33)  # expected-remark {{'bytes(2**33)' fills 8589934592 bytes or characters}}
    buffer = bytearray(10**12)  # expected-remark {{fills 1000000000000 bytes or characters}}
    title = "-".center(10**10)  # expected-remark {{'"-".center(10**10)' fills 10000000000 bytes}}
    code = "7".zfill(width=2 ** (10**3))  # expected-remark {{fills a number of bytes or characters ivc cannot bound}}

with model.trace("range unpacked in C"):
    print(*range(10**12))  # expected-remark {{'*range(10**12)' unpacks a range or combinatoric iterator whose length ivc cannot bound}}
    xs = [*range(10**12)]  # expected-remark {{'*range(10**12)' unpacks a range}}

with model.trace("loop extending its own list"):
    xs = [1]
    for x in xs:
        xs.append(x)  # expected-remark {{'xs.append(x)' extends the list its loop iterates}}

with model.trace("comprehension extending its own list"):
    ys = [1]
    grown = [ys.extend([i]) for i in ys]  # expected-remark {{extends the list its loop iterates}}

with model.trace("augmented assignment extending the iterated list"):
    zs = [1]
    for z in zs:
        zs += [z]  # expected-remark {{'zs += [z]' extends the list its loop iterates}}

with model.trace("repeated squaring"):
    x = 3
    for _ in range(40):
        x = x**2  # expected-remark {{'x**2' raises again an integer that its own rebinding grows}}

with model.trace("repeated augmented squaring"):
    y = 3
    for _ in range(40):
        y **= 2  # expected-remark {{'y **= 2' raises again an integer that its own rebinding grows}}


# (Each line's value is the one before it: sized exactly, the fourth power
# passes the limit.)
with model.trace("powers line after line"):
    w = 10
    w = w**64
    w = w**64
    w = w**64
    w = w**64  # expected-remark {{'w**64' computes an integer of up to 67108864 bits}}

with model.trace("squares line after line"):
    v = 3
    v = v * v  # expected-remark {{'v * v' squares an integer that its own rebinding grows}}
    v *= v  # expected-remark {{'v *= v' squares an integer that its own rebinding grows}}

with model.trace("names chained deeper than ivc follows"):
    n0 = 2
    n1 = n0 * 1
    n2 = n1 * 1
    n3 = n2 * 1
    n4 = n3 * 1
    n5 = n4 * 1
    n6 = n5 * 1
    n7 = n6 * 1
    n8 = n7 * 1
    n9 = n8 * 1
    deep = n9**64  # expected-remark {{'n9**64' computes an integer whose size ivc cannot bound}}

with model.trace("repeated list"):
    items = [0]
    items *= 10**10  # expected-remark {{'items *= 10**10' repeats a sequence 10000000000 times}}


with model.trace("products of bounded repetitions"):
    nested = str([[0] * 2**24] * 2**24)  # expected-remark {{'[[0] * 2**24] * 2**24' makes a nested sequence that reaches 281474993487872 items}} expected-remark {{'str([[0] * 2**24] * 2**24)' makes a string of}}
    row = [0] * 2**13
    grid = [row] * 2**13  # expected-remark {{'[row] * 2**13' makes a nested sequence that reaches 67117056 items}}
    pairs = [0, 0] * 2**24  # expected-remark {{'[0, 0] * 2**24' makes a sequence of 33554432 items}}
    line = "a" * 1000 * 2**20  # expected-remark {{makes a sequence of 1048576000 characters or bytes}}
    half = [0] * 2**24
    both = half + half + half  # expected-remark {{'half + half' makes a sequence of 33554432 items}}


with model.trace("repetitions of what ivc cannot size"):
    h = model.transformer.h[0].output[0]
    text = str(h) * 100000  # expected-remark {{'str(h) * 100000' repeats a sequence ivc cannot size 100000 times}}
    short = str(h) * 16 + str(h) * 17  # expected-remark {{'str(h) * 17' repeats a sequence ivc cannot size 17 times}}
    rows = str(h) * len(model.transformer.h)  # expected-remark {{repeats a sequence ivc cannot size a length's number of times}}
    flat = sum(h.tolist(), start=[])  # expected-remark {{'sum(h.tolist(), start=[])' concatenates sequences with 'sum', which copies the total at every item}}
    act = model.transformer.h[1].output[0]
    rows2 = act.tolist() * 2**40  # expected-remark {{'act.tolist() * 2**40' repeats a sequence 1099511627776 times}}
    # What ivc cannot type may be a list: a shape sliced by a slice object, a
    # free name, nnsight's containers. One dimension of a shape is an int.
    dims = act.shape[slice(None)] * 2**27  # expected-remark {{'act.shape[slice(None)] * 2**27' repeats what may be a sequence 134217728 times}}
    spread = unknown_items * 2**30  # expected-remark {{repeats what may be a sequence 1073741824 times}}
    boxes = nnsight.list([0]) * 2**30  # expected-remark {{repeats what may be a sequence 1073741824 times}}
    scaled = act.shape[0] * 2**30
    grown = []
    grown += range(2**28)  # expected-remark {{'grown += range(2**28)' iterates a range or combinatoric iterator whose length ivc cannot bound}}
    count = int(act.flatten()[0] * 0 + 2**33)
    buffer = bytearray(b"a") * count  # expected-remark {{'bytearray(b"a") * count' repeats a sequence a number of times ivc cannot bound}}


with model.trace("tensor factories with constant shapes"):
    t1 = torch.ones(10**5, 10**5)  # expected-remark {{'torch.ones(10**5, 10**5)' allocates a tensor of 10000000000 elements}}
    t2 = torch.randn(size=(1 << 15, 1 << 14), dtype=torch.float16)  # expected-remark {{allocates a tensor of 536870912 elements}}
    t3 = torch.full((3, 10**9), 1.0)  # expected-remark {{allocates a tensor of 3000000000 elements}}
    t4 = torch.arange(10, 10**9, 2)  # expected-remark {{allocates a tensor of 499999995 elements}}
    side = 100000
    t5 = torch.eye(side)  # expected-remark {{'torch.eye(side)' allocates a tensor of 10000000000 elements}}
    t6 = torch.randint(0, 10, (1 << 29,))  # expected-remark {{allocates a tensor of 536870912 elements}}
    t7 = torch.linspace(0, 1, steps=10**10)  # expected-remark {{allocates a tensor of 10000000000 elements}}
    t8 = zeros([1 << 20, 1 << 10])  # expected-remark {{allocates a tensor of 1073741824 elements}}


with model.trace("products, modular powers and operators handed on"):
    third = 3**2**19
    squared = third * third  # expected-remark {{'third * third' multiplies integers into one of up to 2097152 bits}}
    wrapped = int(3**2**19) ** 64  # expected-remark {{'int(3**2**19) ** 64' computes an integer of up to 67108864 bits}}
    modular = pow(3, 2**64, 3**2**18 - 2)  # expected-remark {{computes a modular power with a 524289-bit modulus and a 128-bit exponent}}
    named = operator.pow(3, 10**8)  # expected-remark {{'operator.pow(3, 10**8)' computes an integer of up to 200000000 bits}}
    padded = operator.mul("a", 2**32)  # expected-remark {{repeats a sequence 4294967296 times}}
    mapped = list(map(pow, [3], [10**8]))  # expected-remark {{'map(pow, [3], [10**8])' hands 'pow' to a callee that applies it to values ivc does not size}}
    reduced = functools.reduce(operator.mul, range(1, 2**17))  # expected-remark {{hands 'operator.mul' to a callee}}


with model.trace("format widths and precisions"):
    f1 = "{:>{}}".format("", 10**10)  # expected-remark {{'"{:>{}}".format("", 10**10)' formats a field of a width or precision beyond 2^28}}
    f2 = f"{'':>{10**10}}"  # expected-remark {{formats a field of a width or precision beyond 2^28}}
    f3 = "%*d" % (10**10, 1)  # expected-remark {{'"%*d" % (10**10, 1)' formats a field}}
    f4 = format("", ">2000000000") + "%.2000000000f" % 1.0  # expected-remark {{'format("", ">2000000000")' formats a field}} expected-remark {{'"%.2000000000f" % 1.0' formats a field}}
    f5 = f"{1.0:.2000000000f}"  # expected-remark {{formats a field of a width or precision beyond 2^28}}
    f6 = str.ljust("", 2**32)  # expected-remark {{'str.ljust("", 2**32)' fills 4294967296 bytes or characters}}


with model.trace("products of ranges and doubling by rebinding"):
    p1 = math.prod(range(1, 2**18))  # expected-remark {{'math.prod(range(1, 2**18))' multiplies more than 2^14 integers in one call}}
    p2 = math.lcm(*range(1, 2**18))  # expected-remark {{multiplies more than 2^14 integers}}
    nest = [0]
    for _ in range(60):
        nest = (nest, nest)  # expected-remark {{'(nest, nest)' nests a sequence in itself twice, which its rebinding doubles}}
    text = "ab"
    for _ in range(32):
        text = text + text  # expected-remark {{'text + text' doubles a sequence that its own rebinding grows}}
    cells = [1]
    for _ in range(32):
        cells *= 2  # expected-remark {{'cells *= 2' repeats a sequence at every turn of a loop}}


# A list grown in place by what may be itself doubles at every turn, under
# whatever name it is reached by (ivc does not follow aliases: anything that
# may be a list counts); a display adds a fixed count, and so does what
# reads no list (a tensor's tolist()). A tensor's slices are no list.
with model.trace("lists grown in place by themselves"):
    dbl1, dbl2, dbl3, dbl4 = [0], [0], [0], [0]
    dbl_alias = dbl3
    dbl_box = [dbl4]
    for _ in range(31):
        dbl1.extend(dbl1)  # expected-remark {{'dbl1.extend(dbl1)' repeats a sequence at every turn of a loop}}
        dbl2 += dbl2[:]  # expected-remark {{'dbl2 += dbl2[:]' repeats a sequence}}
        dbl3 += dbl_alias  # expected-remark {{'dbl3 += dbl_alias' repeats a sequence}}
        dbl4[len(dbl4):] = dbl_box[0]  # expected-remark {{'dbl4[len(dbl4):] = dbl_box[0]' repeats a sequence}}
        dbl1.extend(list(dbl2))  # expected-remark {{'dbl1.extend(list(dbl2))' repeats a sequence}}
        dbl1 += [dbl1[-1], dbl2[0]]
        dbl_alias += dbl_box  # expected-remark {{'dbl_alias += dbl_box' repeats a sequence}}
        list.extend(dbl2, dbl2)  # expected-remark {{'list.extend(dbl2, dbl2)' repeats a sequence}}
    acts = []
    for layer in range(12):
        hidden = model.transformer.h[layer].output[0]
        acts.extend(hidden[0, :, 0].tolist())
        acts += [hidden.norm().item()]
        grid_t = torch.zeros(4)
        grid_t[:] += grid_t
        grid_t[:2] = grid_t[2:] * 2


with model.trace("tensor methods and factories of constant sizes"):
    h = model.transformer.h[0].output[0]
    w1 = torch.zeros(2**28, dtype=torch.float64)  # expected-remark {{allocates a tensor of 268435456 elements of 8 bytes}}
    w2 = torch.zeros(*[2**15, 2**15]) + torch.zeros(torch.Size([2**15, 2**15]))  # expected-remark {{'torch.zeros(*[2**15, 2**15])' allocates a tensor of 1073741824 elements}} expected-remark {{'torch.zeros(torch.Size([2**15, 2**15]))' allocates}}
    w3 = torch.hann_window(2**30) + torch.tril_indices(2**15, 2**15)  # expected-remark {{'torch.hann_window(2**30)' allocates a tensor of 1073741824 elements}} expected-remark {{'torch.tril_indices(2**15, 2**15)' allocates a tensor of 2147483648 elements}}
    base = torch.zeros(2**27)
    w4 = base.repeat(16)  # expected-remark {{'base.repeat(16)' makes a tensor of 2147483648 elements}}
    w5 = h.new_zeros(2**30)  # expected-remark {{'h.new_zeros(2**30)' makes a tensor of 1073741824 elements}}
    w6 = h.expand(2**18, 8, 768)  # expected-remark {{'h.expand(2**18, 8, 768)' makes a tensor of 1610612736 elements}}
    w7 = h.repeat(2**18, 1, 1)  # expected-remark {{'h.repeat(2**18, 1, 1)' repeats a tensor 262144 times}}
    # Chains of repetitions multiply, of what ivc sizes and of what it cannot.
    w7b = h.repeat(256, 1, 1).repeat(512, 1, 1)  # expected-remark {{'h.repeat(256, 1, 1).repeat(512, 1, 1)' repeats a tensor 131072 times}}
    w7c = torch.zeros(2**20).repeat(64).repeat(20)  # expected-remark {{makes a tensor of 1342177280 elements}}
    w7d = h.repeat(2, 1, 1).repeat(2, 1, 1) + torch.zeros(64).repeat(4).repeat(4).sum()

with model.trace("the same methods unbound or as torch functions"):
    h = model.transformer.h[0].output[0]
    u1 = torch.Tensor.repeat(h, 2**18, 1, 1)  # expected-remark {{'torch.Tensor.repeat(h, 2**18, 1, 1)' repeats a tensor 262144 times}}
    u2 = torch.Tensor.new_zeros(h, 2**30)  # expected-remark {{'torch.Tensor.new_zeros(h, 2**30)' makes a tensor of 1073741824 elements}}
    u3 = torch.broadcast_to(h, (2**18, 5, 768))  # expected-remark {{'torch.broadcast_to(h, (2**18, 5, 768))' makes a tensor of 1006632960 elements}}
    u4 = torch.tile(h, (2**16, 2**16))  # expected-remark {{'torch.tile(h, (2**16, 2**16))' repeats a tensor 4294967296 times}}
    # torch 1.13 sums repeat_interleave's counts unchecked: 2^62 of 4 items
    # wraps to an empty buffer it then writes (SIGSEGV).
    u5 = torch.repeat_interleave(h[0, 0, :4], 2**62)  # expected-remark {{repeats a tensor 4611686018427387904 times}}
    u6 = torch.repeat_interleave(torch.tensor([2**62] * 4))  # expected-remark {{repeats a tensor by counts ivc cannot bound (their sum may overflow)}}
    u7 = h.repeat_interleave(h.long())  # expected-remark {{repeats a tensor by counts ivc cannot bound (their sum may overflow)}}
    u8 = np.repeat([0, 0, 0, 0], 2**62)  # expected-remark {{'np.repeat([0, 0, 0, 0], 2**62)' repeats a tensor 4611686018427387904 times}}

with model.trace("tensors grown from operands of constant sizes"):
    vec = torch.ones(2**16)
    g1 = torch.outer(vec, vec)  # expected-remark {{'torch.outer(vec, vec)' makes a tensor of 4294967296 elements from its operands}}
    g2 = vec.outer(vec) + vec.kron(vec)  # expected-remark {{'vec.outer(vec)' makes a tensor of 4294967296 elements from its operands}} expected-remark {{'vec.kron(vec)' makes a tensor}}
    g3 = torch.cartesian_prod(vec, vec)  # expected-remark {{makes a tensor of 8589934592 elements from its operands}}
    g4 = torch.combinations(vec, r=3)  # expected-remark {{'torch.combinations(vec, r=3)' makes a tensor of}}
    block = torch.zeros(2**24)
    g5 = torch.cat([block] * 2**5)  # expected-remark {{'torch.cat([block] * 2**5)' makes a tensor of 536870912 elements from its operands}}
    parts = (block, block) * 16
    g6 = torch.stack(parts)  # expected-remark {{'torch.stack(parts)' makes a tensor of 536870912 elements}}
    g7 = torch.outer(torch.outer(vec, vec[:4]).flatten(), vec)  # expected-remark {{makes a tensor of 17179869184 elements from its operands}}

with model.trace("sizes ivc now evaluates, factories of other names and numpy"):
    h = model.transformer.h[0].output[0]
    s1 = torch.zeros(2**20, 2**20 // 1)  # expected-remark {{allocates a tensor of 1099511627776 elements}}
    s2 = torch.ones(int(1e6), int(1e6))  # expected-remark {{allocates a tensor of 1000000000000 elements}}
    s3 = torch.zeros([2**20] * 2)  # expected-remark {{allocates a tensor of 1099511627776 elements}}
    s4 = h.repeat(int(1e7), 1, 1)  # expected-remark {{repeats a tensor 10000000 times}}
    s5 = "x".center(int(1e12))  # expected-remark {{fills 1000000000000 bytes or characters}}
    digits = int("1" * 2**24, 2)
    s6 = digits**64  # expected-remark {{'digits**64' computes an integer of up to 1073741888 bits}}
    s7 = torch.normal(0.0, 1.0, size=(2**20, 2**20))  # expected-remark {{allocates a tensor of 1099511627776 elements}}
    s8 = torch.range(0, 2**40) + torch.arange(0, 2**40, 1.0)  # expected-remark {{'torch.range(0, 2**40)' allocates a tensor of 1099511627777 elements of 8 bytes}} expected-remark {{'torch.arange(0, 2**40, 1.0)' allocates}}
    s9 = torch.randperm(2**28)  # expected-remark {{allocates a tensor of 268435456 elements of 8 bytes}}
    arr1 = np.ones((2**20, 2**20)) + np.full(2**40, 1.0)  # expected-remark {{'np.ones((2**20, 2**20))' allocates a tensor of 1099511627776 elements of 8 bytes}} expected-remark {{'np.full(2**40, 1.0)' allocates}}
    arr2 = np.random.rand(2**16, 2**16)  # expected-remark {{allocates a tensor of 4294967296 elements of 8 bytes}} expected-remark {{(global-state)}}
    arr4 = np.random.normal(0, 1, 2**31) + np.random.choice(3, 2**31)  # expected-remark {{'np.random.normal(0, 1, 2**31)' allocates a tensor of 2147483648 elements}} expected-remark {{'np.random.choice(3, 2**31)' allocates}} expected-remark {{(global-state)}} expected-remark {{(global-state)}}
    arr5 = np.random.gamma(1.0, 1.0, 2**31) + np.random.normal(0, 1, 8)  # expected-remark {{'np.random.gamma(1.0, 1.0, 2**31)' allocates a tensor of 2147483648 elements}} expected-remark {{(global-state)}} expected-remark {{(global-state)}}
    npvec = np.ones(2**15)
    arr3 = np.outer(npvec, npvec)  # expected-remark {{'np.outer(npvec, npvec)' makes a tensor of 1073741824 elements from its operands}}
    p1 = F.pad(h, (0, 2**40))  # expected-remark {{'F.pad(h, (0, 2**40))' makes a tensor of 1099511627777 elements}}
    p2 = F.one_hot(torch.arange(2**16), 2**16)  # expected-remark {{makes a tensor of 8589934592 elements from its operands}}
    axis = torch.ones(2**15)
    p3 = torch.meshgrid(axis, axis)  # expected-remark {{'torch.meshgrid(axis, axis)' makes a tensor of 2147483648 elements}}


with model.trace("combinatorics consumed in C"):
    c1 = max(itertools.product("ab", repeat=64))  # expected-remark {{'max(itertools.product("ab", repeat=64))' iterates a range or combinatoric iterator whose length ivc cannot bound}}
    c2 = (-1,) in itertools.product(range(10**6), repeat=3)  # expected-remark {{searches an iterator whose length ivc cannot bound}}
    c3 = collections.deque(itertools.permutations(range(12)), maxlen=0)  # expected-remark {{iterates a range or combinatoric iterator}}
    c4 = itertools.product(range(10**12))  # expected-remark {{'itertools.product(range(10**12))' iterates a range}}
    c5 = sorted(itertools.combinations(range(2**13), 3))  # expected-remark {{iterates a range or combinatoric iterator}}
    for c6 in itertools.product(range(10**6), repeat=3):
        break

with model.trace("products and concatenations of many items"):
    m1 = math.prod(list(range(1, 2**20)))  # expected-remark {{'math.prod(list(range(1, 2**20)))' multiplies more than 2^14 integers in one call}}
    m2 = math.prod([3] * 2**24)  # expected-remark {{multiplies more than 2^14 integers}}
    m3 = functools.reduce(operator.add, [[0]] * 2**23)  # expected-remark {{concatenates sequences with 'functools.reduce', which copies the total at every item}}

with model.trace("string methods of sized texts"):
    t1 = "".join(["x" * 2**16] * 2**20)  # expected-remark {{makes a string of 68719476736 characters or bytes}}
    t2 = ("x" * 2**20).replace("x", "y" * 2**20)  # expected-remark {{makes a string of 1099511627776 characters}}
    t3 = ("\t" * 2**14).expandtabs(2**30)  # expected-remark {{makes a string of 17592186044416 characters}}
    t4 = (("ab " * 2**12) * 2**14).split()  # expected-remark {{splits a text into up to 201326592 strings}}
    t5 = list("xyzw" * 2**23)  # expected-remark {{splits a text into up to 33554432 strings}}


def boxed(v):
    return (v,)


with model.trace("values nested in themselves by a loop"):
    chain = zip([1])
    for _ in range(10**6):
        chain = zip(chain)  # expected-remark {{'zip(chain)' nests a value in itself at every turn of a loop (walking it recurses in C)}}
    first = next(chain, None)
    cons = ()
    for _ in range(10**6):
        cons = (cons,)  # expected-remark {{'(cons,)' nests a value in itself at every turn of a loop}}
    code = hash(cons)
    kept = model.transformer.h[0].output[0]
    for _ in range(3):
        kept = torch.relu(kept)
        labelled = (kept, 1)
    # The same through a container's element or method.
    box = [None]
    for _ in range(10**6):
        box[0] = (box[0],)  # expected-remark {{'(box[0],)' nests a value in itself at every turn of a loop}}
    its = [iter([1])]
    for _ in range(10**6):
        its[0] = filter(None, its[0])  # expected-remark {{'filter(None, its[0])' nests a value in itself}}
    stack = [1]
    for _ in range(10**6):
        stack.append((stack.pop(),))  # expected-remark {{'stack.append((stack.pop(),))' nests a value in itself}}
    table = {"k": 1}
    for _ in range(10**6):
        table["k"] = {"k": table.get("k")}  # expected-remark {{'{"k": table.get("k")}' nests a value in itself}}
    again = [1]
    window = (None, None)
    peek = [1]
    sliced = aliased = (1,)
    for _ in range(10**6):
        again = [(again[0],)]  # expected-remark {{'[(again[0],)]' nests a value in itself}}
        window = (window[1], (window[0],))  # expected-remark {{'(window[1], (window[0],))' nests a value in itself}}
        peek.append((peek[-1],))  # expected-remark {{'peek.append((peek[-1],))' nests a value in itself}}
        # A slice is the sequence again: t[:] of a tuple is t.
        sliced = (sliced[:],)  # expected-remark {{'(sliced[:],)' nests a value in itself}}
        # ... and a name the value is copied back from is the value.
        boxed_again = (aliased,)  # expected-remark {{'(aliased,)' nests a value in itself}}
        aliased = boxed_again
    # An item stored as deep as it was read nests nothing: a sliding window.
    pair = (None, None)
    best = {"layer": -1, "prev": -1}
    for i in range(10**6):
        pair = (pair[1], i)
        best = {"layer": i, "prev": best["layer"]}
    # ... through constructors, concatenations, unpacking, helpers, :=, reduce.
    o1 = o2 = o3 = o4 = o5 = ()
    for _ in range(10**6):
        o1 = tuple([o1])  # expected-remark {{'tuple([o1])' nests a value in itself}}
        o2 = (o2,) + ()  # expected-remark {{'(o2,) + ()' nests a value in itself}}
        o3, _ = (o3,), 0  # expected-remark {{'(o3,)' nests a value in itself}}
        o4 = boxed(o4)  # expected-remark {{'boxed(o4)' nests a value in itself}}
        o5 += (o5,)  # expected-remark {{'(o5,)' nests a value in itself}}
    o6 = functools.reduce(lambda a, _: (a,), range(10**6), ())  # expected-remark {{nests a value in itself}}
    o7 = ()
    o8 = [o7 := (o7,) for _ in range(10**6)]  # expected-remark {{'o7 := (o7,)' nests a value in itself}}
    counts = [0] * 4
    for i in range(4):
        counts[i] = counts[i - 1] + 1
        counts.append(len(counts))
    copies = [1]
    total = 0
    for i in range(4):
        copies = list(copies) + [i]
        total = total + i
    summed = functools.reduce(lambda a, b: a + b, range(10**6))


def wrap_listed(a):
    b = [a]
    return tuple(b)


with model.trace("nesting taken back out of what holds it"):
    # A piece of a display, an item picked from one, a comprehension over
    # one, a helper's local list, or a call that may hand its argument
    # back: each still holds the value one level deeper.
    t1 = t2 = t3 = t4 = t5 = ()
    i1 = i2 = i3 = iter([1])
    for _ in range(10**6):
        t1 = (t1, t1)[:1]  # expected-remark {{'(t1, t1)' nests a value in itself}}
        t2 = tuple(x for x in [t2])  # expected-remark {{'tuple(x for x in [t2])' nests a value in itself}}
        t3 = next(zip([t3]))  # expected-remark {{'zip([t3])' nests a value in itself}}
        t4 = max([(t4,)])  # expected-remark {{'[(t4,)]' nests a value in itself}}
        t5 = wrap_listed(t5)  # expected-remark {{'wrap_listed(t5)' nests a value in itself}}
        i1 = map(abs, [i1][0])  # expected-remark {{'map(abs, [i1][0])' nests a value in itself}}
        i2 = map(abs, nnsight.apply(lambda q: q, i2))  # expected-remark {{nests a value in itself}}
        i3 = filter(None, [i3, i3][1])  # expected-remark {{nests a value in itself}}
    # ... or what code adds to a container in place before it is copied.
    t6 = t7 = t8 = t9 = ()
    for _ in range(10**6):
        l6 = []
        l6.append(t6)
        t6 = tuple(l6)  # expected-remark {{'tuple(l6)' nests a value in itself}}
        l7 = [0]
        l7[0] = t7
        t7 = tuple(l7)  # expected-remark {{'tuple(l7)' nests a value in itself}}
        l8 = []
        l8 += [t8]
        l8.extend((t8,))
        t8 = tuple(l8)  # expected-remark {{'tuple(l8)' nests a value in itself}}
        d9 = {}
        d9[0] = t9
        t9 = tuple(d9.values())  # expected-remark {{'tuple(d9.values())' nests a value in itself}}
    # ... or one side of a conditional, or deeper than ivc follows.
    t10 = t11 = ()
    for i in range(10**6):
        t10 = (t10,) if i >= 0 else t10  # expected-remark {{'(t10,)' nests a value in itself}}
        t11 = ((((((t11,),),),),),)  # expected-remark {{nests a value in itself}}
    # What holds no objects holds nothing it was given.
    head_column = model.transformer.h[0].output[0][:, :1]
    columns = head_column
    counted = 0
    for _ in range(10**3):
        columns = torch.cat([columns, head_column], dim=1)
        counted = len([counted]) + counted


with model.trace("tuples typed as tensors, doubled in a loop"):
    # A block's output, the pieces of a split and a shape are tuples,
    # whatever ivc types them: each turn doubles them.
    out = model.transformer.h[0].output
    pieces = torch.zeros(1).split(1)
    dims = model.transformer.h[0].output[0].shape
    for _ in range(28):
        out = out + out  # expected-remark {{'out + out' doubles a sequence that its own rebinding grows}}
        pieces += pieces  # expected-remark {{'pieces += pieces' repeats a sequence at every turn of a loop}}
        dims = dims + dims  # expected-remark {{'dims + dims' doubles a sequence}}
    # Any spelling of two copies or more: a repetition, a slice, a copy, a
    # conditional.
    r1, r2, r3 = [0], [0], (0,)
    for i in range(28):
        r1 = r1 * 2  # expected-remark {{'r1 * 2' doubles a sequence that its own rebinding grows}}
        r2 = r2[:] + r2  # expected-remark {{'r2[:] + r2' doubles a sequence}}
        r3 = tuple(r3) + tuple(r3) if i >= 0 else r3  # expected-remark {{doubles a sequence}}
    # A tensor summed into itself, or scaled, grows nothing.
    scaled = model.transformer.h[2].output[0]
    for _ in range(12):
        scaled = scaled * 2
    acc = model.transformer.h[1].output[0] * 0
    for _ in range(12):
        acc = acc + model.transformer.h[1].output[0]


with model.trace("sorts and texts written out in one call"):
    # A sort compares n log n times; str, repr and % write every item out.
    floats = [random.random() for _ in range(2**24)]
    by_value = sorted(floats)  # expected-remark {{'sorted(floats)' sorts 16777216 items in one call}}
    floats.sort()  # expected-remark {{'floats.sort()' sorts 16777216 items in one call}}
    shown = repr(["a" * 2**12] * 2**19)  # expected-remark {{makes a string of 2160066560 characters or bytes}}
    typed = str(("a" * 2**12,) * 2**19)  # expected-remark {{makes a string of}}
    filled = ("%s" * 2**19) % tuple(["a" * 2**12] * 2**19)  # expected-remark {{makes a string of 2160066560 characters or bytes}}
    numbers = torch.rand(2**23).tolist()
    numbers.sort()  # expected-remark {{'numbers.sort()' sorts 8388608 items in one call}}
    printed = str(torch.rand(2**23).tolist())  # expected-remark {{writes out 8388608 items in one call}}
    # However they are reached: a slice, a display, a field, format, join.
    rand_listed = torch.rand(2**23)
    w1 = f"{rand_listed.tolist()}"  # expected-remark {{'{rand_listed.tolist()}' writes out 8388608 items in one call}}
    w2 = sorted(rand_listed.tolist()[:])  # expected-remark {{sorts 8388608 items in one call}}
    w3 = str([rand_listed.tolist()]) + str({0: rand_listed.tolist()})  # expected-remark {{'str([rand_listed.tolist()])' writes out 8388609 items}} expected-remark {{'str({0: rand_listed.tolist()})' writes out 8388610 items}}
    w4 = "%r" % (rand_listed.tolist(),) + format(rand_listed.tolist())  # expected-remark {{writes out 8388609 items}} expected-remark {{'format(rand_listed.tolist())' writes out 8388608 items}}
    w5 = " ".join(map(str, rand_listed.tolist()))  # expected-remark {{writes out 8388608 items}}
    # What exists taken many times over is counted as no limit.
    act = model.transformer.h[0].output[0]
    w6 = str(act.flatten().repeat(2**16).tolist())  # expected-remark {{makes a string of a number ivc cannot bound characters}}
    # The configuration's dimensions are lengths of what exists; its other
    # numbers (a token id, a base) are not.
    per_layer = [0] * (model.config.n_layer * 2**13)
    per_token = [0] * (model.config.bos_token_id * 2**13)  # expected-remark {{'[0] * (model.con...bos_token_id * 2**13)' repeats a sequence a number of times ivc cannot bound}}
    # A builtin that takes a tensor item by item makes a tensor of each.
    i1 = max(torch.rand(2**22))  # expected-remark {{'max(torch.rand(2**22))' takes 4194304 items of a tensor one by one in one call, a new tensor each}}
    i2 = sorted(torch.rand(2**13))  # expected-remark {{takes 8192 items of a tensor one by one}}
    i3 = list(act.repeat(2**16, 1, 1))  # expected-remark {{takes items ivc cannot count of a tensor one by one}}
    i4 = max(act[0, -1]) + sum(torch.rand(100)) + len(list(act[0])) + min(torch.rand(2**12))
    few = sorted([random.random() for _ in range(2**16)])
    told = repr(few[:8]) + str([1, 2, 3]) + "%s and %s" % ("a", "b")


with model.trace("long division, accumulations and joins of texts"):
    wide = int(("1" * 2**14) * 2**14, 2)
    q1 = wide % (wide >> 1)  # expected-remark {{'wide % (wide >> 1)' divides an integer of up to 268435457 bits}}
    q2 = divmod(wide, wide - 1)  # expected-remark {{divides an integer of up to 268435457 bits}}
    q3 = math.isqrt(wide)  # expected-remark {{'math.isqrt(wide)' divides an integer}}
    q4 = list(itertools.accumulate([[0]] * 2**20))  # expected-remark {{concatenates sequences with 'itertools.accumulate'}}
    q5 = ("y" * 2**14).join("x" * 2**20)  # expected-remark {{makes a string of 17180917760 characters or bytes}}
    q6 = (b"a" * 2**17).replace(b"a", b"b" * 2**17)  # expected-remark {{makes a string of 17179869184 characters or bytes}}
    q7 = torch.zeros(pow(2, 33)) + torch.zeros(int(float(2**33)))  # expected-remark {{'torch.zeros(pow(2, 33))' allocates a tensor of 8589934592 elements}} expected-remark {{'torch.zeros(int(float(2**33)))' allocates}}
    q8 = torch.zeros(max(2**33, 1))  # expected-remark {{allocates a tensor of 8589934592 elements}}

with model.trace("nesting built by rebinding and comprehensions"):
    deep = (0,) * 4096
    deep = (deep,) * 4096  # expected-remark {{'(deep,) * 4096' repeats a sequence holding a name that this rebinding multiplies}}
    code = hash(deep)
    layer1 = [0] * 4096
    layer2 = [layer1 for _ in range(4096)]  # expected-remark {{'[layer1 for _ in range(4096)]' makes a nested sequence that reaches 16781312 items}}
    same = str(layer2)  # expected-remark {{'str(layer2)' makes a string of}}

with model.trace("ranges held by displays"):
    # A range is lazy, but torch.tensor and np.array make each of its numbers.
    lazy_span = range(2**13)
    lazy_block = torch.tensor([range(2**13)] * 2**15)  # expected-remark {{'[range(2**13)] * 2**15' makes a nested sequence that reaches 268468224 items}}
    pinned = np.array([lazy_span for _ in range(2**15)])  # expected-remark {{'[lazy_span for _ in range(2**15)]' makes a nested sequence that reaches 268468224 items}}
    heads = torch.tensor([range(12)] * 4)

with model.trace("displays that name one list many times"):
    # torch.tensor, str and == walk every reference of a display.
    long_ids = list(range(2**22))
    grid16 = [long_ids, long_ids, long_ids, long_ids, long_ids, long_ids, long_ids, long_ids]  # expected-remark {{makes a nested sequence that reaches 33554440 items}}
    few_ids = list(range(12))
    pair_ids = torch.tensor([few_ids, few_ids])

with model.trace("tensors iterated row by row"):
    # Iterating a tensor unbinds every row at once, however it is spelled.
    column = torch.zeros(2**24, 1)
    first_row = next(iter(column))  # expected-remark {{'iter(column)' makes 16777216 tensors}}
    for each_row in column:  # expected-remark {{'column' is iterated, which makes 16777216 tensors}}
        break
    head_row, *rest_rows = column  # expected-remark {{'head_row, *rest_rows = column' makes 16777216 tensors}}
    spread_rows = [*column]  # expected-remark {{'*column' makes 16777216 tensors}}
    numbered = dict(enumerate(column))  # expected-remark {{'enumerate(column)' makes 16777216 tensors}}
    copies = [r for r in column]  # expected-remark {{'column' is iterated, which makes 16777216 tensors}}
    sliced_rows = list(itertools.islice(column, 1))  # expected-remark {{'itertools.islice(column, 1)' makes 16777216 tensors}}
    last_rows = collections.deque(column, 1)  # expected-remark {{'collections.deque(column, 1)' makes 16777216 tensors}}
    zipped_rows = [*zip(*[column])]  # expected-remark {{'zip(*[column])' makes 16777216 tensors}}
    chained_rows = list(itertools.chain.from_iterable([column]))  # expected-remark {{makes 16777216 tensors}}
    wide_rows = torch.zeros(4, 2**20)
    row_sums = [r.sum() for r in wide_rows]
    w0, w1, w2, w3 = wide_rows

with model.trace("products and gathers of constant shapes"):
    # Matrix products however spelled, and a row per index of a gather.
    tall_factor = torch.ones(2**11, 1)
    flat_factor = torch.ones(1, 2**20)
    lin = F.linear(tall_factor, torch.ones(2**20, 1))  # expected-remark {{makes a tensor of 2147483648 elements from its operands}}
    linalg_product = torch.linalg.matmul(tall_factor, flat_factor)  # expected-remark {{makes a tensor of 2147483648 elements from its operands}}
    added = torch.addmm(torch.zeros(1), tall_factor, flat_factor)  # expected-remark {{makes a tensor of 2147483648 elements from its operands}}
    batched = torch.baddbmm(torch.zeros(1), torch.ones(1, 2**11, 1), torch.ones(1, 1, 2**20))  # expected-remark {{makes a tensor of 2147483648 elements}}
    chained = torch.linalg.multi_dot([tall_factor, torch.ones(1, 2), torch.ones(2, 2**20)])  # expected-remark {{makes a tensor of 2147483648 elements}}
    dotted = torch.tensordot(torch.ones(2**11, 2), torch.ones(2, 2**20), dims=1)  # expected-remark {{makes a tensor of 2147483648 elements}}
    gather_ids = torch.zeros(2**20, dtype=torch.long)
    gather_table = torch.ones(2**4, 2**11)
    picked = gather_table[gather_ids]  # expected-remark {{'gather_table[gather_ids]' gathers a tensor of 2147483648 elements}}
    selected = gather_table.index_select(0, gather_ids)  # expected-remark {{makes a tensor of 2147483648 elements}}
    embedded = F.embedding(gather_ids, gather_table)  # expected-remark {{makes a tensor of 2147483648 elements}}
    masked = gather_table[torch.ones(2**4, 2**11, dtype=torch.bool)]
    small_lin = F.linear(torch.ones(8, 16), torch.ones(4, 16))
    small_pick = gather_table[torch.tensor([0, 1, 2])]
    small_dot = torch.tensordot(torch.ones(4, 8), torch.ones(8, 4), dims=1)

with model.trace("broadcasts and views of constant shapes"):
    # Shapes carry through `[:, None]`, `unsqueeze` and `.T`; an operator
    # broadcasts its operands to every pair of rows.
    rows_a = torch.ones(2**12, 2**6)
    rows_b = torch.ones(2**12, 2**6)
    pairs = rows_a[:, :, None] * rows_b[None]  # expected-remark {{'rows_a[:, :, None] * rows_b[None]' broadcasts to a tensor of 1073741824 elements}}
    sums = rows_a.unsqueeze(1) + rows_b.unsqueeze(0)  # expected-remark {{broadcasts to a tensor of 1073741824 elements}}
    lifted = torch.matmul(torch.ones(2**15, 16).unsqueeze(0), torch.ones(16, 2**15))  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    transposed = F.linear(torch.ones(2**15, 16), torch.ones(16, 2**15).T)  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    scaled_rows = rows_a[:, None] * 2 + rows_a[0] - rows_b[..., None]
    gram_small = rows_a.T @ rows_b
    halves = torch.ones(2**16)
    sliced_outer = torch.outer(halves[:2**15], halves[2**15:2**16])  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    sliced_dist = torch.cdist(torch.ones(2**15, 4)[:, :2], torch.ones(2**15, 4)[:, :2])  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    small_outer = torch.outer(halves[:16], halves[2:10])
    # A long chain of views is followed a bounded way, once per view.
    chained_view = rows_a.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T.T + rows_b

with model.trace("containers of big strings written out"):
    # str() of a container writes the strings its items hold, at every reference.
    mebibyte = "a" * 2**20
    pair_of_texts = {1: mebibyte, 2: mebibyte}
    written = str([pair_of_texts] * 2**10)  # expected-remark {{'str([pair_of_texts] * 2**10)' makes a string of 2147606528 characters or bytes}}
    nested_written = repr([[mebibyte] for _ in range(2**11)])  # expected-remark {{makes a string of}}
    short_written = str([pair_of_texts] * 2)

with model.trace("views, tiles and samples of constant sizes"):
    h = model.transformer.h[0].output[0]
    ones16 = torch.ones(2**16)
    v1 = ones16.unsqueeze(0).expand(2**16, -1).clone()  # expected-remark {{'ones16.unsqueeze(0).expand(2**16, -1)' makes a tensor of 4294967296 elements}}
    v2 = np.tile(np.ones(2), 2**31)  # expected-remark {{makes a tensor of 4294967296 elements from its operands}}
    v3 = np.repeat(np.ones(2**16), 2**16) + np.tri(2**16)  # expected-remark {{'np.repeat(np.ones(2**16), 2**16)' makes a tensor}} expected-remark {{'np.tri(2**16)' makes a tensor}}
    v4 = torch.tensordot(ones16, ones16, dims=0)  # expected-remark {{makes a tensor of 4294967296 elements from its operands}}
    v5 = F.interpolate(h.unsqueeze(0), size=(2**16, 2**16))  # expected-remark {{makes a tensor of 4294967296 elements from its operands}}
    v6 = np.random.permutation(2**30)  # expected-remark {{allocates a tensor of 1073741824 elements of 8 bytes}} expected-remark {{(global-state)}}
    v7 = torch.multinomial(torch.ones(10), num_samples=2**31, replacement=True)  # expected-remark {{allocates a tensor of 2147483648 elements of 8 bytes}}
    v8 = np.array([np.ones(2**16)] * 2**16)  # expected-remark {{'np.array([np.ones(2**16)] * 2**16)' makes a tensor of 4294967296 elements from its operands}}
    v9 = torch.diag_embed(torch.ones(2**16))  # expected-remark {{makes a tensor of 4294967296 elements from its operands}}


with model.trace("sizes bound by several assignments"):
    size = 1
    size = 2**33
    b1 = torch.ones(size)  # expected-remark {{'torch.ones(size)' allocates a tensor of 8589934592 elements}}
    for each in [16, 2**33]:
        b2 = torch.ones(each)  # expected-remark {{'torch.ones(each)' allocates a tensor of 8589934592 elements}}
    b3 = torch.ones(walrus := 2**33)  # expected-remark {{allocates a tensor of 8589934592 elements}}


with model.trace("widths by keyword, by mapping, built at run time"):
    k1 = "{x:>{w}}".format(x="a", w=2**34)  # expected-remark {{formats a field of a width or precision beyond 2^28}}
    k2 = "{x:>{w}}".format_map({"x": "a", "w": 2**34})  # expected-remark {{formats a field of a width or precision beyond 2^28}}
    k3 = format("a", ">" + str(2**34))  # expected-remark {{'format("a", ">" + str(2**34))' formats a field}}
    k4 = "{x:>{w}}".format(x="a", w=8) + format("a", ">" + str(8)) + "{}".format(2**34)


with model.trace("degrees and exponents of tensor functions"):
    d1 = torch.special.chebyshev_polynomial_t(torch.tensor([2.0]), 1 << 40)  # expected-remark {{evaluates a polynomial of a degree over 2^16 or that ivc cannot bound}}
    d2 = torch.linalg.matrix_power(torch.randn(64, 64), 2**62)  # expected-remark {{raises a matrix to a power over 2^10 or that ivc cannot bound}}
    d4 = torch.linalg.matrix_power(torch.randn(3, 3), -2**63)  # expected-remark {{raises a matrix to a power over 2^10}}
    d3 = torch.special.hermite_polynomial_h(torch.tensor([0.5]), 8) + torch.linalg.matrix_power(torch.eye(4), 3).sum()


def grow(base, times):
    return base**times  # expected-remark {{'base**times' computes an integer of up to 20000000000 bits}}


def make(n):
    block = torch.ones(n << 28)  # expected-remark {{'torch.ones(n << 28)' allocates a tensor of 805306368 elements}}

    def keep(y):
        return y

    return keep


# A helper's parameters are what its calls pass, a pinned constant's call
# included (the runtime runs `reused = (make(3))` before the body).
reused = make(3)

with model.trace("in a helper"):
    huge = grow(2, 10**10)
    same = reused(huge)


# Items that hash alike make filling a set or dict quadratic in one C call:
# int hashes are the value modulo 2**61 - 1, complex ones add their parts'.
with model.trace("sets and dicts filled in one call"):
    colliding = [i * (2**61 - 1) for i in range(2**17)]
    h1 = set(colliding)  # expected-remark {{'set(colliding)' fills a set or dict in one call from items ivc cannot bound, and items that hash alike make that quadratic (build it with a comprehension)}}
    n = torch.arange(2**15, dtype=torch.float64)
    h2 = frozenset(torch.complex(n * 1000003, -n).tolist())  # expected-remark {{fills a set or dict in one call}}
    h3 = collections.Counter(colliding)  # expected-remark {{fills a set or dict in one call}}
    h4 = {*colliding}  # expected-remark {{fills a set or dict in one call}}
    h5 = dict(zip(colliding, colliding))  # expected-remark {{fills a set or dict in one call}}
    h6 = collections.defaultdict(list, zip(colliding, colliding))  # expected-remark {{fills a set or dict in one call}}
    h7 = set()
    h7.update(list(colliding))  # expected-remark {{fills a set or dict in one call}}
    h8 = set(*[colliding])  # expected-remark {{fills a set or dict in one call}}
    grown = list(range(3))
    grown.extend(colliding)  # a list bound once may have changed since
    h9 = set(grown)  # expected-remark {{'set(grown)' fills a set or dict in one call}}
    small = {i: i for i in range(3)}
    pairs = list(small.items())
    pairs.extend(zip(colliding, colliding))  # a dict's items, copied to a list, then grown
    h10 = dict(pairs)  # expected-remark {{'dict(pairs)' fills a set or dict in one call}}
    # A slice of constant bounds takes few items, whatever it slices; a long
    # one, what it slices.
    top = dict(sorted(small.items(), key=lambda kv: kv[1])[:3]) | set(colliding[:64])
    h11 = set(colliding[:2**16])  # expected-remark {{'set(colliding[:2**16])' fills a set or dict in one call}}
    h12 = dict(pairs[2:])  # expected-remark {{fills a set or dict in one call}}
    layers = [2, 4, 6]  # a display no read of it may change: three items
    h11 = set(layers) | set(dict(zip(layers, layers)))
    extended = [2, 4, 6]
    extended.extend(colliding)
    h12 = set(extended)  # expected-remark {{'set(extended)' fills a set or dict in one call}}
    table = {}
    table |= zip(colliding, colliding)  # expected-remark {{'table |= zip(colliding, colliding)' fills a set or dict in one call}}
    mask = model.transformer.h[0].output[0] > 0
    mask |= model.transformer.h[0].output[0] < -1
    h7.update(*[colliding])  # expected-remark {{fills a set or dict in one call}}


def far():
    return range(10**15)  # expected-remark {{'return range(10**15)' stores a range or combinatoric iterator whose length ivc cannot bound where ivc does not follow it (what reads it back may consume it in C)}}


# A range ivc cannot bound, stored where the rule loses it, is reported
# there: whatever reads it back may hand it to sum() or max().
with model.trace("ranges stored in containers and returned"):
    s1 = sum([range(10**15)][0])  # expected-remark {{'[range(10**15)]' stores a range or combinatoric iterator}}
    s2 = max([itertools.product("ab", repeat=64)][0])  # expected-remark {{stores a range or combinatoric iterator}}
    for r in [range(10**15)]:  # expected-remark {{'[range(10**15)]' stores a range}}
        s3 = sum(r)  # expected-remark {{'sum(r)' iterates a range}}
    s4 = {"r": range(10**15)}  # expected-remark {{stores a range}}
    s5 = sum(far()) + sum((lambda: range(10**15))())  # expected-remark {{'range(10**15)' stores a range}}
    s6 = [range(10**15) for _ in [0]]  # expected-remark {{'range(10**15)' stores a range}} expected-remark {{'[range(10**15) for _ in [0]]' makes a nested sequence}}
    r7 = range(10**15) if s6 else range(3)
    s7 = sum(r7)  # expected-remark {{'sum(r7)' iterates a range or combinatoric iterator whose length ivc cannot bound}}


with model.trace("sizes handed on, numpy's object arithmetic and dtypes"):
    h = model.transformer.h[0].output[0]
    m1 = list(map(torch.ones, [2**30]))  # expected-remark {{'map(torch.ones, [2**30])' hands 'torch.ones' to a callee that applies it to values ivc does not size}}
    m2 = list(map(str.zfill, ["1"], [2**34]))  # expected-remark {{hands 'str.zfill' to a callee}}
    m3 = functools.partial(np.ones, 2**31)  # expected-remark {{hands 'numpy.ones' to a callee}}
    m4 = operator.methodcaller("new_ones", 2**30)  # expected-remark {{'operator.methodcaller("new_ones", 2**30)' names a method whose cost follows arguments ivc does not size}}
    m5 = list(map(torch.histc, [h], [2**30]))  # expected-remark {{hands 'torch.histc' to a callee}}
    m6 = random.sample(range(2**62), 2**31)  # expected-remark {{'random.sample(range(2**62), 2**31)' asks for k of 2147483648 (at most 16777216 in the server's process)}}
    table = collections.defaultdict(set)
    o1 = np.power(2, 2**64)  # expected-remark {{'np.power(2, 2**64)' computes an integer whose size ivc cannot bound}}
    o2 = np.power.reduce([2**64] * 3)  # expected-remark {{applies an integer power or shift to items ivc does not size}}
    o3 = np.prod([2**64] * 2**20)  # expected-remark {{multiplies more than 2^14 integers in one call}}
    d1 = np.ones(2**20, dtype=(np.float64, 2**9))  # expected-remark {{gives numpy a dtype ivc cannot size (a subarray, a long flexible type or objects)}}
    d2 = np.zeros(2, "U2000000000")  # expected-remark {{gives numpy a dtype ivc cannot size}}
    d4 = np.array(np.ones(2**26), dtype=str)  # expected-remark {{gives numpy a dtype ivc cannot size}}
    d3 = np.zeros(2, dtype="<U16") + np.ones(2, "f4") + np.full(2, 1.0, np.float64)


with model.trace("sizes given to functions that are no factories"):
    h = model.transformer.h[0].output[0]
    z1 = torch.tensor_split(h, 2**24)  # expected-remark {{'torch.tensor_split(h, 2**24)' asks for sections of 16777216 (at most 65536 in the server's process)}}
    z2 = torch.histc(h, bins=2**30)  # expected-remark {{asks for bins of 1073741824}}
    z3 = torch.fft.fft(h, n=2**26)  # expected-remark {{asks for n of 67108864 (at most 1048576 in the server's process)}}
    z4 = F.interpolate(h, scale_factor=2**18)  # expected-remark {{asks for scale_factor of 262144}}
    z5 = np.add.outer(np.ones(2**15), np.ones(2**15))  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    z6 = np.random.bytes(2**32)  # expected-remark {{asks for length of 4294967296}} expected-remark {{(global-state)}}
    z7 = np.binary_repr(1, width=2**32)  # expected-remark {{asks for width of 4294967296}}
    p1 = torch.ones(2**7, 2**7, 2**7, 2**6).nonzero()  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    p2 = torch.zeros(2**24).unbind()  # expected-remark {{'torch.zeros(2**24).unbind()' makes 16777216 tensors}}
    p3 = list(torch.zeros(2**24))  # expected-remark {{makes 16777216 tensors}}
    p4 = torch.zeros(2**27).tolist()  # expected-remark {{makes 134217729 Python objects}}
    p5 = torch.diag(torch.ones(2**16))  # expected-remark {{makes a tensor of 4294967296 elements from a vector}}
    p6 = np.pad(np.ones(2), 2**31)  # expected-remark {{'np.pad(np.ones(2), 2**31)' makes a tensor of 4294967298 elements}}
    p9 = torch.vander(h[0, 0, :1], N=2**31) + torch.special.multigammaln(h, p=2**18)  # expected-remark {{asks for N of 2147483648}} expected-remark {{asks for p of 262144}}
    q1 = F.adaptive_avg_pool1d(h, 2**30) + torch.diag(h[0], 2**20)  # expected-remark {{asks for output_size of 1073741824}} expected-remark {{asks for diagonal of 1048576}}
    q2 = torch.expand_copy(h, (2**18, 5, 768))  # expected-remark {{makes a tensor of 1006632960 elements}}
    p8 = torch.combinations(torch.ones(1), r=2**16 + 1)  # expected-remark {{takes combinations of more than 64 items, or of a count ivc cannot bound}}
    p7 = torch.zeros(64, 4096).unbind()[0] + torch.zeros(4096).split(64)[0].sum() + torch.diag(torch.ones(64)).sum() + len(torch.zeros(4096).tolist())
    z8 = h.tensor_split(3)[0] + torch.histc(h, bins=100) + F.interpolate(h, scale_factor=2.0) + torch.fft.rfft(h, n=1024).abs()



# Kernels whose output grows with a padding, stride, scale or size: one
# number stands for each spatial dimension. Distances, covariances and block
# diagonals go as rows by rows; tolist makes a list of every row, and a split
# along a named dimension as many tensors as it is long.
with model.trace("arguments that grow kernels' outputs"):
    h = model.transformer.h[0].output[0]
    g1 = F.conv_transpose1d(h, torch.ones(8, 4, 3), stride=2**24)  # expected-remark {{asks for stride of 16777216 (at most 256 in the server's process)}}
    g2 = F.conv2d(h.reshape(1, 8, 8, 8), torch.ones(8, 8, 1, 1), padding=6000)  # expected-remark {{asks for padding of 6000 in each of 2 dimensions, 36000000 in all}}
    g3 = torch.constant_pad_nd(h, (2**28, 0))  # expected-remark {{'torch.constant_pad_nd(h, (2**28, 0))' makes a tensor of 268435457 elements}}
    g4 = F.pad(h, (2**14, 0, 2**14, 0))  # expected-remark {{makes a tensor of 268468225 elements}}
    g5 = F.interpolate(torch.ones(1, 1, 4, 4, 4), scale_factor=255)  # expected-remark {{asks for scale_factor of 255 in each of 3 dimensions, 16581375 in all}}
    g6 = F.upsample(h, scale_factor=2**20)  # expected-remark {{asks for scale_factor of 1048576 in each of 3 dimensions}}
    g6b = F.interpolate(h, size=2**25)  # expected-remark {{asks for size of 33554432 in each of 2 dimensions}}
    g7 = F.fold(torch.ones(1, 36, 1), (2**14, 2**14), 3, stride=2**14)  # expected-remark {{asks for output_size of 268435456}}
    g8 = F.affine_grid(torch.ones(1, 2, 3), (1, 1, 2**15, 2**14))  # expected-remark {{asks for size of 536870912}}
    g9 = torch.block_diag(torch.ones(2**15, 1), torch.ones(1, 2**15))  # expected-remark {{makes a tensor of 1073807361 elements}}
    g10 = torch.cdist(torch.ones(2**15, 1), torch.ones(2**15, 1))  # expected-remark {{makes a tensor of 1073741824 elements}}
    g11 = torch.cov(torch.ones(2**15, 2))  # expected-remark {{makes a tensor of 1073741824 elements}}
    g12 = torch.zeros(2**26, 0).tolist()  # expected-remark {{makes 67108865 Python objects}}
    g13 = torch.zeros(2**26, 0).unbind(0)  # expected-remark {{makes 67108864 tensors}}
    g14 = torch.zeros(4, 2**26, 0).split(1, -2)  # expected-remark {{makes 67108864 tensors}}
    fine = F.conv2d(h.reshape(1, 8, 8, 8), torch.ones(8, 8, 3, 3), padding=1) + F.interpolate(h.reshape(1, 8, 8, 8), scale_factor=2)[..., :8, :8]
    near = torch.cdist(torch.ones(64, 8), torch.ones(32, 8)).sum() + F.pad(h, (1, 1)).sum() + torch.ones(4, 4).unbind(1)[0].sum()


# list(), tuple() and sorted() of what ivc sizes, and a spread into a
# display, keep the size, so chained repetitions add up.
with model.trace("sizes kept through list()"):
    listed = list(range(2**16)) * 16
    listed16 = listed * 16
    listed256 = listed16 * 16  # expected-remark {{'listed16 * 16' makes a sequence of 268435456 items}}
    spread = [*range(2**20)] * 2**8  # expected-remark {{makes a sequence of 268435456 items}}
    small = tuple("ab") * 4 + list(range(8))[:2] * 2


# Adding or comparing big integers costs their bits each time.
with model.trace("big integers worked through"):
    total = sum([10**100000] * 2**23)  # expected-remark {{'sum' works through 8388608 integers of up to 400000 bits in one call}}
    ordered = sorted([10**4000, 10**4000 + 1] * 2**22)  # expected-remark {{'sorted' works through 8388608 integers}}
    fine_total = sum([10**30] * 1000) + max([2**70, 2**71])


# Big integers reached through map, list and a comprehension are still
# worked through one by one.
with model.trace("big integers through map and comprehensions"):
    huge_int = 10**100000
    mapped_total = sum(map(int, [huge_int] * 2**23))  # expected-remark {{'sum' works through 8388608 integers}}
    comp_total = sum([huge_int for _ in range(2**23)])  # expected-remark {{'sum' works through 8388608 integers}}
    mapped_product = math.prod(map(int, [2] * 2**20))  # expected-remark {{multiplies more than 2^14 integers in one call}}


# Formats built at run time from digits, and nested specs given as text.
with model.trace("formats built from digits"):
    replaced = "%.2f".replace("2", "2000000000") % 0.5  # expected-remark {{formats a field of a width or precision beyond 2^28}}
    spelled = f"{0.5:.{'2' + '0' * 9}f}"  # expected-remark {{formats a field of a width or precision beyond 2^28}}
    short = f"{0.5:.{'2'}f}" + "%.2f".replace("2", "3") % 0.5
    wide_int = 10**100000
    walked = sum(iter([wide_int] * 2**23))  # expected-remark {{'sum' works through 8388608 integers}}


# Broadcasts spelled as functions and methods, and results of elementwise
# operations, which keep the shapes of what they combine.
with model.trace("broadcasts as calls"):
    bc_h = model.transformer.h[0].output[0]
    bc_a = torch.ones(23000)
    bc_n = np.ones(23000)
    bc_mask = bc_h[0, 0, 0] > 0
    bc_mul = torch.mul(bc_a[:, None], bc_a[None, :])  # expected-remark {{makes a tensor of 529000000 elements from its operands}}
    bc_method = bc_a[:, None].mul(bc_a[None, :])  # expected-remark {{makes a tensor of 529000000 elements from its operands}}
    bc_where = torch.where(bc_mask, bc_a[:, None], bc_a[None, :])  # expected-remark {{makes a tensor of 529000000 elements from its operands}}
    bc_clamp = torch.clamp(bc_a[:, None], min=bc_a[None, :])  # expected-remark {{makes a tensor of 529000000 elements from its operands}}
    bc_addcmul = torch.addcmul(bc_a, bc_a[:, None], bc_a[None, :])  # expected-remark {{makes a tensor of 529000000 elements from its operands}}
    bc_tensors = torch.broadcast_tensors(bc_a[:, None], bc_a[None, :])  # expected-remark {{makes a tensor of 529000000 elements from its operands}}
    bc_numpy = np.multiply(bc_n[:, None], bc_n[None, :])  # expected-remark {{makes a tensor of 529000000 elements from its operands}}
    bc_shifted = (bc_a + 1)[:, None] * bc_a[None, :]  # expected-remark {{broadcasts to a tensor of 529000000 elements}}
    bc_inner = (bc_a[:, None] + 1) * bc_a[None, :]  # expected-remark {{broadcasts to a tensor of 529000000 elements}}
    bc_exp = torch.exp(bc_a)[:, None] * bc_a[None, :]  # expected-remark {{broadcasts to a tensor of 529000000 elements}}
    bc_cast = bc_a.float()[:, None] - bc_a[None, :]  # expected-remark {{broadcasts to a tensor of 529000000 elements}}
    bc_small = torch.mul(bc_a[:100, None], bc_a[None, :100]) + (bc_a + 1) * bc_a + bc_h * bc_a[:32]


# Text written out by other spellings than str: print and log, an
# exception a runtime reports, an assert's message, str.format, and str or
# repr as a map or a sort key.
with model.trace("text written out") as tw_tracer:
    tw_h = model.transformer.h[0].output[0]
    tw_xs = ["a" * 2**24] * 64
    print(tw_xs)  # expected-remark {{'print(tw_xs)' makes a string of 1073743360 characters or bytes}}
    tw_tracer.log(tw_xs)  # expected-remark {{'tw_tracer.log(tw_xs)' makes a string of 1073743360 characters or bytes}}
    nnsight.log(tw_xs)  # expected-remark {{'nnsight.log(tw_xs)' makes a string of 1073743360 characters or bytes}}
    assert tw_h is not None, tw_xs  # expected-remark {{'tw_xs' makes a string of 1073743360 characters or bytes}}
    tw_format = "{}".format(tw_xs) + "{a}".format(a=tw_xs)  # expected-remark {{'"{}".format(tw_xs)' makes a string}} expected-remark {{'"{a}".format(a=tw_xs)' makes a string}}
    tw_mapped = list(map(str, [tw_xs]))  # expected-remark {{'map(str, [tw_xs])' makes a string of 1073743384 characters or bytes}}
    tw_sorted = sorted([tw_xs, tw_xs], key=str)  # expected-remark {{'sorted([tw_xs, tw_xs], key=str)' makes a string of 2147486768 characters or bytes}}
    tw_short = "{} of {}".format(len(tw_xs), 64) + str(sorted([1, 2], key=str))
    print(len(tw_xs), "items")
    raise ValueError(tw_xs)  # expected-remark {{'ValueError(tw_xs)' makes a string of 1073743360 characters or bytes}}


# A dimension of a tensor that holds nothing may be any length.
with model.trace("range of an empty tensor's dimension"):
    er_empty = torch.zeros(0, 2**40)
    er_listed = list(range(er_empty.shape[1]))  # expected-remark {{iterates a range or combinatoric iterator whose length ivc cannot bound}}


# numpy's convolve and correlate multiply every element by every element.
with model.trace("convolutions"):
    cv_h = model.transformer.h[0].output[0]
    cv_big = np.convolve(np.ones(2**16), np.ones(2**16))  # expected-remark {{convolves 65536 by 65536 elements, every element by every element}}
    cv_cor = np.correlate(np.ones(2**16), np.ones(2**16), "full")  # expected-remark {{convolves 65536 by 65536 elements}}
    cv_unknown = np.convolve(cv_h.tolist()[0][0], np.ones(3))  # expected-remark {{convolves operands of sizes ivc cannot bound}}
    cv_small = np.convolve(np.ones(100), [1, 2, 1]) + np.convolve([1.0, 2.0], [0.5, 0.5]).sum()


# The same text through spread arguments, the method taken from str, and
# calls that copy, reorder or pair up items.
with model.trace("text spread and carried") as ts_tracer:
    ts_xs = ["a" * 2**24] * 64
    ts_d = {"k": ts_xs}
    ts_spread = "{0}".format(*[ts_xs])  # expected-remark {{'"{0}".format(*[ts_xs])' makes a string of 1073743384 characters or bytes}}
    ts_kw = "{k}".format(**ts_d)  # expected-remark {{makes a string of 1073743409 characters or bytes}}
    print(*ts_xs)  # expected-remark {{'print(*ts_xs)' makes a string}}
    ts_tracer.log(*ts_xs)  # expected-remark {{'ts_tracer.log(*ts_xs)' makes a string}}
    ts_unbound = str.format("{}", ts_xs)  # expected-remark {{'str.format("{}", ts_xs)' makes a string}}
    ts_zipped = str(list(zip(ts_xs, ts_xs)))  # expected-remark {{'str(list(zip(ts_xs, ts_xs)))' makes a string of 2147488256 characters or bytes}}
    ts_dict = str(dict(k=ts_xs))  # expected-remark {{'str(dict(k=ts_xs))' makes a string}}
    ts_sorted = str(sorted(ts_xs)) + str(list(reversed(ts_xs)))  # expected-remark {{'str(sorted(ts_xs))' makes a string}} expected-remark {{'str(list(reversed(ts_xs)))' makes a string}}
    ts_enumerated = str(list(enumerate(ts_xs)))  # expected-remark {{'str(list(enumerate(ts_xs)))' makes a string}}
    ts_small = str(list(zip([1, 2], ["a", "b"]))) + "{} {}".format(*[1, 2])
    print(*[1, 2, 3])
    raise ValueError(*ts_xs)  # expected-remark {{'ValueError(*ts_xs)' makes a string}}


# Broadcasts by any function of operands of known shapes that broadcast
# together, shapes kept by elementwise functions, casts and reshapes, and
# chains longer than one walk of shapes goes.
with model.trace("broadcasts by any function") as bf_tracer:
    bf_a = torch.ones(2**15)
    bf_erf = torch.erf(bf_a)[:, None] * bf_a[None, :]  # expected-remark {{broadcasts to a tensor of 1073741824 elements}}
    bf_cast = bf_a.to(torch.float64)[:, None] * bf_a  # expected-remark {{broadcasts to a tensor of 1073741824 elements}}
    bf_column = bf_a.reshape(-1, 1) * bf_a  # expected-remark {{broadcasts to a tensor of 1073741824 elements}}
    bf_rsub = torch.rsub(bf_a[:, None], bf_a[None])  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    bf_loss = F.mse_loss(bf_a[:, None], bf_a[None], reduction="none")  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    bf_cos = torch.cosine_similarity(bf_a[:, None, None], bf_a[None, :, None])  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
    bf_poly = np.polymul(np.ones(2**16), np.ones(2**16))  # expected-remark {{convolves 65536 by 65536 elements}}
    bf_c0 = bf_a + 1
    bf_c1 = bf_c0 + 1
    bf_c2 = bf_c1 + 1
    bf_c3 = bf_c2 + 1
    bf_c4 = bf_c3 + 1
    bf_c5 = bf_c4 + 1
    bf_c6 = bf_c5 + 1
    bf_c7 = bf_c6 + 1
    bf_c8 = bf_c7 + 1
    bf_c9 = bf_c8 + 1
    bf_c10 = bf_c9 + 1
    bf_c11 = bf_c10 + 1
    bf_c12 = bf_c11 + 1
    bf_c13 = bf_c12 + 1
    bf_c14 = bf_c13 + 1
    bf_c15 = bf_c14 + 1
    bf_c16 = bf_c15 + 1
    bf_c17 = bf_c16 + 1
    bf_c18 = bf_c17 + 1
    bf_c19 = bf_c18 + 1
    bf_c20 = bf_c19 + 1
    bf_c21 = bf_c20 + 1
    bf_c22 = bf_c21 + 1
    bf_c23 = bf_c22 + 1
    bf_c24 = bf_c23 + 1
    bf_c25 = bf_c24 + 1
    bf_c26 = bf_c25 + 1
    bf_c27 = bf_c26 + 1
    bf_c28 = bf_c27 + 1
    bf_c29 = bf_c28 + 1
    bf_c30 = bf_c29 + 1
    bf_c31 = bf_c30 + 1
    bf_c32 = bf_c31 + 1
    bf_c33 = bf_c32 + 1
    bf_c34 = bf_c33 + 1
    bf_c35 = bf_c34 + 1
    bf_c36 = bf_c35 + 1
    bf_c37 = bf_c36 + 1
    bf_c38 = bf_c37 + 1
    bf_c39 = bf_c38 + 1
    bf_chained = bf_c39[:, None] * bf_a[None]  # expected-remark {{broadcasts to a tensor of 1073741824 elements}}
    bf_small = torch.erf(bf_a[:100])[:, None] * bf_a[None, :100] + bf_a.reshape(-1, 8).sum() + torch.matmul(bf_a[:64].reshape(8, 8), bf_a[:64].reshape(8, 8)).sum()


# statistics and math.fsum iterate what they are given in C: a tensor one
# element object at a time.
with model.trace("statistics of a tensor"):
    stat_t = torch.ones(3_000_000)
    stat_mean = statistics.fmean(stat_t)  # expected-remark {{'statistics.fmean(stat_t)' makes 3000000 tensors}}
    stat_sum = math.fsum(stat_t)  # expected-remark {{'math.fsum(stat_t)' makes 3000000 tensors}}
    stat_folded = functools.reduce(operator.add, stat_t)  # expected-remark {{'functools.reduce(operator.add, stat_t)' makes 3000000 tensors}}
    stat_small = statistics.fmean([1.0, 2.0]) + math.fsum([1.0, 2.0])


# A notebook binds the same names in every block: in each, a read sees its
# own block's binding when the block binds the name once, among its own
# statements, before the read.
with model.trace("block one"):
    nb_a = torch.ones(20000)
    nb_y = (nb_a[:, None] > 0) * nb_a  # expected-remark {{'(nb_a[:, None] > 0) * nb_a' broadcasts to a tensor of 400000000 elements}}

with model.trace("block two"):
    nb_a = torch.ones(20000)
    nb_y = (nb_a[:, None] > 0) * nb_a  # expected-remark {{'(nb_a[:, None] > 0) * nb_a' broadcasts to a tensor of 400000000 elements}}

with model.trace("block three"):
    nb_a = torch.ones(20)
    nb_y = (nb_a[:, None] > 0) * nb_a


# ... and through copies, filters, chains and deques of it.
with model.trace("text copied and chained"):
    tc_xs = ["a" * 2**24] * 64
    tc_copy = str(tc_xs.copy())  # expected-remark {{'str(tc_xs.copy())' makes a string of 1073743360 characters or bytes}}
    tc_kept = str(list(filter(None, tc_xs))) + str(collections.deque(tc_xs))  # expected-remark {{'str(list(filter(None, tc_xs)))' makes a string}} expected-remark {{'str(collections.deque(tc_xs))' makes a string}}
    tc_chain = str(list(itertools.chain(tc_xs, tc_xs)))  # expected-remark {{makes a string of 2147486720 characters or bytes}}
    tc_sorted = str(sorted(tc_xs, key=len))  # expected-remark {{'str(sorted(tc_xs, key=len))' makes a string}}
    tc_small = str(sorted([3, 1], key=abs)) + str([1, 2].copy())


# A fold over a shape is a product of its dimensions only by multiplication
# from a small int: another function or a string to start from is judged.
with model.trace("folds over a shape"):
    fs_a = torch.zeros(4000, 4000, dtype=torch.bool)
    fs_pow = functools.reduce(operator.pow, fs_a.shape, 7)  # expected-remark {{hands 'operator.pow' to a callee}}
    fs_text = functools.reduce(operator.mul, fs_a.shape, "a" * 2**22)  # expected-remark {{hands 'operator.mul' to a callee}}
    fs_numel = functools.reduce(operator.mul, fs_a.shape, 1)


# Matrix products and factorizations of known shapes count their
# multiply-adds: C calls in torch's threads the host cannot stop.
with model.trace("dense algebra"):
    da_x = torch.ones(4000, 4000)
    da_svd = torch.linalg.svd(da_x)  # expected-remark {{factors matrices of 4000 by 4000 (about 64000000000 multiply-adds in one call)}}
    da_exp = torch.linalg.matrix_exp(torch.ones(2000, 2000))  # expected-remark {{factors matrices of 2000 by 2000}}
    da_inv = np.linalg.inv(np.ones((3000, 3000)))  # expected-remark {{factors matrices of 3000 by 3000}}
    da_at = da_x @ da_x  # expected-remark {{'da_x @ da_x' multiplies matrices in 64000000000 multiply-adds in one call}}
    da_mm = da_x.mm(da_x) + torch.matmul(da_x, da_x)  # expected-remark {{'da_x.mm(da_x)' multiplies matrices}} expected-remark {{'torch.matmul(da_x, da_x)' multiplies matrices}}
    da_small = torch.linalg.svd(torch.ones(768, 768)).S.sum() + (torch.ones(512, 512) @ torch.ones(512, 512)).sum() + torch.linalg.norm(da_x)


# ... and a name the block rebinds line after line: the last binding before
# the read.
with model.trace("rebound line after line"):
    rl_x = torch.ones(150)
    rl_x = rl_x[:, None] * rl_x
    rl_x = rl_x[:, None] * rl_x
    rl_x = rl_x[:, None] * rl_x  # expected-remark {{'rl_x[:, None] * rl_x' broadcasts to a tensor of 506250000 elements}}


# A loop's or comprehension's variable over a display of tensors of one
# shape has that shape.
with model.trace("loop variables"):
    lv_a = torch.ones(23000)
    lv_outer = [lv_x[:, None] * lv_x for lv_x in [lv_a]]  # expected-remark {{'lv_x[:, None] * lv_x' broadcasts to a tensor of 529000000 elements}}
    for lv_y in (lv_a, lv_a + 1):
        lv_each = lv_y[:, None] * lv_y  # expected-remark {{'lv_y[:, None] * lv_y' broadcasts to a tensor of 529000000 elements}}
    lv_small = [lv_z[:, None] * lv_z for lv_z in [lv_a[:100]]]


# A helper's parameter every call passes a tensor of one shape has it.
def hp_outer(hp_u, hp_v):
    return hp_u * hp_v  # expected-remark {{Function 'hp_outer' is too costly to run in the server's process: 'hp_u * hp_v' broadcasts to a tensor of 529000000 elements}}


with model.trace("helper parameters"):
    hp_a = torch.ones(23000)
    hp_made = hp_outer(hp_a[:, None], hp_a)

# A list extended from an iterator over itself grows inside one C call until
# memory runs out; with islice bounding it, `zip` nests each item in the
# next, and hashing the last recursed a million deep in C.
with model.trace("extended from its own iterator"):
    own = [0]
    own.extend(iter(own))  # expected-remark {{extends a list from an iterator over itself}}
    boxes = [()]
    boxes.extend(itertools.islice(zip(boxes), 10**6))  # expected-remark {{extends a list from an iterator over itself}}
    walker = map(abs, own)
    own += walker  # expected-remark {{extends a list from an iterator over itself}}
    grows = any(map(own.append, own))  # expected-remark {{grows the list it iterates}}

# Each lazy wrapper calls once more per item: nine of them over 2^27 held the
# lock 25 s, past the depth the rule follows, and eight over 2^24 9 s.
with model.trace("lazy wrappers in layers"):
    deep = max(map(abs, map(abs, map(abs, map(abs, map(abs, map(abs, map(abs, map(abs, map(abs, range(2**60)))))))))))  # expected-remark {{iterates a range}}
    layered = max(map(math.sin, map(math.cos, map(math.sin, map(math.cos, range(2**23))))))  # expected-remark {{iterates a range}}
