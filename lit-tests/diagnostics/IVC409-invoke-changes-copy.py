# IVC409: an invoke changes in place a container from outside it that other
# invokes (or turns of its loop) change too: each changes a copy. What an
# invoke adds to a pinned empty list or dict itself is joined by the runtime
# and not reported (what it puts in the elements is), nor is what an invoke
# binds itself, or a trace with one invoke outside a loop; what it otherwise
# does with such a one (reads it, inserts in front) is, as each copy holds
# only its own invoke's items.
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
prompts = ["The Eiffel Tower is in", "The Colosseum is in"]
results = [None] * len(prompts)
counts = {"seen": 0}
per_layer = {0: [], 1: []}
acts = []
cache = {}
firsts = {}

with model.trace() as tracer:
    for i, prompt in enumerate(prompts):
        with tracer.invoke(prompt):
            results[i] = model.lm_head.output.save()  # expected-warning {{invoke #0 changes 'results' in place, but each invoke (and each turn of its loop) changes a copy of its own}}
            counts["seen"] += 1  # expected-warning {{invoke #0 changes 'counts' in place}}
            per_layer[0].append(model.transformer.h[0].output[0].save())  # expected-warning {{invoke #0 changes 'per_layer' in place}}
            acts.append(model.lm_head.output.save())
            order = len(acts)  # expected-warning {{invoke #0 uses 'acts' other than by adding to it, but each invoke (and each turn of its loop) fills a copy of its own, which holds only what that invoke added}}
            firsts[prompt] = firsts.get(prompt, 0) + 1  # expected-warning {{invoke #0 uses 'firsts' other than by adding to it}}
            cache.setdefault(i, []).append(model.lm_head.output.save())  # expected-warning {{invoke #0 changes 'cache' in place}}
            mine = []
            mine.append(1)

with model.trace() as tracer:
    with tracer.invoke(prompts[0]):
        per_layer[1].append(model.transformer.h[1].output[0].save())  # expected-warning {{invoke #0 changes 'per_layer' in place, but each invoke changes a copy}}
    with tracer.invoke(prompts[1]):
        model.transformer.h[1].output[0][:] = 0
        acts.append(model.lm_head.output.save())

with model.trace() as tracer:
    with tracer.invoke(prompts[0]):
        results[0] = model.lm_head.output.save()


def run(prompts):
    out = []
    with model.trace() as tracer:
        for p in prompts:
            with tracer.invoke(p):
                out.append(model.lm_head.output.save())  # expected-warning {{invoke #0 changes 'out' in place, but each invoke (and each turn of its loop) changes a copy of its own, and one copy comes back: ivc joins the copies only of an empty list or dict bound once outside any function}}
    return out
