with model.trace("x") as tracer:
    h = clean(model.transformer.h[2].output[0]).save()
