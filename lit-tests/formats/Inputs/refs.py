import os
fn = eval

with model.trace("x") as tracer:
    a = os.getcwd()
    b = fn("1")
    c = getattr(model, "lm_head")
    h = model.transformer.h[0].output[0]
    h[:, -1] += 1
