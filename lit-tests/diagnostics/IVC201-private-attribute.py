# IVC201: reading, writing, deleting or calling an attribute whose name starts
# with an underscore is an error at the attribute's name, once per chain.
# NFKC-equivalent spellings are the same name. Public attributes, including
# ones that merely end in or contain an underscore, are not. A suppression
# comment hides an error but leaves the mediator REJECT (see the plan). The
# item accessors of a list or a str are not rejected.
# RUN: %ivc check --verify %s
# RUN: %ivc plan %s | FileCheck %s
import torch


def unembed(hidden):
    return hidden @ model.lm_head._parameters["weight"]  # expected-error {{Function 'unembed' accesses private attribute '_parameters'; dunder and underscore attributes reach the interpreter's internals}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[5].output[0]
    kind = hidden.__class__  # expected-error {{Trace body accesses private attribute '__class__'}}
    base = ().__class__.__base__.__subclasses__()  # expected-error {{private attribute '__class__'}}
    blocks = model.transformer._modules  # expected-error {{private attribute '_modules'}}
    model.transformer._forward_hooks = {}  # expected-error {{private attribute '_forward_hooks'}}
    del model.transformer.h[0]._hooks  # expected-error {{private attribute '_hooks'}}
    state = hidden.__reduce_ex__(2)  # expected-error {{private attribute '__reduce_ex__'}}
    scope = unembed.__globals__  # expected-error {{private attribute '__globals__'}}
    wide = hidden.__ｃlass__  # expected-error {{private attribute '__class__'}}
    version = torch.__version__  # expected-error {{private attribute '__version__'}}
    logits = unembed(hidden)
    # A list's or str's own item accessors are what `xs[i]`, `x in xs` and
    # `len(xs)` call; what they hold is not.
    norms = [hidden.norm().item(), 1.0]
    best = max(range(len(norms)), key=norms.__getitem__) + "ab".__len__()
    owner = norms.__getitem__.__self__  # expected-error {{private attribute '__self__'}}
    rebuilt = norms.__getitem__.__reduce__()  # expected-error {{private attribute '__reduce__'}}

    # Public attributes: not reported.
    transposed = hidden.T
    layer_ = model.transformer.h_
    dims = hidden.shape[-1]
    dunder_like = hidden.dunder_count
    out = model.lm_head.output.save()

# A suppression hides the error but never changes the tier: this mediator is
# still rejected (checked in the plan below).
with model.trace("The Eiffel Tower is in") as tracer:
    kind = model.transformer.h[0].output[0].__class__  # ivc: ignore[IVC201]

# CHECK:      "code": "IVC201",
# CHECK:      "suppressed": true
# CHECK:      "traces": [
# CHECK:      "source": "hidden = model.transformer.h[5].output[0]\n
# CHECK-NEXT: "tier": "reject",
# CHECK:      "source": "kind = model.transformer.h[0].output[0].__class__  # ivc: ignore[IVC201]\n",
# CHECK-NEXT: "tier": "reject",
