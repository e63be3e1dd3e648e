# IVC306: defining a class in a mediator's effective code, and instantiating a
# class of the file, are remarks that make the mediator ISOLATE. A class the
# mediator never reaches, and plain dicts and tuples holding the same values,
# are not.
# RUN: %ivc check --verify %s
import torch


class Steering:  # expected-remark {{Trace body uses class 'Steering'}}
    def __init__(self, vector, scale):
        self.vector = vector
        self.scale = scale


class Unused:
    pass


with model.trace("The Eiffel Tower is in") as tracer:
    direction = torch.randn(768)
    steer = Steering(direction, 4.0)  # expected-remark {{Trace body instantiates class 'Steering'}}

    class Probe:  # expected-remark {{Trace body defines class 'Probe'}}
        pass

    # Plain values instead of classes: not reported.
    config = {"vector": direction, "scale": 4.0}
    pair = (direction, 4.0)
    shifted = model.transformer.h[6].output[0] + config["scale"] * pair[0]
    out = model.lm_head.output.save()
