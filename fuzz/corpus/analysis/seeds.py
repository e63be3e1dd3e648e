import os
from torch import load as L

fn = eval


def helper(h, k=getattr):
    return "{0.__class__}".format(h)


with model.session() as session:
    with model.trace("a") as tracer:
        with tracer.invoke("x"):
            g = (x for x in [1])
            f = g.gi_frame.f_back
            h = model.transformer.h[0].output[0]
            h[:, -1] += 1
        with tracer.invoke("y"):
            while h.norm() > 1:
                h = h / 2
            match h:
                case C(__class__=c): pass
            out = helper(h).save()
