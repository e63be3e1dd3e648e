with model.trace("x") as tracer:
    a = helper(1)
    b = reader("f")
    c = alias("1")
    d = json.dumps({})
