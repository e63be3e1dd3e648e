# A module stored in a container, passed as an argument or bound to a
# parameter leaves the analysis's sight: what is read from the value is not
# judged, so `max([torch]).os.system` would run a shell in the server. Each
# such use of a module (or of another member that is not a catalogued
# function or constant) is ISOLATE, and so is a callable ivc cannot type
# handed to a callee that calls it (`map(a.real.tofile, paths)` writes a
# file chosen by the code).
# Known from: a red team of ivc's classifier (2026-11-25).
# RUN: %ivc check --verify %s
import itertools
import json

import numpy as np
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def run(m, cmd):
    return list(map(m.os.system, [cmd]))  # expected-remark {{Function 'run' uses 'm.os.system' as a value (what receives it calls it)}}


with model.trace("in containers"):
    done = list(map(max([torch]).os.system, ["id"]))  # expected-remark {{uses 'torch' as a value (ivc does not follow what is read from it)}} expected-remark {{uses 'max([torch]).os.system' as a value (what receives it calls it)}}
    table = {"k": torch}  # expected-remark {{uses 'torch' as a value}}
    # A dict display nothing changes: ivc reads the module back out of it.
    path = sorted(["x"], key=table["k"].os.getenv)  # expected-error {{references prohibited module 'os'}}
    first = next(iter((json.decoder,)))  # expected-remark {{uses 'json.decoder' as a value}}

with model.trace("as arguments and defaults"):
    r = run(torch, "id")  # expected-remark {{uses 'torch' as a value}}
    tracer_log = "{0.os.environ[PATH]}".format(torch)  # expected-remark {{uses 'torch' as a value}}

    def env(m=torch):  # expected-remark {{uses 'torch' as a value}}
        return m

with model.trace("stored in attributes"):
    box = [0]
    box[0] = torch  # expected-remark {{uses 'torch' as a value}}
    h = model.transformer.h[0].output[0]
    setattr(h, "m", torch)  # expected-error {{prohibited builtin 'setattr'}} expected-remark {{uses 'torch' as a value}}

with model.trace("uncallable values handed to callers"):
    a = np.array([80, 87, 78, 10], dtype=np.uint8)
    wrote = list(map(a.real.tofile, ["/tmp/x"]))  # expected-remark {{uses 'a.real.tofile' as a value (what receives it calls it)}} expected-remark {{uses 'numpy.ndarray.tofile' (io)}}
    grouped = list(itertools.groupby(["/tmp/x"], a.real.tofile))  # expected-remark {{uses 'a.real.tofile' as a value}} expected-remark {{uses 'numpy.ndarray.tofile' (io)}}
    summed = list(itertools.accumulate(["/tmp/x"], a.real.tofile))  # expected-remark {{uses 'a.real.tofile' as a value}} expected-remark {{uses 'numpy.ndarray.tofile' (io)}}
