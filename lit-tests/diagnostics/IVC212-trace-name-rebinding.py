# IVC212: a body that rebinds the trace's model or tracer is an error, in
# every binding form: ivc judges each use of those names as theirs, so a
# string bound to `model` would run its `format` as the model's attribute.
# The header's own `as tracer`, other names and other scopes are fine.
# RUN: %ivc check --verify %s
import torch
import nnsight
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("a"):
    model = "{0.x}"  # expected-error {{Trace body rebinds 'model', the trace's model; ivc judges every use of that name as the model's}}
    s = nnsight.save(model.format(torch.zeros(1)))

with model.trace("a") as tracer:
    for tracer in ["{0.x}"]:  # expected-error {{rebinds 'tracer', the trace's tracer}}
        s = nnsight.save(tracer.format(torch.zeros(1)))

with model.trace("a"):
    (model := "{0.x}")  # expected-error {{rebinds 'model'}}
    s = nnsight.save(model.format(torch.zeros(1)))

with model.trace("a"):
    def model(x):  # expected-error {{rebinds 'model'}}
        return x
    s = nnsight.save(model.format(torch.zeros(1)))

with model.trace("a"):
    xs = [(model := "{0}") for _ in range(1)]  # expected-error {{rebinds 'model'}}

with model.trace("a"):
    del model  # expected-error {{rebinds 'model'}}

with model.trace("a") as tracer:
    with tracer.invoke("b"):
        tracer = None  # expected-error {{Invoke body rebinds 'tracer', the trace's tracer}}


def run(model, prompt):
    with model.trace(prompt):
        model = model.transformer  # expected-error {{rebinds 'model', the trace's model}}
        h = model.h[0].output[0].save()
    return h


# Names of their own: a helper's parameter, a comprehension's variable.
def unembed(model, h):
    return model.lm_head(h)


with model.trace("a") as tracer:
    h = model.transformer.h[0].output[0]
    logits = unembed(model, h).save()
    names = [tracer for tracer in ["a", "b"]]
