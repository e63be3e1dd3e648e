"""Cache the residual stream of selected layers for a small dataset.

`tracer.cache()` records module outputs as the model runs; `.save()` keeps
one extra tensor (the final-position logits) next to it. The cached values
are compared across prompts after the traces.
"""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
PROMPTS = [
    "The capital of Italy is",
    "The capital of Spain is",
    "The capital of Japan is",
]
LAYERS = [2, 6, 10]

caches = []
final_logits = []
for prompt in PROMPTS:
    with model.trace(prompt) as tracer:
        cache = tracer.cache(modules=[model.transformer.h[i] for i in LAYERS])
        final_logits.append(model.lm_head.output[0, -1].save())
    caches.append(cache)

for i in LAYERS:
    key = f"model.transformer.h.{i}"
    first = caches[0][key].output[0][0, -1]
    second = caches[1][key].output[0][0, -1]
    similarity = (first @ second) / (first.norm() * second.norm())
    print(f"layer {i:2d}: cosine(Italy, Spain) = {similarity.item():.3f}")
