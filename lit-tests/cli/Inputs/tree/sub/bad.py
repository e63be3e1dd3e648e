with model.trace("x") as tracer:
    eval("1")
