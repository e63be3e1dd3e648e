"""Add a steering vector to the residual stream of GPT-2 at layer 6.

The vector here is random, which is enough to see the mechanics; in practice
it would be a contrastive direction (see session_direction.py).
"""
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
torch.manual_seed(0)
steering = torch.randn(768) * 4.0


def add_direction(hidden, direction, scale):
    return hidden + scale * direction


with model.trace("The weather today is") as tracer:
    hidden = model.transformer.h[6].output[0]
    model.transformer.h[6].output[0][:] = add_direction(hidden, steering, 0.5)
    logits = model.lm_head.output.save()

print(model.tokenizer.decode(logits[0, -1].argmax(dim=-1)))
