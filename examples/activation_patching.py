"""Activation patching across two invokes (clean -> corrupted).

Both prompts run in one batch. For each layer, the residual stream at the
final position of the clean run is copied into the corrupted run; the
logit difference between the two names says how much of the answer that
layer's residual carries. The barrier makes the corrupted invoke wait until
the clean activation exists.
"""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
clean = "When John and Mary went to the store, Mary gave a bottle of milk to"
corrupted = "When John and Mary went to the store, John gave a bottle of milk to"
john = model.tokenizer.encode(" John")[0]
mary = model.tokenizer.encode(" Mary")[0]


def logit_diff(logits):
    """How much more the model prefers ' John' over ' Mary' at the end."""
    return logits[0, -1, john] - logits[0, -1, mary]


n_layers = len(model.transformer.h)
recovered = []
for layer in range(n_layers):
    with model.trace() as tracer:
        barrier = tracer.barrier(2)

        with tracer.invoke(clean):
            clean_resid = model.transformer.h[layer].output[0][:, -1, :]
            barrier()

        with tracer.invoke(corrupted):
            barrier()
            model.transformer.h[layer].output[0][:, -1, :] = clean_resid
            patched = logit_diff(model.lm_head.output).save()

    recovered.append(patched.item())

for layer, value in enumerate(recovered):
    print(f"layer {layer:2d}: patched logit diff {value:+.3f}")
