# IVC312: a size keeps its number apart from the lengths of what exists in
# it, and counts how many times it takes them. `max(len(h), 2**30)` is
# 2^30 however short h is; a length times 2^16 is as far as a length goes,
# in one factor or several. A tensor's dimensions are lengths only when
# its memory pays for them: one the mediator shapes (a zero-size factory's
# transpose, a reshape, a helper's return) is as large as the numbers that
# shape it, and one made from a caller's tensor as large as the caller
# likes. A range's length costs nothing, so `len` of one is no length of
# what exists, and neither is a float step's count.
# RUN: %ivc check --verify --remarks %s
import numpy as np
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def flat(t):
    return t.reshape(0, 2**30)


def limits(n, s, caller):
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        a = torch.zeros(max(h.shape[0], 2**30))  # expected-remark {{allocates a tensor of 1073741824 elements}}
        b = torch.zeros(max(len(h), n % 2**31))  # expected-remark {{allocates a tensor of 2147483648 elements}}
        g = bytes(max(len(h), 2**31)) + "x".ljust(max(len(h), 2**31))  # expected-remark {{fills a number of bytes or characters ivc cannot bound}} expected-remark {{fills a number of bytes or characters ivc cannot bound}}
        k = torch.zeros(h.reshape(0, int(h.sum().item())).shape[1])  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        c = sum([10**100000] * max(len(h), 2**23))  # expected-remark {{'sum' works through 8388608 integers of up to 400000 bits in one call}}
        d = torch.zeros(h.shape[-1] * 2**16 * 2**8)  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        e = torch.zeros(h.shape[0], 2**28)  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        f = torch.zeros((h.shape[0] + 2**28) * 2**16)  # expected-remark {{allocates a tensor of}}
        fine = torch.zeros(h.shape[-1] * 768) + torch.zeros(h.shape[1], 50257).sum() + torch.zeros(max(h.shape[0], 64)).sum()


def shaped_here(n, s, caller):
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        t = torch.zeros(0).reshape(0, n)
        a = torch.zeros(t.shape[1])  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        b = torch.zeros(torch.zeros(0, 2**30).T.shape[0])  # expected-remark {{allocates a tensor of 1073741824 elements}}
        c = torch.zeros(h.new_zeros(0, 2**30).shape[1])  # expected-remark {{allocates a tensor of 1073741824 elements}}
        d = torch.zeros(torch.t(caller).shape[0])  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        e = torch.zeros(flat(torch.zeros(0)).shape[1])  # expected-remark {{allocates a tensor of 1073741824 elements}}
        f = torch.zeros(h[:, :2].expand(2**30, -1, -1).shape[0])  # expected-remark {{allocates a tensor of a size ivc cannot bound}} expected-remark {{'h[:, :2].expand(2**30, -1, -1)' expands a tensor ivc cannot size 1073741824 times}}
        g = torch.zeros(torch.zeros(0, 2**15, 2**15).flatten(1).shape[1])  # expected-remark {{allocates a tensor of 1073741824 elements}}
        k = torch.zeros(torch.kron(torch.zeros(0, 2**15), torch.zeros(1, 2**15)).shape[1])  # expected-remark {{allocates a tensor of 1073741824 elements}}
        r = torch.zeros(h[:0].reshape(0, 2**30).shape[1])  # expected-remark {{allocates a tensor of 1073741824 elements}}
        q, k, v = h.split(256, dim=-1)
        b_, t_, _ = q.shape
        q = q.view(b_, t_, 4, 64).transpose(1, 2)
        fine = torch.ones(t_, t_).sum() + torch.zeros(h.repeat(2, 1, 1).shape[0]).sum()


def lazy(n, s):
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        r = range(2**30)
        a = "-" * len(r)  # expected-remark {{'"-" * len(r)' repeats a sequence a number of times ivc cannot bound}}
        b = torch.zeros(len(range(2**30)[:]))  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        c = torch.arange(0, 1, 2**-30)  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        d = np.arange(len(h) * 2.0**29)  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        e = s * n  # expected-remark {{'s * n' repeats what may be the caller's sequence a number ivc cannot bound times}}
        fine = torch.arange(0, h.shape[1]).sum() + torch.arange(0.0, 1.0, 0.25).sum() + len("-" * len(h))


