"""Logit lens: decode every layer's residual stream through the unembedding.

For each GPT-2 block we take the residual stream after the block, apply the
final layer norm and the unembedding, and keep the probability the model
would assign to the answer token if it stopped at that layer.
"""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
prompt = "The Eiffel Tower is in the city of"
answer_id = model.tokenizer.encode(" Paris")[0]

probs_per_layer = []
with model.trace(prompt) as tracer:
    for layer in model.transformer.h:
        hidden = layer.output[0]
        logits = model.lm_head(model.transformer.ln_f(hidden))
        probs_per_layer.append(logits[0, -1].softmax(dim=-1).save())

for index, probs in enumerate(probs_per_layer):
    top = probs.argmax().item()
    print(f"layer {index:2d}  p(Paris)={probs[answer_id].item():.3f}  "
          f"top={model.tokenizer.decode(top)!r}")
