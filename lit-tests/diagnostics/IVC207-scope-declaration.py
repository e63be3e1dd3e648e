# IVC207: a global or nonlocal statement anywhere in a mediator's effective
# code is an error, one per declared name. Assigning a local, or a name that
# merely contains "global", is not; nor is a nonlocal of a variable that
# each call of the function the mediator calls makes afresh.
# RUN: %ivc check --verify %s
tokens_seen = 0


def count_tokens(hidden):
    global tokens_seen  # expected-error {{Function 'count_tokens' declares 'tokens_seen' global; code sent to a server may not rebind names outside itself}}
    tokens_seen += hidden.shape[1]
    return hidden


def running_mean():
    total = 0

    def add(x):
        nonlocal total  # expected-error {{Function 'add' declares 'total' nonlocal}}
        total += x
        return total

    return add


def count_layers(layers):
    n = 0

    def bump():
        nonlocal n
        n += 1

    for _ in layers:
        bump()
    return n


with model.trace("The Eiffel Tower is in") as tracer:
    global layer, scale  # expected-error {{Trace body declares 'layer' global}} expected-error {{Trace body declares 'scale' global}}
    hidden = count_tokens(model.transformer.h[0].output[0])
    add = running_mean()
    mean = add(hidden.norm())
    depth = count_layers([1, 2])

    # Locals and look-alike names: not reported.
    global_norm = hidden.norm()
    nonlocal_count = 3
    local_total = global_norm + nonlocal_count
    out = model.lm_head.output.save()