# Operations whose result outgrows their operands: windows of a view
# (which the next operation makes whole), patches, pairwise distances, an
# einsum's or a matrix product's outer product, a list comprehension or a
# list appended to in a loop, concatenated; and a caller's tensor, counted
# as the 64 MiB it may hold, repeated or concatenated.
def grown(vec):
    with model.trace("The Eiffel Tower is in"):
        z = torch.zeros(2**14)
        a = torch.zeros(2**16).unfold(0, 2**15, 1) + 1  # expected-remark {{makes a tensor of}}
        b = torch.nn.functional.unfold(torch.zeros(1, 1, 384, 384), kernel_size=128)  # expected-remark {{makes a tensor of}}
        c = torch.nn.functional.pdist(torch.zeros(46341, 1))  # expected-remark {{makes a tensor of}}
        d = torch.einsum("i,j->ij", torch.zeros(2**15), torch.zeros(2**15))  # expected-remark {{makes a tensor of}}
        e = torch.cat([z for _ in range(2**16)])  # expected-remark {{makes a tensor of}}
        xs = []
        for _ in range(2**16):
            xs.append(z)
        k = torch.cat(xs)  # expected-remark {{makes a tensor of}}
        o = torch.zeros(2**15, 1) @ torch.zeros(1, 2**15)  # expected-remark {{makes a tensor of 1073741824 elements from its operands}}
        m = torch.matmul(torch.zeros(2**15, 1), torch.zeros(1, 2**15))  # expected-remark {{makes a tensor of}}
        f = vec.repeat(4096)  # expected-remark {{makes a tensor of}}
        g = torch.cat([vec] * 4096)  # expected-remark {{makes a tensor of}}
        fine = torch.cat([z for _ in range(4)]).sum() + vec.repeat(4).sum() + torch.zeros(64).unfold(0, 8, 1).sum()
        fine2 = (torch.zeros(512, 64) @ torch.zeros(64, 512)).sum() + torch.matmul(torch.zeros(8, 4), torch.zeros(4)).sum()


# A tensor with a zero dimension holds nothing yet may span 2^29: pieces of
# it, or a reduction over the empty dimension, make them all. One-argument
# `where` is `nonzero`: an int64 index per dimension of every element.
def empty(n):
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        a = h.new_zeros(0, 2**22).unbind(1)  # expected-remark {{makes up to 4194304 tensors}}
        b = torch.zeros(0, 2**11, 2**11).flatten(1).tolist()  # expected-remark {{makes up to 4194304 Python objects}}
        c = torch.zeros(0, 2**15, 2**14).sum(0)  # expected-remark {{makes a tensor of up to 536870912 elements of one that holds fewer}}
        d = h[:0].view(0, 2**15, 2**14).sum(0)  # expected-remark {{makes a tensor of up to 536870912 elements of one that holds fewer}}
        e = torch.where(torch.ones(32, 32, 32, 32, 32, dtype=torch.bool))  # expected-remark {{makes a tensor of}}
        fine = torch.zeros(0, 8).sum(0) + torch.zeros(4, 4).sum() + h.new_zeros(0, 64).unbind(1)[0].sum()


# A copy in a wider type: double and long of a bool tensor, the int64 a
# cumsum of one makes, sort's indices beside its values.
def wider():
    with model.trace("The Eiffel Tower is in"):
        flags = torch.zeros(2**28, dtype=torch.bool)
        a = flags.double()  # expected-remark {{makes a tensor of}}
        b = flags.cumsum(0)  # expected-remark {{makes a tensor of}}
        c = flags.sort()  # expected-remark {{makes a tensor of}}
        d = flags.to(torch.float64)  # expected-remark {{makes a tensor of}}
        fine = torch.zeros(2**20).double().sum() + torch.zeros(2**20).to(torch.float16).sum()


# A list grown in a loop by any spelling of an addition, then concatenated:
# `+=`, `extend`, `insert`, `xs = xs + [...]`, and lists joined by `+`. A
# list that may have another name (`a = xs`, a helper that appends) grows
# where ivc does not count: it is not bounded at all.
def grow(items):
    for _ in range(2**16):
        items.append(torch.zeros(2**14))


def grown_otherwise():
    with model.trace("The Eiffel Tower is in"):
        z = torch.zeros(2**14)
        a, b, c, d = [], [], [], []
        for _ in range(2**16):
            a += [z]
            b.extend([z])
            c.insert(0, z)
            d = d + [z]
        ka = torch.cat(a)  # expected-remark {{'torch.cat(a)' makes a tensor of 1073741824 elements}}
        kb = torch.cat(b)  # expected-remark {{'torch.cat(b)' makes a tensor of 1073741824 elements}}
        kc = torch.stack(c)  # expected-remark {{'torch.stack(c)' makes a tensor of 1073741824 elements}}
        kd = torch.cat(tensors=d)  # expected-remark {{makes a tensor of 1073741824 elements}}
        joined = torch.cat([z] + b)  # expected-remark {{makes a tensor of 1073758208 elements}}
        e = []
        alias = e
        for _ in range(2**16):
            alias.append(z)
        ke = torch.cat(e)  # expected-remark {{'torch.cat(e)' makes a tensor of a size ivc cannot bound}}
        f = [z]
        grow(f)
        kf = torch.cat(f)  # expected-remark {{'torch.cat(f)' makes a tensor of a size ivc cannot bound}}
        few = [z]
        for _ in range(4):
            few += [z]
            few.extend([z, z])
        print(len(few), few[0], [t.sum() for t in few])
        fine = torch.cat(few).sum() + torch.stack(tensors=few).sum() + torch.cat(few + few).sum()


