"""Find a contrastive direction and steer with it, all in one session.

A session groups several traces so that values computed in one (here the
mean residual of positive and negative prompts) can be used by the next
without leaving the server.
"""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
LAYER = 6
positive = ["I love this", "What a wonderful day", "This is great"]
negative = ["I hate this", "What a terrible day", "This is awful"]

with model.session() as session:
    with model.trace(positive) as tracer:
        pos_mean = model.transformer.h[LAYER].output[0][:, -1, :].mean(dim=0)

    with model.trace(negative) as tracer:
        neg_mean = model.transformer.h[LAYER].output[0][:, -1, :].mean(dim=0)

    direction = pos_mean - neg_mean
    direction = direction / direction.norm()

    with model.trace("The food at the restaurant was") as tracer:
        model.transformer.h[LAYER].output[0][:, -1, :] += 8.0 * direction
        steered = model.lm_head.output[0, -1].argmax(dim=-1).save()

    saved_direction = direction.save()

print(model.tokenizer.decode(steered), saved_direction.norm().item())
