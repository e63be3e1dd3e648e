# IVC203: any reference to an introspection builtin the policy does not
# prohibit outright (under ndif: type, object, super, dir, __build_class__ and
# the site builtins) is an error, called or not. Prohibited ones are IVC102.
# Methods, keywords and local names that share a builtin's name are not, nor
# is the cooperative call a class's method makes on its own name
# (`super().__init__()` in `def __init__`): the class is ISOLATE already.
# RUN: %ivc check --verify %s
import torch


class Probe(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, hidden):
        return super().forward(hidden)

    def parent(self):
        return super()  # expected-error {{Class 'Probe' references introspection builtin 'super'}}

    def reach(self):
        return super().__init__  # expected-error {{Class 'Probe' references introspection builtin 'super'}} expected-error {{Class 'Probe' accesses private attribute '__init__'}}

    def explicit(self, hidden):
        return super(Probe, self).forward(hidden)  # expected-error {{Class 'Probe' references introspection builtin 'super'}}


def describe(hidden):
    return dir(hidden)  # expected-error {{Function 'describe' references introspection builtin 'dir'}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[2].output[0]
    kind = type(hidden)  # expected-error {{Trace body references introspection builtin 'type'}}
    is_obj = isinstance(hidden, object)  # expected-error {{introspection builtin 'object'}}
    names = describe(hidden)
    probe = Probe()
    make_class = __build_class__  # expected-error {{introspection builtin '__build_class__'}}
    stop = exit  # expected-error {{introspection builtin 'exit'}}
    quit()  # expected-error {{introspection builtin 'quit'}}
    text = license  # expected-error {{introspection builtin 'license'}}
    eval("1")  # expected-error {{prohibited builtin 'eval'}}

    # Not the builtins: a tensor method, a keyword argument, an attribute and
    # a local name that share a builtin's name.
    half = hidden.type(torch.float16)
    dtype = hidden.dtype
    zeros = torch.zeros(3, dtype=dtype)
    layer_type = model.config.model_type
    for object_id in range(3):
        pass
    out = model.lm_head.output.save()
