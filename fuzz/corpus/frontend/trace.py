with model.trace("x") as tracer:
    with tracer.invoke("a"):
        h = model.transformer.h[5].output[0]
        h[:, -1] += 1.5
        out = model.lm_head.output.save()
