# IVC101: a reference to a prohibited module, or to anything imported from one,
# is an error at the reference: direct, aliased, imported by name or with a
# star, captured by a closure, through an attribute chain (reported once, at
# its root) or as an attribute of an allowed package. Look-alikes are not.
# RUN: %ivc check --verify %s
import os
import subprocess as sp
from shutil import rmtree
from socket import *
import torch

run = sp.run


def cache_dir():
    return os.path.expanduser("~/.cache")  # expected-error {{Function 'cache_dir' references prohibited module 'os' (process)}}


def make_saver(path):
    join = os.path.join  # expected-error {{references prohibited module 'os'}}

    def save(name):
        return join(path, name)  # expected-error {{references prohibited module 'os'}}

    return save


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[5].output[0].save()
    out = os.path.join("acts", "layer5.pt")  # expected-error {{Trace body references prohibited module 'os' (process). Code sent to NDIF servers}}
    run(["nvidia-smi"])  # expected-error {{references prohibited module 'subprocess' (process)}}
    rmtree("acts")  # expected-error {{references prohibited module 'shutil' (filesystem)}}
    conn = create_connection(("example.com", 80))  # expected-error {{references prohibited module 'socket' (network)}}
    torch.os.getpid()  # expected-error {{references prohibited module 'os' (process)}}
    where = cache_dir()
    saver = make_saver("acts")

    # Not references to a module: a comment mentioning os.system, a string,
    # names that merely contain a module's name, a catalogued torch function.
    label = "os.system"
    cos = torch.cos(hidden)
    ossified = hidden.sum()
    syscall_count = 3
    posterior = torch.softmax(hidden, dim=-1).save()
