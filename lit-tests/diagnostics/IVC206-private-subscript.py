# IVC206: a subscript whose key is a constant string starting with an
# underscore is an error, read, written or deleted, also through a variable
# that holds the key and through operator.itemgetter. Public string keys,
# keys with a trailing underscore and tensor indexing are not.
# RUN: %ivc check --verify %s
import operator


def lookup(namespace):
    return namespace["__builtins__"]  # expected-error {{Function 'lookup' subscripts with the private key '__builtins__'}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[4].output[0]
    cache = {"_hidden": hidden, "hidden": hidden}
    a = cache["_hidden"]  # expected-error {{Trace body subscripts with the private key '_hidden'}}
    key = "_hidden"
    b = cache[key]  # expected-error {{subscripts with the private key '_hidden'}}
    cache["_scale"] = 2.0  # expected-error {{subscripts with the private key '_scale'}}
    del cache["_hidden"]  # expected-error {{subscripts with the private key '_hidden'}}
    c = operator.itemgetter("hidden", "_hidden")(cache)  # expected-error {{subscripts with the private key '_hidden'}}
    d = lookup(cache)

    # Public keys and tensor indexing: not reported.
    e = cache["hidden"]
    f = cache["hidden_"]
    g = hidden[:, -1]
    i = hidden[0, 1:3]
    j = operator.itemgetter("hidden")(cache)
    label = {"layer": 4}["layer"]
    out = model.lm_head.output.save()
