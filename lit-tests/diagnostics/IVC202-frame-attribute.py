# IVC202: attributes of frames, generators, coroutines, async generators,
# tracebacks, code objects (any co_ name), cells and the type hierarchy (mro)
# are errors wherever they are read, written or called, once per chain.
# Public attributes that only resemble them are not.
# RUN: %ivc check --verify %s
import torch


def layer_outputs(blocks):
    for block in blocks:
        yield block.output[0]


def caller_of(tb):
    return tb.tb_frame.f_back  # expected-error {{Function 'caller_of' accesses 'tb_frame', an attribute of tracebacks}}


async def fetch():
    return 1


with model.trace("The Eiffel Tower is in") as tracer:
    steps = layer_outputs(model.transformer.h)
    frame = steps.gi_frame  # expected-error {{Trace body accesses 'gi_frame', an attribute of generators}}
    outer = frame.f_back  # expected-error {{accesses 'f_back', an attribute of frames}}
    scope = frame.f_globals  # expected-error {{accesses 'f_globals', an attribute of frames}}
    frame.f_trace = print  # expected-error {{accesses 'f_trace', an attribute of frames}}
    code = steps.gi_code.co_consts  # expected-error {{accesses 'gi_code', an attribute of generators}}
    consts = code.co_code  # expected-error {{accesses 'co_code', an attribute of code objects}}
    pending = fetch().cr_frame  # expected-error {{accesses 'cr_frame', an attribute of coroutines}}
    value = code.cell_contents  # expected-error {{accesses 'cell_contents', an attribute of functions and closures}}
    chain = torch.Tensor.mro()  # expected-error {{accesses 'mro', an attribute of classes (the type hierarchy)}}
    where = caller_of(None)

    # Public attributes that resemble them: not reported.
    hidden = model.transformer.h[5].output[0]
    f_score = hidden.norm()
    frames = hidden.frames_per_second
    gist = hidden.gi
    tb = hidden.tb
    cell = hidden.cell
    code_size = hidden.code
    cooldown = hidden.cooldown
    out = model.lm_head.output.save()
