# What a serializer that inspects only a function's globals misses, ivc
# catches: a prohibited module in the globals, a function taken from one, a
# module captured in a closure (through a call that returns the closure), an
# aliased builtin, and an import inside the body, which the server would only
# meet when the import runs (`lister = make_lister()` is a definition the plan
# carries, so make_lister's own import is judged too).
# RUN: %ivc check --verify %s
import os
import subprocess
from shutil import rmtree

run_it = eval


def make_lister():
    import glob  # expected-error {{Function 'make_lister' imports prohibited module 'glob' (filesystem)}}

    def lister(pattern):
        return glob.glob(pattern)  # expected-error {{Function 'lister' references prohibited module 'glob' (filesystem)}}

    return lister


lister = make_lister()

with model.trace("The Eiffel Tower is in") as tracer:
    cwd = os.getcwd()  # expected-error {{Trace body references prohibited module 'os' (process)}}
    rmtree("/tmp/x")  # expected-error {{references prohibited module 'shutil' (filesystem)}}
    files = lister("*.pt")
    value = run_it("1 + 1")  # expected-error {{references prohibited builtin 'eval'}}
    import pickle  # expected-error {{imports prohibited module 'pickle' (code execution)}}
    caller = subprocess.run  # expected-error {{references prohibited module 'subprocess' (process)}}
    out = model.lm_head.output.save()