# Sizes the values of an input choose (bincount up to its largest number,
# numpy's rule-chosen bins), and sizes given to functions that are no
# factories: exact splits into empty pieces, histogram bins (the counts and
# the edges), numpy's padding, flatnonzero's indices, adaptive max pooling's
# indices beside its maxima.
def chosen_sizes():
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        a = torch.bincount(h.long().flatten() + 2**28)  # expected-remark {{makes a count for every number up to the largest its input holds}}
        b = np.bincount([2**28])  # expected-remark {{makes a count for every number up to the largest}}
        c = np.histogram(np.zeros(4), bins="auto")  # expected-remark {{chooses its number of bins from the data}}
        d = torch.hsplit(torch.zeros(0), 2**23)  # expected-remark {{asks for sections of 8388608}}
        e = np.split(np.zeros(0), 2**23)  # expected-remark {{asks for indices_or_sections of 8388608}}
        f = torch.histogram(torch.zeros(4), bins=2**28)  # expected-remark {{asks for bins of 268435456}}
        g = np.histogram2d(np.zeros(2), np.zeros(2), bins=2**14)  # expected-remark {{asks for bins of 16384 in each of 2 dimensions}}
        k = np.pad(np.zeros(1), (0, 2**28))  # expected-remark {{makes a tensor of 268435457 elements}}
        m = np.pad(np.zeros((1, 1)), 2**13)  # expected-remark {{makes a tensor of 268468225 elements}}
        o = np.pad(np.zeros((1, 1)), ((0, 2**14), (0, 2**14)))  # expected-remark {{makes a tensor of}}
        p = np.flatnonzero(np.ones(2**28, dtype=np.bool_))  # expected-remark {{makes a tensor of 536870912 elements}}
        q = torch.nn.functional.adaptive_max_pool2d(torch.zeros(1, 1, 1, 1), (2**14, 2**14))  # expected-remark {{asks for output_size of 268435456}}
        top = h.argmax(-1)
        fine = (torch.bincount(top.flatten()).sum() + torch.bincount(h.topk(2).indices.flatten()).sum() +
                np.pad(np.zeros(4), 2).sum() + torch.hsplit(torch.zeros(8), 4)[0].sum() +
                np.histogram(np.zeros(4), bins=16)[0].sum())


# A list bound to what ivc cannot count as well (a function's list) still
# counts what the loop appends, and that alone is too much.
def appended_beside_unknown():
    with model.trace("The Eiffel Tower is in"):
        z = torch.zeros(2**14)
        pieces = []
        pieces = np.split(np.zeros(4), 2)
        for _ in range(2**16):
            pieces.append(z)
        k = torch.cat(pieces)  # expected-remark {{'torch.cat(pieces)' makes a tensor of}}
        # ... and what it adds to a container however deep in it.
        nested = [[]]
        table = {}
        for i in range(2**16):
            nested[0].append(z)
            table[i] = z
        m = torch.cat(nested[0])  # expected-remark {{'torch.cat(nested[0])' makes a tensor of 1073741824 elements}}
        o = torch.stack(list(table.values()))  # expected-remark {{makes a tensor of 1073741824 elements}}
        few = {}
        for i in range(4):
            few[i] = z
        fine = torch.stack(list(few.values())).sum()


# Copies of a tensor ivc cannot size (an activation), more than a repeat
# of one may make: repeated in a list, expanded, appended in a loop of a
# length ivc evaluates. A loop over the model's layers is not judged.
def blind_copies():
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        a = torch.cat([h] * 2**20)  # expected-remark {{'torch.cat([h] * 2**20)' makes a tensor of a size ivc cannot bound}}
        b = h.expand(2**20, -1, -1, -1).contiguous()  # expected-remark {{'h.expand(2**20, -1, -1, -1)' expands a tensor ivc cannot size 1048576 times}}
        xs = []
        for _ in range(2**20):
            xs.append(h)
        c = torch.cat(xs)  # expected-remark {{'torch.cat(xs)' makes a tensor of a size ivc cannot bound}}
        layers = []
        for block in model.transformer.h:
            layers.append(block.output[0])
        fine = torch.cat(layers).sum() + torch.cat([h] * 4).sum() + h.expand(4, -1, -1, -1).sum()
