# ivc explain names the loop an invoke runs in, once per turn, and leaves
# the loop's names out of what the caller supplies.
# RUN: %ivc explain %s:8 | FileCheck %s

with model.trace() as tracer:
    for i, (prompt, scale) in enumerate(zip(prompts, scales)):
        with tracer.invoke(prompt):
            h = model.transformer.h[i].output[0] * scale * bias
            h = h.save()
# CHECK:      Mediator #0.0 (an invoke body, lines 8-9) is FAST
# CHECK:      It runs once per turn of `for i, (prompt, scale) in enumerate(zip(prompts, scales))`, each turn with its own values of the loop's names.
# CHECK-NEXT: The caller supplies: bias, prompts, scales.
