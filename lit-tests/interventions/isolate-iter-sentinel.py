# iter(callable, sentinel) calls until the sentinel comes, which may be
# never: like a while loop, it is ISOLATE (a worker has a deadline).
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Sentinel"):
    for _ in iter(int, 1):  # expected-remark {{'iter' with a sentinel}}
        pass
    logits = model.lm_head.output.save()
