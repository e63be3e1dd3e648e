# IVC204: getattr and setattr with the name of a frame attribute must be
# rejected like the attribute itself (IVC202 rejects `frame.f_trace`), and a
# public name that only starts like one must not be.
# RUN: %ivc check --verify --policy %S/Inputs/allow-getattr.toml %s
def install(frame, hook):
    setattr(frame, "f_trace", hook)  # expected-error {{calls 'setattr' with the introspection attribute 'f_trace'}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    tracing = getattr(hidden, "f_trace_lines")  # expected-error {{calls 'getattr' with the introspection attribute 'f_trace_lines'}}
    install(hidden, None)
    loss = getattr(hidden, "f_loss", None)
