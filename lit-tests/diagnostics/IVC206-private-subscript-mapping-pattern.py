# IVC206: a mapping pattern in a match statement looks its keys up in the
# subject (`case {"_k": v}` reads subject["_k"] via get), so an underscore key
# there should be rejected like the same subscript, the way IVC209 rejects an
# underscore keyword in a class pattern like the attribute (IVC201).
# RUN: %ivc check --verify %s
with model.trace("The Eiffel Tower is in") as tracer:
    cache = {"_hidden": model.transformer.h[4].output[0]}
    match cache:
        case {"_hidden": hidden}:  # expected-error {{private key '_hidden'}}
            out = hidden.save()
