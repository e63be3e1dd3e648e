# IVC210: a decorator that is not a catalogued pure function or one of the
# known-pure decorators is an error at the decorator: one written in the same
# file, an unknown value, or an unsafe torch entry point. staticmethod,
# classmethod, property, functools.wraps/cache/lru_cache,
# dataclasses.dataclass and torch.no_grad/inference_mode/enable_grad (also
# called as factories) are not.
# RUN: %ivc check --verify %s
import dataclasses
import functools
import torch


def logged(fn):
    return fn


@logged  # expected-error {{Function 'steer' decorates with 'logged', which is not a catalogued pure function}}
def steer(hidden):
    return hidden + 0.5


@torch.jit.script  # expected-error {{Function 'scaled' decorates with 'torch.jit.script', which is not a catalogued pure function}}
def scaled(hidden):
    return hidden * 2


@torch.no_grad()
def clean(hidden):
    return hidden * 0


@functools.cache
def width(n):
    return n * 2


@dataclasses.dataclass
class Config:
    scale: float = 1.0

    @property
    def double(self):
        return self.scale * 2

    @staticmethod
    def unit():
        return 1.0


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[6].output[0]
    a = steer(hidden)
    b = scaled(hidden)
    c = clean(hidden)
    d = width(3)
    cfg = Config()

    @torch.inference_mode()
    def probe(h):
        return h.mean(dim=1)

    def make(deco):
        @deco  # expected-error {{Trace body decorates with 'deco', which is not a catalogued pure function}}
        def inner(h):
            return h

        return inner

    e = probe(hidden)
    f = make(torch.relu)
    out = model.lm_head.output.save()
