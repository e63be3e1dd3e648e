# IVC303: an import statement of an allowed module in a mediator's effective
# code is a remark and makes the mediator ISOLATE. Imports at module level,
# outside the trace, are not, and neither is using the module they bind.
# RUN: %ivc check --verify %s
import math
import torch


def normalize(hidden):
    import torch.nn.functional as F  # expected-remark {{Function 'normalize' imports 'torch.nn.functional' at run time}}
    return F.normalize(hidden, dim=-1)


with model.trace("The Eiffel Tower is in") as tracer:
    import einops  # expected-remark {{Trace body imports 'einops' at run time}}
    from collections import Counter  # expected-remark {{Trace body imports 'collections' at run time}}
    import numpy as np, json  # expected-remark {{imports 'numpy' at run time}} expected-remark {{imports 'json' at run time}}
    hidden = model.transformer.h[3].output[0]
    unit = normalize(hidden)

    # Modules imported outside the trace: not reported.
    scaled = (hidden / math.sqrt(hidden.shape[-1])).save()
    important = torch.softmax(scaled, dim=-1).save()
