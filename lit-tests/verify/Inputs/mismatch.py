with model.trace("x") as tracer:
    a = 1
    b = 2  # expected-error {{prohibited builtin 'exec'}}
    c = eval("1")
