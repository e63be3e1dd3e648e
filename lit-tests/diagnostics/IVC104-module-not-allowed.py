# IVC104: a module the policy neither lists as safe nor allows to be imported
# is an error where the mediator imports it, and where it references a name
# bound to it or to one of its members; relative imports always are. Modules
# the ndif policy lists as safe are not, and neither is a name that merely
# looks like a module's.
# RUN: %ivc check --verify %s
import bisect
import heapq
import json
import logging
import statistics
import textwrap
import pandas as pd
from types import SimpleNamespace
from sklearn.decomposition import PCA
import torch


# A namespace made of constants is made again for each mediator, by a
# module the policy does not allow (it cannot be sent either).
settings = SimpleNamespace(layer=1, scale=2.0)  # expected-error {{Trace body uses module 'types'}}


def to_frame(values):
    return pd.DataFrame(values)  # expected-error {{Function 'to_frame' uses module 'pandas', which policy 'ndif' neither lists as safe nor allows to be imported}}


with model.trace("The Eiffel Tower is in") as tracer:
    import requests  # expected-error {{Trace body uses module 'requests', which policy 'ndif'}}
    from . import probes  # expected-error {{uses module '.'}}
    from .probes import linear_probe  # expected-error {{uses module '.probes'}}
    import einops
    norms = model.transformer.h[5].output[0].norm(dim=-1)
    pca = PCA(n_components=2)  # expected-error {{uses module 'sklearn'}}
    frame = to_frame(norms.tolist())
    requests.post("https://example.com", json=norms.tolist())  # expected-error {{uses module 'requests'}}

    # Safe under ndif: json, einops, torch, and the standard library's
    # bookkeeping modules (what is uncatalogued of them runs ISOLATE).
    record = json.dumps({"norm": 1.0})
    top = heapq.nlargest(2, [3, 1, 2]) + [bisect.bisect([1, 2], 1)]
    spread = statistics.pstdev([1.0, 2.0])
    logging.info(textwrap.shorten("a long message", width=8))
    pooled = einops.reduce(norms, "b s -> b", "mean")
    pandas_like = {"frame": norms, "scaled": norms[settings.layer] * settings.scale}
    pd_scale = torch.tensor(2.0)
