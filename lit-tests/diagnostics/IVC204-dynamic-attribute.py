# IVC204 under ndif, which prohibits getattr, setattr and delattr (IVC102):
# hasattr with a name that is computed, private, an introspection attribute
# or dotted is an error. A constant public name, also through a variable or a
# constant expression, is not.
# RUN: %ivc check --verify %s
import torch


def has_part(module, part):
    return hasattr(module, part)  # expected-error {{Function 'has_part' calls 'hasattr' with a name computed at run time; attribute names must be constant and public}}


with model.trace("The Eiffel Tower is in") as tracer:
    block = model.transformer.h[0]
    hidden = block.output[0]
    layer = 3
    a = hasattr(block, f"attn{layer}")  # expected-error {{Trace body calls 'hasattr' with a name computed at run time}}
    b = hasattr(hidden, "__class__")  # expected-error {{calls 'hasattr' with the private attribute '__class__'}}
    c = hasattr(hidden, "_version")  # expected-error {{calls 'hasattr' with the private attribute '_version'}}
    d = hasattr(hidden, "gi_frame")  # expected-error {{calls 'hasattr' with the introspection attribute 'gi_frame'}}
    e = hasattr(block, "attn.c_attn")  # expected-error {{calls 'hasattr' with the name 'attn.c_attn'}}
    f = hasattr(hidden, *["shape"])  # expected-error {{with a name computed at run time}}
    name = "_cache" if layer else "cache"
    g = hasattr(block, name)  # expected-error {{with a name computed at run time}}
    h = getattr(block, "attn")  # expected-error {{prohibited builtin 'getattr'}}
    i = has_part(block, "attn")

    # Constant public names: not reported.
    attr = "attn"
    j = hasattr(block, "attn")
    k = hasattr(block, attr)
    m = hasattr(hidden, "sha" + "pe")
    gate = "mlp"
    n = hasattr(block, gate) and hasattr(hidden, "T")
    out = model.lm_head.output.save()
