# IVC304: a call whose callee ivc cannot resolve (a parameter, an object built
# from an uncatalogued constructor, the result of a call) is a remark and
# makes the mediator ISOLATE. Calls to functions and lambdas of the file, to
# catalogued functions, to submodules of the model and to callables held in
# a list or dict display of catalogued functions (when nothing in the file
# may change it) and the result of a function of the file that returns one
# are not.
# RUN: %ivc check --verify %s
import functools
import torch

probe = torch.nn.Linear(768, 2)
activations = [torch.relu, torch.tanh]
swapped = [torch.relu]
aliased = [torch.relu]
returned = [torch.relu]
updated = {"relu": torch.relu}


def apply(fn, hidden):
    return fn(hidden)  # expected-remark {{Function 'apply' calls 'fn', which ivc cannot resolve statically}}


def pick():
    return torch.relu


def double(hidden):
    return hidden * 2


METRICS = {"relu": torch.relu, "double": double}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[6].output[0]
    logits = probe(hidden)  # expected-remark {{Trace body calls 'probe', which ivc cannot resolve statically}}
    gated = apply(torch.relu, hidden)
    head = functools.partial(torch.add, 1)(hidden)  # expected-remark {{calls 'functools.partial(torch.add, 1)', which ivc cannot resolve statically}}
    by_name = dict(relu=torch.relu)
    gelu = by_name["relu"](hidden)  # expected-remark {{calls 'by_name["relu"]'}}
    # A list or dict that something may change holds anything by then.
    swapped[0] = "x".ljust
    s = swapped[0](2**40)  # expected-remark {{calls 'swapped[0]'}}
    other = aliased
    other[0] = "x".zfill
    t = aliased[0](2**40)  # expected-remark {{calls 'aliased[0]'}}
    updated["relu"] = "x".center
    u = updated["relu"](2**40)  # expected-remark {{calls 'updated["relu"]'}}
    for fn in swapped:
        v = fn(2**40)  # expected-remark {{calls 'fn'}}
    box = max(returned, [])
    box[0] = "x".ljust
    w = returned[0](2**40)  # expected-remark {{calls 'returned[0]'}}

    # Resolved calls: not reported.
    a = double(hidden)
    b = (lambda h: h + 1)(hidden)
    c = activations[0](hidden)
    g = METRICS["relu"](hidden)
    scores = {name: fn(hidden) for name, fn in METRICS.items()}
    for metric in METRICS.values():
        m = metric(hidden)
    f = pick()(hidden)
    d = torch.nn.functional.gelu(hidden)
    e = model.lm_head(model.transformer.ln_f(hidden))
    out = model.lm_head.output.save()
