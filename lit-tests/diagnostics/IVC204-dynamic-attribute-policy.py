# IVC204 under a policy that allows getattr, setattr and delattr: each of them
# with a computed, private, introspection or dotted name is an error. With a
# constant public name, and with a private string as getattr's default value,
# they are not.
# RUN: %ivc check --verify --policy %S/Inputs/allow-getattr.toml %s
import torch

with model.trace("The Eiffel Tower is in") as tracer:
    block = model.transformer.h[0]
    hidden = block.output[0]
    layer = 3
    a = getattr(model.transformer, f"h{layer}")  # expected-error {{Trace body calls 'getattr' with a name computed at run time; attribute names must be constant and public}}
    b = getattr(hidden, "_version")  # expected-error {{calls 'getattr' with the private attribute '_version'}}
    setattr(block, "_scale", 2.0)  # expected-error {{calls 'setattr' with the private attribute '_scale'}}
    delattr(block, "__dict__")  # expected-error {{calls 'delattr' with the private attribute '__dict__'}}
    c = getattr(hidden, "co_names")  # expected-error {{calls 'getattr' with the introspection attribute 'co_names'}}
    d = getattr(block, "attn.c_attn")  # expected-error {{calls 'getattr' with the name 'attn.c_attn'}}
    e = getattr(hidden, name="__class__")  # expected-error {{with a name computed at run time}}

    # Constant public names: not reported.
    attn = getattr(block, "attn")
    shape = getattr(hidden, "shape", "__class__")
    layers = [getattr(model.transformer, "h")]
    out = model.lm_head.output.save()
