# IVC402: .save() on something that is not data (a function or lambda, a
# module member, an instance of a class of the file, a generator expression)
# is a warning; it does not change the tier. Saving activations, tensors
# computed from them and lists of them is not.
# RUN: %ivc check --verify %s
import torch


class Probe:
    pass


def unembed(hidden):
    return model.lm_head(hidden)


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[5].output[0]
    fn = unembed.save()  # expected-warning {{Trace body saves function 'unembed', which cannot cross a process boundary}}
    scale = (lambda h: h * 2).save()  # expected-warning {{saves a lambda}}
    act = torch.nn.functional.gelu.save()  # expected-warning {{saves 'torch.nn.functional.gelu'}}
    probe = Probe().save()  # expected-warning {{saves an instance of class 'Probe'}}
    layers = (b.output[0] for b in model.transformer.h).save()  # expected-warning {{saves a generator}}

    # Data: not reported.
    saved = hidden.save()
    norms = hidden.norm(dim=-1).save()
    per_layer = [b.output[0].save() for b in model.transformer.h]
    logits = unembed(hidden).save()
