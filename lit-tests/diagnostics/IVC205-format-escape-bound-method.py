# IVC205: a format string's bound method is as dangerous when it is stored or
# passed as a value as when it is called in place: both lines below read
# `hidden.__class__` through the format machinery and must be errors.
# RUN: %ivc check --verify %s
with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    describe = "{0.__class__}".format  # expected-error {{reads private attribute '__class__'}}
    kind = describe(hidden)
    kinds = list(map("{0.__class__}".format, [hidden]))  # expected-error {{reads private attribute '__class__'}}
