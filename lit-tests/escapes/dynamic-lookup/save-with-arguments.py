# nnsight's .save() takes no arguments, so `x.save(h, path)` on a value ivc
# cannot type is some other save: torch.save, if a runtime binds the free
# name x to torch (a caller may pass a module as a value), which writes the
# file from C++ with no audit event. Such a call is not confirmed.
# Known from: a red team of ivc's runtime (values={"nnsight": torch}).
# RUN: %ivc check --verify --remarks %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("saves that are not nnsight's"):
    h = model.transformer.h[0].output[0]
    nnsight.save(h, "/tmp/pwn.pt")  # expected-remark {{calls 'nnsight.save', which is not in the op catalog}}
    store.save(h, f="/tmp/pwn.pt")  # expected-remark {{calls 'store.save', which is not in the op catalog}}
    kept = h.save()
