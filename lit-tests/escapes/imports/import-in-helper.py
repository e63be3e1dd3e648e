# The import is inside a same-file helper that the trace calls; the
# mediator text has no import at all.
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def host_tag():
    import socket

    return socket.gethostname()


with model.trace("Hidden imports") as tracer:
    tag = host_tag()
    logits = model.lm_head.output.save()
