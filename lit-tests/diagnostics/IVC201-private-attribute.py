# IVC201: reading, writing, deleting or calling an attribute whose name starts
# with an underscore is an error at the attribute's name, once per chain.
# NFKC-equivalent spellings are the same name. Public attributes, including
# ones that merely end in or contain an underscore, are not. A suppression
# comment hides an error but leaves the mediator REJECT (see the plan).
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
