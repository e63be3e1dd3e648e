# IVC208: a class defined with metaclass= in a mediator's effective code is an
# error at the keyword. A class with other keywords or with a base class is
# not (it is an IVC306 remark, not checked here).
# RUN: %ivc check --verify %s
import torch


class Registry(type):  # expected-error {{introspection builtin 'type'}}
    pass


class Probe(metaclass=Registry):  # expected-error {{Class 'Probe' defines class 'Probe' with a metaclass}}
    pass


with model.trace("The Eiffel Tower is in") as tracer:
    probe = Probe()

    class Steer(torch.nn.Module, metaclass=Registry):  # expected-error {{Trace body defines class 'Steer' with a metaclass}}
        pass

    # Not a metaclass: a base class and an ordinary class keyword.
    class Plain(torch.nn.Module):
        pass

    class Tagged(Plain, tag="metaclass"):
        pass

    out = model.lm_head.output.save()
