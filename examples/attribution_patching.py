"""Attribution patching: a first-order estimate of activation patching.

One forward/backward pass replaces a patching sweep: the effect of patching
layer i is approximated by (clean_i - corrupted_i) . d metric / d act_i,
with the gradient taken on the corrupted run.
"""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
clean = "When John and Mary went to the store, Mary gave a bottle of milk to"
corrupted = "When John and Mary went to the store, John gave a bottle of milk to"
john = model.tokenizer.encode(" John")[0]
mary = model.tokenizer.encode(" Mary")[0]
n_layers = len(model.transformer.h)


def logit_diff(logits):
    return logits[0, -1, john] - logits[0, -1, mary]


with model.trace(clean) as tracer:
    clean_acts = [model.transformer.h[i].output[0].save() for i in range(n_layers)]

corrupted_acts, grads = [], []
with model.trace(corrupted) as tracer:
    for i in range(n_layers):
        hidden = model.transformer.h[i].output[0]
        corrupted_acts.append(hidden.save())
        grads.append(hidden.grad.save())
    metric = logit_diff(model.lm_head.output)
    metric.backward()

for i in range(n_layers):
    delta = clean_acts[i] - corrupted_acts[i]
    estimate = (delta * grads[i]).sum().item()
    print(f"layer {i:2d}: estimated patching effect {estimate:+.4f}")
