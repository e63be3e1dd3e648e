# A runtime runs a trace's body, not the function around it: that
# function's names are free names of the mediator, as the module's are. One
# it binds once to a constant is pinned (the plan carries `scale = (2)`),
# the functions it defines are definitions, and any other name (`alpha`,
# `n`) is the caller's, whatever the function binds it to. Functions the
# module defines under `if` or `try` are definitions too.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc check --verify --remarks %s
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

if torch.cuda.is_available():

    def triple(x):
        return x * 3

try:

    def shift(x):
        return x + 1

except ImportError:
    pass


# The function's definitions and free names are marked as its own: a
# runtime runs the body and them apart from the module's names. Every name
# the function binds is listed: one nothing binds yet is unbound in the
# body, never the module's value or a builtin.
# CHECK:      "definitions": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "triple",
# CHECK:          "name": "shift",
# CHECK:          "name": "scale",
# CHECK-NEXT:     "scope": "function",
# CHECK-NEXT:     "source": "scale = (2)\n"
# CHECK:          "name": "helper",
# CHECK-NEXT:     "scope": "function",
# CHECK-NEXT:     "source": "def helper(x):\n    return x * scale + n\n"
# CHECK:      "free_names": [
# CHECK-NEXT:   "n",
# CHECK-NEXT:   "torch"
# CHECK-NEXT: ],
# CHECK:      "function_locals": [
# CHECK-NEXT:   "alpha",
# CHECK-NEXT:   "h",
# CHECK-NEXT:   "helper",
# CHECK-NEXT:   "ids",
# CHECK-NEXT:   "n",
# CHECK-NEXT:   "q",
# CHECK-NEXT:   "r",
# CHECK-NEXT:   "scale"
# CHECK-NEXT: ],
# CHECK-NEXT: "function_names": [
# CHECK-NEXT:   "n"
# CHECK-NEXT: ],
# CHECK-NEXT: "guards": {},
# CHECK-NEXT: "in_function": true,
# CHECK:      "tier": "isolate"
def run(ids, alpha):
    scale = 2
    n = alpha

    def helper(x):
        return x * scale + n

    with model.trace(ids):
        q = torch.full((1,), -(2**63)) // scale
        r = torch.full((1,), -(2**63)) // n  # expected-remark {{uses 'torch.full((1,), -(2**63)) // n' (integer-division: the minimum by -1 traps)}}
        h = helper(shift(triple(model.lm_head.output))).save()
