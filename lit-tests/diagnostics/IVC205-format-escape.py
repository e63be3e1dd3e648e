# IVC205: string-driven lookups that can reach private attributes are errors:
# str.format / format_map / str.format(fmt, ...) whose fields read underscore
# or introspection attributes or underscore keys, or whose format string is
# not a constant; string.Formatter; operator.attrgetter and methodcaller with
# such names or computed ones; functools.reduce(getattr, names, obj) with
# such names or a names list ivc cannot read. Format strings and getters with
# public names are not.
# RUN: %ivc check --verify %s
import functools
import operator
from operator import attrgetter, methodcaller
from string import Formatter


def render(template, value):
    return template.format(value)  # expected-error {{Function 'render' uses str.format: the format string is assembled at run time, so it can read any attribute; use an f-string instead}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    a = "{0.__class__}".format(hidden)  # expected-error {{Trace body uses str.format: the format string reads private attribute '__class__'}}
    b = "{x[_secret]}".format_map({"x": {}})  # expected-error {{uses str.format_map: the format string indexes with private key '_secret'}}
    c = str.format("{0.__globals__}", render)  # expected-error {{uses str.format: the format string reads private attribute '__globals__'}}
    d = "{0.gi_frame}".format(hidden)  # expected-error {{the format string reads introspection attribute 'gi_frame'}}
    e = "{0:{1.__class__}}".format(1, hidden)  # expected-error {{reads private attribute '__class__'}}
    template = "{0.__init__}"
    f = template.format(hidden)  # expected-error {{reads private attribute '__init__'}}
    g = render("{0.shape}", hidden)
    fmt = Formatter()  # expected-error {{uses string.Formatter: string.Formatter resolves fields by name (get_field), so it can read private attributes}}
    i = attrgetter("__class__")(hidden)  # expected-error {{uses operator.attrgetter: it reads the private attribute '__class__'}}
    j = operator.attrgetter("shape.__class__")(hidden)  # expected-error {{uses operator.attrgetter: it reads the private attribute '__class__'}}
    k = attrgetter()  # expected-error {{uses operator.attrgetter: its attribute names are not visible to ivc}}
    m = methodcaller("__reduce__")(hidden)  # expected-error {{uses operator.methodcaller: it reads the private attribute '__reduce__'}}
    n = methodcaller("co_lines")(hidden)  # expected-error {{it reads the introspection attribute 'co_lines'}}
    o = functools.reduce(operator.attrgetter, ["__class__", "__base__"], hidden)  # expected-error {{uses functools.reduce(getattr, ...): it reads the private attribute '__class__'}}
    names = ["shape"]
    p = functools.reduce(attrgetter, names, hidden)  # expected-error {{uses functools.reduce(getattr, ...): its attribute names are assembled at run time}}
    q = functools.reduce(getattr, ["__class__"], hidden)  # expected-error {{uses functools.reduce(getattr, ...): it reads the private attribute '__class__'}} expected-error {{prohibited builtin 'getattr'}}

    # Public fields and names: not reported.
    r = "{0.shape} {0.dtype}".format(hidden)
    s = "{x[key]}".format_map({"x": {"key": 1}})
    t = str.format("{} {}", 1, 2)
    u = "{:>{width}}".format("layer", width=8)
    v = "{!r:>10}".format(hidden.shape)
    w = "{{0.__class__}}".format()
    x = attrgetter("shape")
    attr = "dtype"
    y = attrgetter(attr)
    z = methodcaller("softmax", -1)
    total = functools.reduce(operator.add, [1, 2, 3], 0)
    out = model.lm_head.output.save()
