# IVC103: an import statement in a mediator's effective code that imports a
# prohibited module, a submodule of one, or a name from one (including a
# prohibited module re-exported by an allowed package) is an error at the
# imported name. Allowed imports next to it are not errors (they are IVC303
# remarks, not checked here), nor are imports outside the trace. An import
# alone on its line (a trailing comment included) gets a fix-it that removes
# the line: here the first one is `import pickle` in dump().
# RUN: %ivc check --verify %s
# RUN: not %ivc check --format json %s | FileCheck %s
import os
import torch


def dump(logits):
    import pickle  # expected-error {{Function 'dump' imports prohibited module 'pickle' (code execution); a server would only refuse it when the import runs}}
    return len(logits)


with model.trace("The Eiffel Tower is in") as tracer:
    # expected-error@+1 {{Trace body imports prohibited module 'subprocess' (process)}}
    import subprocess
    from os import path  # expected-error {{imports prohibited module 'os' (process)}}
    from torch import os as torch_os  # expected-error {{imports prohibited module 'os'}}
    import os.path, math  # expected-error {{imports prohibited module 'os'}}
    import importlib.util  # expected-error {{imports prohibited module 'importlib' (code execution)}}
    from http.client import HTTPConnection  # expected-error {{imports prohibited module 'http' (network)}}
    logits = model.lm_head.output.save()
    size = dump(logits)

    # Allowed: safe modules, and submodules that only share a prohibited name.
    import numpy as np
    import torch.nn.functional as F
    from scipy import signal
    import scipy.io
    importance = F.softmax(logits, dim=-1)

# CHECK:      "code": "IVC103",
# CHECK:      "fixits": [{{$}}
# CHECK-NEXT:   {
# CHECK-NEXT:     "range": {
# CHECK-NEXT:       "end": {
# CHECK-NEXT:         "column": 1,
# CHECK-NEXT:         "line": 16,
# CHECK:            "start": {
# CHECK-NEXT:         "column": 1,
# CHECK-NEXT:         "line": 15,
# CHECK:          "replacement": "",
# CHECK-NEXT:     "title": "remove the import"
# CHECK:      "message": "Trace body imports prohibited module 'subprocess' (process);
