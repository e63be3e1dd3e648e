"""Logit lens: decode every layer's residual stream through the unembedding."""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
prompt = "The Eiffel Tower is in the city of"

probs_per_layer = []
with model.trace(prompt) as tracer:
    for layer in model.transformer.h:
        hidden = layer.output[0]
        logits = model.lm_head(model.transformer.ln_f(hidden))
        probs_per_layer.append(logits.softmax(dim=-1).save())
