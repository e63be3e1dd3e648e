# IVC102: a name that the trace body binds only later, or only on a branch
# that may not run, still refers to the builtin where it is read before that
# binding (at module level Python falls back to the builtins). Such a read of
# a prohibited builtin must be an error.
# RUN: %ivc check --verify %s
with model.trace("The Eiffel Tower is in") as tracer:
    depth = eval("2 + 2")  # expected-error {{prohibited builtin 'eval'}}
    eval = None

with model.trace("The Eiffel Tower is in") as tracer:
    if False:
        getattr = print
    cls = getattr(model, "__class__")  # expected-error {{prohibited builtin 'getattr'}}
