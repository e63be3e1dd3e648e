# IVC308: constructs outside the FAST subset are remarks that make the
# mediator ISOLATE: a match that destructures, generator functions (yield, yield from), async def,
# await, async for/with, async comprehensions and syntax ivc does not model
# (a type alias statement). Generator expressions, comprehensions, lambdas,
# local functions and a match whose cases only compare are not.
# RUN: %ivc check --verify %s
import typing

import torch


def layer_outputs(blocks):
    for block in blocks:
        yield block.output[0]  # expected-remark {{Function 'layer_outputs' uses a generator ('yield'), which is outside the FAST subset}}


def all_outputs(blocks):
    yield from layer_outputs(blocks)  # expected-remark {{Function 'all_outputs' uses a generator ('yield')}}


async def fetch(hidden):  # expected-remark {{Function 'fetch' uses 'async def'}}
    async for item in hidden:  # expected-remark {{Function 'fetch' uses 'async for'}}
        await item  # expected-remark {{Function 'fetch' uses 'await'}}
    async with hidden:  # expected-remark {{Function 'fetch' uses 'async with'}}
        pass
    return [x async for x in hidden]  # expected-remark {{Function 'fetch' uses an async comprehension}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    norms = [h.norm() for h in all_outputs(model.transformer.h)]
    pending = fetch(hidden)
    match hidden.shape:  # expected-remark {{Trace body uses a match statement with a class, sequence or mapping pattern, which is outside the FAST subset}}
        case (_, _, width):
            last = hidden[:, -1, :width]
    type Layer = int  # expected-remark {{uses 'type_alias_statement', a construct ivc does not model}}
    # typing keeps what its forms are given in a process-wide cache: only
    # constants and types may go in.
    kept = typing.Annotated[int, hidden]  # expected-remark {{uses 'typing.Annotated' as a value}}
    chosen = typing.Literal[hidden.shape[0]]  # expected-remark {{uses 'typing.Literal' as a value}}

    # The FAST subset: not reported.
    total = sum(h.sum() for h in [hidden, hidden * 2])
    squares = {i: i * i for i in range(3)}
    scale = (lambda x: x * 0.5)(hidden)

    def shift(h):
        return h + 1

    shifted = shift(hidden).save()
    Mode = typing.Literal["mean", "max"]
    Scale = typing.Optional[typing.List[float]]
    match hidden.ndim:
        case 3 | 4 if hidden.shape[0] > 0:
            rank = "batched"
        case None:
            rank = "none"
        case other:
            rank = str(other)
