"""Steer free-running generation for its first few tokens.

`model.generate` runs the model once per new token; `tracer.iter[...]`
selects which of those steps the loop body runs for. Here a direction is
added for the first five steps only, and the logits of every step are kept
for inspection. The loop is bounded, so the code after it still runs.
"""
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
LAYER = 8
SCALE = 6.0
torch.manual_seed(1)
direction = torch.randn(768)
direction = direction / direction.norm()

step_logits = []
with model.generate("I think the movie was", max_new_tokens=12, do_sample=False) as tracer:
    for step in tracer.iter[0:12]:
        if step < 5:
            model.transformer.h[LAYER].output[0][:, -1, :] += SCALE * direction
        step_logits.append(model.lm_head.output[0, -1].save())
    tokens = model.generator.output.save()

print(model.tokenizer.decode(tokens[0]))
print(f"kept logits for {len(step_logits)} steps")
