# IVC407: an invoke reads a name the trace body binds to what the plan does
# not carry to it (a computed value); IVC408: an invoke opened in a loop the
# plan cannot name, which ivc runs once. Constants, empty lists and dicts and
# barriers bound before the invokes reach them, and are not reported.
# Neither changes a tier.
# RUN: %ivc check --verify %s
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
prompts = ["The Eiffel Tower is in", "The Colosseum is in"]

with model.trace() as tracer:
    steer = torch.randn(768)
    scale = 3
    acts = []
    barrier = tracer.barrier(2)
    with tracer.invoke(prompts[0]):
        h = model.transformer.h[6].output[0]
        h[:] += steer * scale  # expected-warning {{'steer' is bound in the trace body to a value the plan does not carry to invoke #0}}
        acts.append(h.save())
        barrier()
    with tracer.invoke(prompts[1]):
        barrier()
        acts.append(model.transformer.h[6].output[0].save())

# A loop a runtime can expand (docs/plan.md, `loop`) is not reported; one
# whose turns or names it cannot know without running the file is. Its
# target is its invokes' own: an invoke after it does not see it.
with model.trace() as tracer:
    for prompt in prompts:
        with tracer.invoke(prompt):
            acts.append(model.transformer.h[6].output[0].save())
    with tracer.invoke(prompts[0]):
        tracer.log(prompt)  # expected-warning {{'prompt' is bound in the trace body to a value the plan does not carry to invoke #1}}

with model.trace() as tracer:
    for prompt in sorted(prompts):
        with tracer.invoke(prompt):  # expected-warning {{invoke #0 is opened in a loop; ivc runs it once}}
            acts.append(model.transformer.h[6].output[0].save())
    for prompt in prompts:
        text = prompt.upper()
        with tracer.invoke(text):  # expected-warning {{invoke #1 is opened in a loop; ivc runs it once}} expected-warning {{'text' is bound in the trace body}}
            acts.append(model.transformer.h[6].output[0].save())
    for step in range(2):
        if step:
            with tracer.invoke(prompts[step]):  # expected-warning {{invoke #2 is opened in a loop; ivc runs it once}}
                acts.append(model.transformer.h[6].output[0].save())
