# IVC404: a name that an invoke binds itself before using it is that
# invoke's own value, even if another invoke binds the same name; no warning.
# RUN: %ivc check --verify %s
# expected-no-diagnostics
with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        hidden = model.transformer.h[3].output[0]
        first = hidden.norm().save()
    with tracer.invoke("The Colosseum is in"):
        hidden = model.transformer.h[3].output[0]
        second = hidden.norm().save()
        for layer in range(2):
            last = model.transformer.h[layer].output[0].save()
    with tracer.invoke("Big Ben is in"):
        for layer in range(2):
            norm = model.transformer.h[layer].output[0].norm().save()
