# IVC205: a format string's bound method is as dangerous when it is stored or
# passed as a value as when it is called in place: both lines below read
# `hidden.__class__` through the format machinery and must be errors.
# XFAIL: *
# Known bug: Formatting.cpp judges only a call whose callee is literally
# `<str>.format(...)`. Stored in a name, the call is only an IVC305 remark
# (ISOLATE); passed to map(), nothing is reported and the mediator is FAST,
# so the format string runs in the server process.
# RUN: %ivc check --verify %s
with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    describe = "{0.__class__}".format  # expected-error {{reads private attribute '__class__'}}
    kind = describe(hidden)
    kinds = list(map("{0.__class__}".format, [hidden]))  # expected-error {{reads private attribute '__class__'}}
