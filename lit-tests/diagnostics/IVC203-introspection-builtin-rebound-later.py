# IVC203: a builtin read before the trace body binds its name (at module
# level, Python falls back to the builtins) is still the builtin, and an
# introspection builtin read there must be an error.
# RUN: %ivc check --verify %s
with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[2].output[0]
    kind = type(hidden)  # expected-error {{introspection builtin 'type'}}
    for type in ("resid", "attn"):
        pass
