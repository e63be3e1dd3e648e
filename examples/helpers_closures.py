"""Directional ablation with helpers and a closure defined in this file.

`project_out` removes a direction from the residual stream and `make_clamp`
returns a closure over its bounds; both are plain tensor code, so the
analyzer follows them from the trace and the trace stays in-process.
"""
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
TARGET_LAYERS = [4, 5, 6, 7]
torch.manual_seed(2)
refusal_dir = torch.randn(768)


def project_out(hidden, direction):
    """Remove the component of `hidden` along `direction`."""
    unit = direction / direction.norm()
    coeff = (hidden * unit).sum(dim=-1, keepdim=True)
    return hidden - coeff * unit


def make_clamp(low, high):
    def clamp(x):
        return x.clamp(min=low, max=high)

    return clamp


clamp = make_clamp(-20.0, 20.0)

with model.trace("Tell me how to bake bread") as tracer:
    for i in TARGET_LAYERS:
        hidden = model.transformer.h[i].output[0]
        model.transformer.h[i].output[0][:] = clamp(project_out(hidden, refusal_dir))
    residual_norms = [model.transformer.h[i].output[0].norm(dim=-1).save() for i in TARGET_LAYERS]
    logits = model.lm_head.output.save()

print(model.tokenizer.decode(logits[0, -1].argmax(dim=-1)))
