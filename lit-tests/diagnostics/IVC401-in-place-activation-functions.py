# IVC401: in-place updates through torch functions must be recorded like
# in-place tensor methods: a catalogued in-place function (torch.relu_), an
# `out=` argument naming the activation, and `inplace=True` on a function with
# an inplace parameter (docs/op-catalog.md: "the analyzer treats an out=
# argument as an in-place update wherever it appears"), and a write through
# `.data`. Otherwise an ISOLATE mediator's edit stays in the worker.
# RUN: %ivc check --verify %s
import torch

with model.trace("The weather today is") as tracer:
    hidden = model.transformer.h[6].output[0]
    torch.relu_(hidden)  # expected-remark {{updates the output of 'transformer.h.6' in place}}
    torch.add(hidden, 1.0, out=hidden)  # expected-remark {{updates the output of 'transformer.h.6' in place}}
    torch.nn.functional.gelu(hidden)
    torch.nn.functional.relu(hidden, inplace=True)  # expected-remark {{updates the output of 'transformer.h.6' in place}}
    hidden.data[:] = 0  # expected-remark {{updates the output of 'transformer.h.6' in place}}
