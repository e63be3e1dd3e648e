# IVC307: a reference to a torch or numpy entry point the op catalog lists as
# unsafe is a remark naming its category, and makes the mediator ISOLATE:
# module functions (torch.save, numpy.load, torch.empty, torch.cuda...), and
# tensor methods and attributes on activations and tensors (register_hook,
# grad_fn, numpy). Catalogued look-alikes are not.
# RUN: %ivc check --verify %s
import numpy as np
import torch


def fused(hidden):
    return torch.jit.trace(torch.relu, hidden)  # expected-remark {{Function 'fused' uses 'torch.jit' (jit)}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[5].output[0]
    torch.onnx.export(model, hidden, "model.onnx")  # expected-remark {{Trace body uses 'torch.onnx' (io)}}
    probe = torch.load("probe.pt")  # expected-remark {{uses 'torch.load' (io)}}
    scratch = torch.empty(3, 768)  # expected-remark {{uses 'torch.empty' (uninitialized-memory)}}
    torch.cuda.synchronize()  # expected-remark {{uses 'torch.cuda' (device)}}
    table = np.load("table.npy")  # expected-remark {{uses 'numpy.load' (io)}}
    hidden.register_hook(print)  # expected-remark {{uses 'torch.Tensor.register_hook' (hook)}}
    node = hidden.grad_fn  # expected-remark {{uses 'torch.Tensor.grad_fn' (hook)}}
    array = hidden.detach().numpy()  # expected-remark {{uses 'torch.Tensor.numpy' (raw-memory)}}
    doubled = fused(hidden)
    # numpy's legacy random functions share the process's one generator.
    noise = np.random.randn(768)  # expected-remark {{uses 'numpy.random.randn' (global-state)}}
    order = np.random.permutation(12)  # expected-remark {{uses 'numpy.random.permutation' (global-state)}}

    # Catalogued look-alikes: not reported.
    zeros = torch.zeros(3, 768)
    draws = torch.randn(768) + torch.randperm(12).sum()
    empty_like_mean = torch.zeros_like(hidden).mean()
    grad = hidden.grad
    on_device = hidden.to("cuda")
    stacked = np.stack([np.ones(3), np.zeros(3)])
    out = model.lm_head.output.save()
