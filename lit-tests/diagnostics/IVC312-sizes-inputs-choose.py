# IVC312: a size ivc cannot bound has no value to judge. A caller's value
# (the function around the trace, or a module name the plan does not pin)
# and an activation's contents may be anything, so a factory, a padding, a
# format width or a size argument given one is ISOLATE. Lengths of what
# exists (`h.shape[-1]`, `len(xs)`) and numbers a constant caps are not.
# A helper's parameter is chosen when a call passes it a chosen number.
# RUN: %ivc check --verify --remarks %s
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
PROMPTS = ["a", "b"]
BATCH = len(input())


def square(n):
    return torch.ones(n, n)  # expected-remark {{Function 'square' is too costly to run in the server's process: 'torch.ones(n, n)' allocates a tensor of a size ivc cannot bound}}


def noise(d, *, scale=1.0):
    return torch.randn(d) * scale


def run(n, s):
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        z = torch.ones(n, n)  # expected-remark {{'torch.ones(n, n)' allocates a tensor of a size ivc cannot bound}}
        k = int(h.norm().item())
        e = torch.zeros(k + 1)  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        sizes = h[0, 0, :2].long().tolist()
        w = torch.randn(sizes[0], 4)  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        r = torch.arange(n)  # expected-remark {{'torch.arange(n)' allocates a tensor of a size ivc cannot bound}}
        b = h.new_zeros(BATCH, 8)  # expected-remark {{'h.new_zeros(BATCH, 8)' makes a tensor of a size ivc cannot bound}}
        t = s.ljust(n)  # expected-remark {{'s.ljust(n)' fills a number of bytes or characters ivc cannot bound}}
        f = f"{s:>{k}}"  # expected-remark {{formats a field of a width or precision beyond 2^28 or that the inputs choose}}
        hb = torch.histc(h, bins=n)  # expected-remark {{'torch.histc(h, bins=n)' asks for bins of a number ivc cannot bound}}
        sq = square(n)

    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        d = h.shape[-1]
        v = torch.zeros(d, len(PROMPTS))
        c = torch.ones(min(n, 64), 3)
        m = torch.ones(int(h.sum().item()) % 4)
        p = torch.arange(h.size(1)).save()
        q = noise(768) + noise(d=h.shape[-1], scale=0.5)


# Through augmented assignments, `or`, containers, methods of the caller's
# values, a tensor given as a size, a default, a `*args` helper and a name
# the file never binds (the caller's too).
def more(n, cfg):
    def mk(m=n):
        return torch.zeros(m)  # expected-remark {{Function 'mk' is too costly to run in the server's process: 'torch.zeros(m)' allocates a tensor of a size ivc cannot bound}}

    def spread(*ms):
        return torch.ones(ms[0])  # expected-remark {{Function 'spread' is too costly to run in the server's process: 'torch.ones(ms[0])' allocates a tensor of a size ivc cannot bound}}

    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        m = 1
        m *= n  # expected-remark {{'m *= n' repeats what may be the caller's sequence a number ivc cannot bound times}}
        a = torch.zeros(m)  # expected-remark {{'torch.zeros(m)' allocates a tensor of a size ivc cannot bound}}
        b = torch.zeros(n or 1)  # expected-remark {{'torch.zeros(n or 1)' allocates}}
        c = torch.zeros({"a": n}["a"])  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        d = torch.zeros(cfg.get("n"))  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        e = torch.zeros(next(iter(cfg)))  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        f = torch.zeros(h.abs().sum().long())  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        g = torch.zeros(unbound)  # expected-remark {{'torch.zeros(unbound)' allocates a tensor of a size ivc cannot bound}}
        k = mk() + spread(n)
        written = [2**29]
        w = torch.zeros(written[0])  # expected-remark {{'torch.zeros(written[0])' allocates a tensor of 536870912 elements}}


# A caller's text grown by a constant factor beyond 16 (what its largest,
# 64 MiB, may be repeated unreported), and a format built from the caller's
# values.
def texts(n, s):
    with model.trace("The Eiffel Tower is in"):
        grown = s.replace("a", "a" * 2**20)  # expected-remark {{may grow a text ivc cannot size 1048576-fold}}
        tabs = s.expandtabs(2**20)  # expected-remark {{may grow a text ivc cannot size 1048576-fold}}
        spec = ("%." + str(n) + "f") % (1 / 3)  # expected-remark {{formats a field of a width or precision beyond 2^28 or that the inputs choose}}
        fine = s.replace("a", "bb") + s.expandtabs(4)


