# IVC209: a keyword in a class pattern that names an underscore attribute is
# an error at the keyword. Public keywords, positional patterns and mapping
# patterns with public keys are not (the match itself is an IVC308 remark,
# not checked here).
# RUN: %ivc check --verify %s
import torch

with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    match hidden:
        case torch.Tensor(_version=version):  # expected-error {{Trace body matches private attribute '_version' in a class pattern}}
            pass
        case torch.Tensor(__class__=cls):  # expected-error {{matches private attribute '__class__' in a class pattern}}
            pass
        case torch.Tensor(shape=shape, dtype=torch.float16):
            last = hidden[:, -1].save()
        case {"layer": layer, "shape_": shape}:
            pass
        case [first, *rest]:
            pass
