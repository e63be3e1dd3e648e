with model.trace("x") as tracer:
    out = model.lm_head.output.save()
