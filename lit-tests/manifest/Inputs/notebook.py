"""A notebook's helpers, built at run time: closures, aliases, globals."""
import json
import os
import subprocess

SCALE = 2.0


def make_reader():
    def read(path):
        return subprocess.check_output(["cat", path])
    return read


def make_scaler(k):
    def scale(h):
        return h * k
    return scale


reader = make_reader()
scaler = make_scaler(SCALE)
alias = eval


def helper(h):
    return h * SCALE + len(os.sep)


def clean(h):
    return scaler(h)
