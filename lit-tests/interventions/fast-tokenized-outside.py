# Token ids computed above the trace (`model.tokenizer(s).input_ids`) are
# the caller's free name: a runtime binds it to data that crossed the
# value codec, never to a method, whatever the file's expression looks like.
# Expected: no remark; every mediator FAST.
# RUN: %ivc check --verify --remarks %s
# RUN: %ivc plan %s | FileCheck %s
# CHECK: "free_names": [
# CHECK: "choice_ids"
# CHECK-NOT: "tier": "{{isolate|reject}}"
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
choice_ids = model.tokenizer(" blue").input_ids

with model.trace("The sky is"):
    logprobs = model.lm_head.output[0, -1].log_softmax(-1)
    target = torch.tensor(choice_ids)
    score = (logprobs[target].sum() + len(choice_ids)).save()
