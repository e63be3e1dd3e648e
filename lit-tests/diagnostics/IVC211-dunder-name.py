# IVC211: a plain name that starts and ends with two underscores is an error,
# read or bound. Single-underscore and name-mangled-looking names, dunder
# strings and the dunder builtins reported by other rules are not IVC211.
# RUN: %ivc check --verify %s
def module_name():
    return __name__  # expected-error {{Function 'module_name' uses the name '__name__'; module dunders reach the interpreter's internals}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[1].output[0].save()
    tools = __builtins__  # expected-error {{Trace body uses the name '__builtins__'}}
    loader = __loader__  # expected-error {{uses the name '__loader__'}}
    __spec__ = None  # expected-error {{uses the name '__spec__'}}
    path = __file__  # expected-error {{uses the name '__file__'}}
    for __layer__ in range(2):  # expected-error {{uses the name '__layer__'}}
        pass
    name = module_name()
    load = __import__  # expected-error {{prohibited builtin '__import__'}}

    # Not dunder names.
    _scale = 2.0
    __mangled = 3.0
    entry = "__main__"
    scaled = hidden * _scale * __mangled
