# torch.multiprocessing starts processes (fork/spawn) from inside the
# server or worker; process creation is for the worker pool to control.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch.multiprocessing as mp

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def work(rank):
    return rank


with model.trace("Processes") as tracer:
    mp.spawn(work, nprocs=2)
    logits = model.lm_head.output.save()
