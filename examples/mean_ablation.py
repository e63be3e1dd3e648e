"""Mean ablation: replace the attention output of one block at the last
position with its mean over a reference set of prompts.

Zero is far outside the distribution a block normally sees, so mean
ablation is the gentler baseline. The reference prompts have the same
number of tokens, so no padding enters the mean.
"""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
LAYER = 9
REFERENCE = [
    "The cat sat on the warm mat",
    "A dog ran across the green park",
    "My friend drove to the old town",
    "The bird flew over the tall tree",
]
prompt = "When Mary and John went to the store, John gave a drink to"

with model.trace(REFERENCE) as tracer:
    attn = model.transformer.h[LAYER].attn.output[0]
    mean_attn = attn.mean(dim=(0, 1)).save()

with model.trace(prompt) as tracer:
    clean_logits = model.lm_head.output[0, -1].save()

with model.trace(prompt) as tracer:
    model.transformer.h[LAYER].attn.output[0][:, -1, :] = mean_attn
    ablated_logits = model.lm_head.output[0, -1].save()

shift = (clean_logits - ablated_logits).abs().max().item()
print(f"largest logit change after mean-ablating attn {LAYER}: {shift:.3f}")
