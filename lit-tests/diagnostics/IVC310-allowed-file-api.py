# IVC310: under a policy that does not prohibit open, a reference to it is a
# remark naming the policy, and makes the mediator ISOLATE. (Under ndif it is
# the error IVC102.) Names that contain "open" and file-like methods of other
# values are not IVC310; prohibited file modules stay errors.
# RUN: %ivc check --verify --policy %S/Inputs/allow-open.toml %s
import io
import torch


def read_scale(path):
    with open(path) as f:  # expected-remark {{Function 'read_scale' uses 'open', a file API that policy}} expected-remark {{enters a context manager ivc cannot confirm: 'open(path)'}}
        return float(f.read())  # expected-remark {{calls 'f.read'}}


with model.trace("The Eiffel Tower is in") as tracer:
    scale = read_scale("steer.txt")
    opener = open  # expected-remark {{Inputs/allow-open.toml' allows}}
    buffer = io.BytesIO()  # expected-error {{references prohibited module 'io'}}

    # Not the file API.
    reopened = model.transformer.h[4].output[0] * 2
    open_count = 3
    out = model.lm_head.output.save()
