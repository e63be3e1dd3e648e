"""`h.grad` of a delivered activation, as nnsight has it: read before the
backward pass (`grads.append(h.grad.save())`), it is the gradient of the
activation the model went on with, for this mediator's rows, once the pass
reaches it. FAST only: a worker's values are detached, so there torch's own
`.grad` (None) is what `h.grad` gives."""

import torch


def unfilled(value):
    """Where a gradient that no backward pass has filled yet was read, if
    `value` is one (a plain tensor: no user code runs)."""
    return getattr(value, "_ivc_grad_of", None) if type(value) is torch.Tensor else None


def _fill(filled, g):
    """A backward hook: copies the gradient into what `.grad` gave. One the
    mediator reshaped since (`h.grad.transpose_(0, 2)`) stays unfilled: the
    hook must not fail the backward pass, which other mediators share."""
    if filled.shape != g.shape or filled.dtype != g.dtype:
        return
    with torch.no_grad():
        filled.copy_(g)
    filled._ivc_grad_of = None


class Activation(torch.Tensor):
    """A delivered activation (an alias of it: the same memory and graph)
    whose `.grad` is the gradient of `origin`, the tensor the model went on
    with, narrowed to `rows`: a tensor of its shape, zeros until the
    backward pass fills it. Operations on it make plain tensors."""

    __torch_function__ = torch._C._disabled_torch_function_impl

    @property
    def grad(self):
        if self.is_leaf or "_ivc_origin" not in self.__dict__:
            return torch._C._TensorBase.grad.__get__(self)
        filled = self.__dict__.get("_ivc_grad")
        if filled is None:
            filled = self._ivc_grad = torch.zeros_like(self).detach()
            filled._ivc_grad_of = self._ivc_where
            rows = self._ivc_rows

            self._ivc_origin.register_hook(
                lambda g: _fill(filled, g if rows is None else g.narrow(0, *rows)))
        return filled

    @grad.setter
    def grad(self, value):
        torch._C._TensorBase.grad.__set__(self, value)

    def retain_grad(self):
        """PyTorch's spelling: `h.retain_grad()` before the backward pass,
        `h.grad` after it. The gradient is set up here, as reading `.grad`
        first does."""
        if self.is_leaf or "_ivc_origin" not in self.__dict__:
            return super().retain_grad()
        self.grad  # noqa: B018 - hooks the origin


def grad_of(value):
    """`x.grad` as nnsight reads it (a mediator's `.grad` loads call this):
    of a tensor the mediator computed (`f = encode(h)`), which torch keeps
    no gradient of, read before the backward pass, it is a tensor of x's
    shape filled when the pass reaches x; anything else's is its own."""
    if type(value) is not torch.Tensor or value.is_leaf or not value.requires_grad \
            or value.retains_grad:
        return value.grad
    filled = value.__dict__.get("_ivc_grad")
    if filled is None:
        filled = value._ivc_grad = torch.zeros_like(value).detach()
        filled._ivc_grad_of = "a tensor the mediator computed"

        value.register_hook(lambda g: _fill(filled, g))
    return filled


def watched(value, origin, rows, where):
    """`value` (what a mediator is delivered: `origin`, narrowed to `rows`
    when not None) with each tensor that needs a gradient made an
    Activation of the matching tensor of `origin`."""
    if isinstance(value, torch.Tensor):
        if not (isinstance(origin, torch.Tensor) and value.requires_grad and origin.requires_grad):
            return value
        alias = value.as_subclass(Activation)
        alias._ivc_origin = origin
        alias._ivc_rows = rows if value is not origin else None
        alias._ivc_where = where
        return alias
    if isinstance(value, (tuple, list)) and isinstance(origin, (tuple, list)) and \
            len(value) == len(origin):
        items = [watched(v, o, rows, f"{where}[{i}]")
                 for i, (v, o) in enumerate(zip(value, origin))]
        if isinstance(value, list):
            return items
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, dict) and isinstance(origin, dict):
        return {k: watched(v, origin.get(k), rows, f"{where}[{k!r}]") for k, v in value.items()}
    return value
