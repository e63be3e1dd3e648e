# IVC404: a name bound in one invoke and used in another of the same trace,
# with no barrier in either, is a warning at the use; it does not change the
# tier. Names bound in the trace body outside the invokes, and values passed
# through a barrier, are not; a suppression on the trace line hides it.
# RUN: %ivc check --verify %s
with model.trace() as tracer:
    scale = 2.0
    with tracer.invoke("The Eiffel Tower is in"):
        clean = model.transformer.h[3].output[0]
        boosted = clean * scale
    with tracer.invoke("The Colosseum is in"):
        model.transformer.h[3].output[0][:] = clean  # expected-warning {{'clean' is made in invoke #0 and used in invoke #1 without a barrier}}
        delta = boosted - 1  # expected-warning {{'boosted' is made in invoke #0 and used in invoke #1}}
        scaled = model.transformer.h[4].output[0] * scale
    logits = model.lm_head.output.save()

with model.trace() as tracer:
    barrier = tracer.barrier(2)
    with tracer.invoke("The Eiffel Tower is in"):
        clean = model.transformer.h[3].output[0]
        barrier()
    with tracer.invoke("The Colosseum is in"):
        barrier()
        model.transformer.h[3].output[0][:] = clean

# Suppressed for the whole trace on its `with` line, by rule name.
with model.trace() as tracer:  # ivc: ignore[cross-invoke-value]
    with tracer.invoke("The Eiffel Tower is in"):
        clean = model.transformer.h[3].output[0]
    with tracer.invoke("The Colosseum is in"):
        model.transformer.h[3].output[0][:] = clean
