"""What the host runs for a mediator beyond the model's own forward: a
module called on the mediator's values (`model.lm_head(h)`), and the rest of
the forward on a skip's value. Both run on the host, under the model's lock,
in calls nothing interrupts, so their inputs are bounded by what the trace's
own inputs make."""

import torch

from ._mediator import _tensors_in

# What a mediator's call of a module may make, about: 1 GiB of float32.
MAX_MODULE_CALL_ELEMENTS = 1 << 28


def growth(module):
    """How many times more elements a module may make than it is given,
    roughly: an embedding makes a vector of each index; a weight matrix
    (a linear layer's, either way round) may widen by its shape's ratio."""
    most = 1
    for sub in module.modules():
        if isinstance(sub, torch.nn.Embedding):
            most = max(most, sub.embedding_dim)
            continue
        weight = sub._parameters.get("weight")
        if isinstance(weight, torch.Tensor) and weight.dim() == 2 and min(weight.shape):
            most = max(most, -(-max(weight.shape) // min(weight.shape)))
    return most


def _positions(t):
    """The vectors a tensor holds: its elements over its last dimension; of
    integers (token ids), every element, as each is a position."""
    if not (t.is_floating_point() or t.is_complex()):
        return t.numel()
    return t.numel() // t.shape[-1] if t.dim() and t.shape[-1] else 1


def module_call_problem(module, args, kwargs, positions):
    """Why the host will not run `module` on a mediator's values, or None:
    only tensors, bools and None (a number may size what a module caches,
    `rotary(x, seq_len=2**40)`); no tensor of more vectors than the trace's
    inputs have positions (attention's cost is their square); and not more
    than about MAX_MODULE_CALL_ELEMENTS made."""
    values = list(args) + list(kwargs.values())
    for v in values:
        if not (v is None or isinstance(v, (torch.Tensor, bool))):
            return ("TypeError", f"a module call takes tensors, bools and None, "
                                 f"not {type(v).__name__}")
    tensors = [v for v in values if isinstance(v, torch.Tensor)]
    widest = max((_positions(t) for t in tensors), default=0)
    if widest > positions:
        return ("ValueError", f"a module call on {widest} vectors, where the trace's inputs "
                              f"have {positions} positions: call it on fewer")
    given = sum(t.numel() for t in tensors)
    if given * growth(module) > MAX_MODULE_CALL_ELEMENTS:
        return ("ValueError", f"a module call of {given} elements may make more than "
                              f"{MAX_MODULE_CALL_ELEMENTS}: call it on fewer")
    return None


def skip_problem(module, args, kwargs, value):
    """Why a skip's value may not stand for the whole output of `module`
    called on `args` and `kwargs`, or None: the rest of the forward runs on
    it, so it may hold no more elements than the module could make."""
    given = sum(t.numel() for t in _tensors_in((args, kwargs)))
    made = sum(t.numel() for t in _tensors_in(value))
    most = max(given, 1) * growth(module)
    if made <= most:
        return None
    return f"a value of {made} elements, where the module could make about {most} of its inputs"
