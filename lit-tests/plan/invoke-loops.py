# An invoke opened in a `for` of the trace's body gets the loop in the plan
# when a runtime can count its turns and bind its names without the file's
# code: names in the target; a name, a display of literals, a dict view, or
# range (of names, integers, len(name)), enumerate and zip (the builtins) of
# those as the iterable; nothing but invokes in the loop's body.
# The runtime runs one copy of the mediator per turn (docs/plan.md, `loop`).
# RUN: %ivc plan %s | %python -c 'import json, sys; [print("loop", t["index"], m["index"], m["loop"] and m["loop"]["target"], "|", m["loop"] and m["loop"]["iterable"], m["loop"] and m["loop"]["range"]["start"]["line"]) for t in json.load(sys.stdin)["traces"] for m in t["mediators"] if m["kind"] == "invoke"]' | FileCheck %s
# RUN: %ivc check --verify %s
# RUN: %ivc plan %s | %python %srcroot/lit-tests/formats/Inputs/validate_json.py %srcroot/docs/plan.schema.json | FileCheck %s --check-prefix=SCHEMA
# SCHEMA: valid
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
prompts = ["The Eiffel Tower is in", "The Colosseum is in"]
layers = [3, 6]

with model.trace() as tracer:
    acts = []
    for i, (prompt, layer) in enumerate(zip(prompts, layers), 1):
        with tracer.invoke(prompt):
            acts.append(model.transformer.h[layer].output[0].save())
        with tracer.invoke(prompt):
            acts.append(model.transformer.h[i].output[0].save())
# CHECK: loop 0 0 i, (prompt, layer) | enumerate(zip(prompts, layers), 1) 19
# CHECK: loop 0 1 i, (prompt, layer) | enumerate(zip(prompts, layers), 1) 19

with model.trace() as tracer:
    for k in range(0, n_prompts):
        with tracer.invoke(prompts[k]):
            h = model.transformer.h[k].output[0].save()
    for c, name in [(0.0, "off"), (4.0, "on")]:
        with tracer.invoke(prompts[0]):
            h = model.transformer.h[0].output[0].save()
    for k in range(len(layers)):
        with tracer.invoke(prompts[k]):
            h = model.transformer.h[0].output[0].save()
    for label, text in groups.items():
        with tracer.invoke(text):
            h = model.transformer.h[0].output[0].save()
    for i, c in enumerate([-1.0, +2], start=-1):
        with tracer.invoke(prompts[::-1][i]):
            h = model.transformer.h[0].output[0].save()
    for p in prompts[1:-1]:
        with tracer.invoke(p):
            h = model.transformer.h[0].output[0].save()
# CHECK: loop 1 0 k | range(0, n_prompts) 28
# CHECK: loop 1 1 c, name | [(0.0, "off"), (4.0, "on")] 31
# CHECK: loop 1 2 k | range(len(layers)) 34
# CHECK: loop 1 3 label, text | groups.items() 37
# CHECK: loop 1 4 i, c | enumerate([-1.0, +2], start=-1) 40
# CHECK: loop 1 5 p | prompts[1:-1] 43

# What the plan cannot name: a loop with an else, a statement beside the
# invoke, a target that is not a name, a keyword argument, a display of what
# is not literal, the length of what is not a name, a dict view with an
# argument, a rebound builtin.
with model.trace() as tracer:
    for p in prompts:
        with tracer.invoke(p):  # expected-warning {{invoke #0 is opened in a loop}}
            h = model.transformer.h[0].output[0].save()
    else:
        pass
    for p in prompts:
        tracer.log(p)
        with tracer.invoke(p):  # expected-warning {{invoke #1 is opened in a loop}}
            h = model.transformer.h[0].output[0].save()
    for acts[0] in prompts:
        with tracer.invoke(prompts[0]):  # expected-warning {{invoke #2 is opened in a loop}}
            h = model.transformer.h[0].output[0].save()
    for i, p in enumerate(prompts, first=1):
        with tracer.invoke(p):  # expected-warning {{invoke #3 is opened in a loop}}
            h = model.transformer.h[0].output[0].save()
    for c in [n_prompts, 2.0]:
        with tracer.invoke(prompts[0]):  # expected-warning {{invoke #4 is opened in a loop}}
            h = model.transformer.h[0].output[0].save()
    for k in range(len(prompts[0]), 0, step):
        with tracer.invoke(prompts[0]):  # expected-warning {{invoke #5 is opened in a loop}}
            h = model.transformer.h[0].output[0].save()
    for k, v in groups.items(1):
        with tracer.invoke(prompts[0]):  # expected-warning {{invoke #6 is opened in a loop}}
            h = model.transformer.h[0].output[0].save()
# CHECK: loop 2 0 None | None
# CHECK: loop 2 1 None | None
# CHECK: loop 2 2 None | None
# CHECK: loop 2 3 None | None
# CHECK: loop 2 4 None | None
# CHECK: loop 2 5 None | None
# CHECK: loop 2 6 None | None


def rebound(prompts, layers):
    zip = dict
    with model.trace() as tracer:
        for p, q in zip(prompts, layers):
            with tracer.invoke(p):  # expected-warning {{invoke #0 is opened in a loop}}
                h = model.transformer.h[0].output[0].save()
# CHECK: loop 3 0 None | None
