# A helper rebinds a module global with `global`: after install() runs, the
# name `normalize` no longer means the function defined below but eval. The
# analyzer must not resolve a name to its def when some reachable code
# rebinds it (and the rebinding itself names a prohibited builtin).
# Known from: pyjail CTF write-ups that hide a binding or an evaluation from a
# statement-level check.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def normalize(x):
    return x / x.norm()


def install():
    global normalize
    normalize = eval


with model.trace("Rebinding") as tracer:
    install()
    value = normalize("2 ** 10")
    logits = model.lm_head.output.save()
