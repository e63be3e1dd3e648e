# IVC410: an invoke without inputs in a trace with other invokes, which
# nnsight runs on the whole batch and ivc on its caller's rows. A trace
# whose only invoke is empty is not reported.
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
prompts = ["The Eiffel Tower is in", "The Colosseum is in"]

with model.trace() as tracer:
    for prompt in prompts:
        with tracer.invoke(prompt):
            pass
    with tracer.invoke():  # expected-warning {{invoke #1 has no inputs: nnsight runs it on the whole batch of the trace's other invokes}}
        batch_h = model.transformer.h[2].output[0].save()

with model.trace(prompts) as tracer:
    with tracer.invoke():
        h = model.transformer.h[2].output[0].save()