# A size must be one ivc sees bounded: evaluated, a length of what exists
# (an activation's shape, len of the file's values), the model's
# configuration, or arithmetic, min, int and the like of those. Anything
# else may be what the inputs choose, however it got there: through a
# helper's return, an uncatalogued call, a comprehension, an f-string.
def ident(x):
    return x


def laundered(n):
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        a = torch.zeros(ident(n))  # expected-remark {{'torch.zeros(ident(n))' allocates a tensor of a size ivc cannot bound}}
        b = torch.zeros(pow(n, 1))  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        c = torch.zeros(int(f"{n}"))  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        d = torch.zeros([k for k in [n]][0])  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        e = torch.zeros(ident(2**29))  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        seq = h.shape[1]
        fine = torch.zeros(seq // 2, h.shape[-1]) + torch.ones(min(n, 8), 1).sum()
        rows = [torch.zeros(i + 1) for i in range(seq)]


# The caller's value of no checked kind may be a 64 MiB string: repeating it
# counts as repeating an unsized sequence, 16 times in all. It is FAST when
# the caller's s is no sequence, which a runtime checks (IVC313).
def repeated(s, k):
    with model.trace("The Eiffel Tower is in"):  # expected-remark {{Trace body runs FAST when the caller gives 's' an int, a float or a tensor; a runtime checks, and runs it ISOLATE otherwise (for the reasons below)}}
        x = s * 16 * 16  # expected-remark {{'s * 16 * 16' repeats what may be the caller's sequence 256 times}}
        y = s * 8 + k * 16


# Bounded means no larger than a number: a remainder by 2**31 is not small,
# a float division keeps its dividend, a range's length is what it is, and
# a tensor the mediator makes with a zero dimension may have any other.
# Floor division or a negative power of a fraction grows it. A repetition
# a length of what exists counts is bounded by it.
def caps(n, s):
    with model.trace("The Eiffel Tower is in"):
        h = model.transformer.h[0].output[0]
        a = torch.zeros(n % 2**31)  # expected-remark {{'torch.zeros(n % 2**31)' allocates a tensor of 2147483648 elements}}
        b = torch.zeros(int(2**29 / 1))  # expected-remark {{allocates a tensor of 536870912 elements}}
        c = torch.zeros(len(range(pow(n, 1))))  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
        t = torch.zeros(2**15, 0)
        d = torch.zeros(t.shape[0], t.shape[0])  # expected-remark {{allocates a tensor of 1073741824 elements}}
        for i in range(2**29, 2**29 + 1):
            e = torch.zeros(i)  # expected-remark {{allocates a tensor of 536870913 elements}}
        f = s * len(s)  # expected-remark {{'s * len(s)' repeats what may be the caller's sequence a number ivc cannot bound times}}
        g = torch.histc(torch.ones(4), bins=n % 2**31)  # expected-remark {{asks for bins of 2147483648}}
        r = torch.arange(n % 2**31)  # expected-remark {{allocates a tensor of 2147483648 elements}}
        fine = torch.zeros(n % 4096) + torch.zeros(min(n, 64)).sum() + torch.arange(n % 64).sum()
        j = torch.zeros(int(1 // 1e-9))  # expected-remark {{'torch.zeros(int(1 // 1e-9))' allocates a tensor of a size ivc cannot bound}}
        k = torch.zeros(int(0.001 ** -3))  # expected-remark {{'torch.zeros(int(0.001 ** -3))' allocates a tensor of a size ivc cannot bound}}
        rule = "-" * (max(len(p) for p in PROMPTS) + 12) + "=" * (h.shape[-1] // 2)


# Joining or writing out a caller's text many times copies it that often.
def joined(s, names):
    with model.trace("The Eiffel Tower is in"):
        a = s.join(s)  # expected-remark {{'s.join(s)' joins parts ivc cannot count with a separator it cannot size}}
        b = "".join([s] * 1024)  # expected-remark {{'"".join([s] * 1024)' copies a text ivc cannot size 1024 times}}
        c = str([s] * 1024)  # expected-remark {{copies a text ivc cannot size 1024 times}}
        fine = ", ".join(names) + "".join([s] * 4) + ",".join([str(i) for i in range(100)])
