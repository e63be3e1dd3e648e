# torch.distributed opens sockets to other ranks (TCP store, NCCL/Gloo):
# network access from a mediator.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch.distributed as dist

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Collectives") as tracer:
    dist.init_process_group("gloo", init_method="tcp://10.0.0.1:23456", rank=0, world_size=2)
    hidden = model.transformer.h[9].output[0]
    dist.all_reduce(hidden)
    logits = model.lm_head.output.save()
