"""An intervention a shared server must refuse (REJECT).

It looks like an ordinary logit-lens run, but inside the trace it imports
`os` and reads the server's environment (where API tokens and credentials
live), then walks the type hierarchy to reach every loaded class. Neither
has any interpretability purpose; both are the first steps of a sandbox
escape. ivc reports them as errors and the plan marks the mediator
"reject", so no part of this trace ever runs, not even in the worker.
"""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")

with model.trace("The Eiffel Tower is in the city of") as tracer:
    import os                                      # prohibited module: REJECT

    token = os.environ.get("HF_TOKEN", "")
    classes = ().__class__.__base__.__subclasses__()   # type-hierarchy walk: REJECT
    logits = model.lm_head.output.save()
