"""`h.grad` of a delivered activation, as nnsight has it: read before the
backward pass (`grads.append(h.grad.save())`), it is the gradient of the
activation the model went on with, for this mediator's rows, once the pass
reaches it. FAST only: a worker's values are detached, so there torch's own
`.grad` (None) is what `h.grad` gives."""

import torch


class PendingGrad:
    """A gradient the backward pass has yet to reach. Saved, it comes back
    as the tensor; used before the pass, it says so."""

    __slots__ = ("value", "where")

    def __init__(self, where):
        self.value = None
        self.where = where

    def save(self):
        return self

    def resolve(self):
        if self.value is None:
            raise RuntimeError(f"the gradient of {self.where} is not known yet: only a "
                               ".backward() that reaches it computes it")
        return self.value

    def __getattr__(self, name):
        return getattr(self.resolve(), name)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func(*_resolved(args), **_resolved(kwargs or {}))

    def __repr__(self):
        return repr(self.value) if self.value is not None else f"<gradient of {self.where}>"


def _forward(name):
    return lambda self, *args: getattr(self.resolve(), name)(*_resolved(args))


for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "matmul",
              "rmatmul", "pow", "neg", "abs", "getitem", "len", "float", "bool"):
    setattr(PendingGrad, f"__{_name}__", _forward(f"__{_name}__"))


def _resolved(value):
    """`value` with every pending gradient in it replaced by its tensor."""
    if isinstance(value, PendingGrad):
        return value.resolve()
    if type(value) in (tuple, list):
        items = [_resolved(v) for v in value]
        return items if type(value) is list else tuple(items)
    if type(value) is dict:
        return {k: _resolved(v) for k, v in value.items()}
    return value


class Activation(torch.Tensor):
    """A delivered activation (an alias of it: the same memory and graph)
    whose `.grad` is the gradient of `origin`, the tensor the model went on
    with, narrowed to `rows`. Operations on it make plain tensors."""

    __torch_function__ = torch._C._disabled_torch_function_impl

    @property
    def grad(self):
        if self.is_leaf or "_ivc_origin" not in self.__dict__:
            return torch._C._TensorBase.grad.__get__(self)
        pending = self.__dict__.get("_ivc_pending")
        if pending is None:
            pending = self._ivc_pending = PendingGrad(self._ivc_where)
            rows = self._ivc_rows

            def fill(g):
                pending.value = (g if rows is None else g.narrow(0, *rows)).detach().clone()

            self._ivc_origin.register_hook(fill)
        return pending.value if pending.value is not None else pending

    @grad.setter
    def grad(self, value):
        torch._C._TensorBase.grad.__set__(self, value)


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
