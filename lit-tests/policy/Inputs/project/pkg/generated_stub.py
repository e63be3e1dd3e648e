with model.trace("x") as tracer:
    eval("never checked: excluded by [tool.ivc] exclude")
