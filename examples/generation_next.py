"""Read the first three generation steps one by one (nnsight 0.4 style).

`.next()` moves a module's envoy to its next call, so the three reads below
see three successive forward passes. `tracer.all()` applies the clamp to
every step of the generation.
"""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")

with model.generate("Once upon a time", max_new_tokens=3) as tracer:
    first = model.lm_head.output[0, -1].argmax(dim=-1).save()
    second = model.lm_head.next().output[0, -1].argmax(dim=-1).save()
    third = model.lm_head.next().output[0, -1].argmax(dim=-1).save()
    with tracer.all():
        model.transformer.h[11].output[0][:] = model.transformer.h[11].output[0].clamp(-50, 50)

for name, token in [("first", first), ("second", second), ("third", third)]:
    print(f"{name}: {model.tokenizer.decode(token)!r}")
