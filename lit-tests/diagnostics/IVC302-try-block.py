# IVC302: a try statement in a mediator's effective code (try/except,
# try/finally, try/except*) is a remark and makes the mediator ISOLATE. A
# with block and an if that checks the condition instead are not.
# RUN: %ivc check --verify %s
import torch


def safe_layer(index):
    try:  # expected-remark {{Function 'safe_layer' has a try block}}
        return model.transformer.h[index]
    finally:
        pass


with model.trace("The Eiffel Tower is in") as tracer:
    try:  # expected-remark {{Trace body has a try block}}
        hidden = model.transformer.h[40].output[0].save()
    except IndexError:
        hidden = model.transformer.h[-1].output[0].save()
    try:  # expected-remark {{Trace body has a try block}}
        pass
    except* ValueError:
        pass
    block = safe_layer(3)

    # Not try blocks.
    layer = min(40, len(model.transformer.h) - 1)
    if layer > 0:
        last = model.transformer.h[layer].output[0].save()
    with torch.no_grad():
        trying = model.lm_head.output.save()
