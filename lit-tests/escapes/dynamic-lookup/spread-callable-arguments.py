# A callable handed to a callee that calls it (map's function, a sort key)
# is judged where it is passed; spread from a display or a name (`*[f, xs]`,
# `**{"key": f}`), it would not be: `list(map(*[a.tofile, [path]]))` wrote a
# file from the server process. A spread argument that may supply the called
# parameter is ISOLATE; one that cannot (`max(*xs)`) is not judged.
# Known from: a red team of ivc's classifier (2026-11-25).
# RUN: %ivc check --verify %s
import collections
import functools
import itertools

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("positional spreads"):
    done = list(map(*[str.upper, ["x"]]))  # expected-remark {{uses a spread argument to 'map' (ivc cannot see what it calls)}}
    args = [print, [1]]
    again = list(map(*args))  # expected-remark {{uses a spread argument to 'map'}}
    total = functools.reduce(*[max, [1, 2]])  # expected-remark {{uses a spread argument to 'functools.reduce'}}
    table = collections.defaultdict(*[list])  # expected-remark {{uses a spread argument to 'collections.defaultdict'}} expected-remark {{fills a set or dict in one call}}
    pairs = list(itertools.starmap(*[pow, [(2, 3)]]))  # expected-remark {{uses a spread argument to 'itertools.starmap'}}

with model.trace("keyword spreads"):
    xs = [3, 1, 2]
    s = sorted(xs, **{"key": abs})  # expected-remark {{uses a spread argument to 'sorted'}}
    xs.sort(**{"key": abs})  # expected-remark {{uses a spread argument to 'sort'}}
    top = max(*[xs], **{"key": abs})  # expected-remark {{uses a spread argument to 'max'}}

with model.trace("spreads that cannot supply the callable"):
    xs = [3, 1, 2]
    top = max(*xs)
    low = min(*xs, key=abs)
    columns = [[1, 2], [3, 4]]
    sums = list(map(max, *columns))
    h = model.transformer.h[0].output[0].save()
