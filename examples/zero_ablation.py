"""Zero ablation: knock out the MLP of each early GPT-2 block in turn and
measure how much the probability of the correct answer drops."""
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
prompt = "The Colosseum is located in the city of"
answer_id = model.tokenizer.encode(" Rome")[0]
LAYERS = [0, 1, 2, 3, 4, 5]

with model.trace(prompt) as tracer:
    baseline = model.lm_head.output[0, -1].softmax(dim=-1)[answer_id].save()

drops = {}
for layer in LAYERS:
    with model.trace(prompt) as tracer:
        # Every position, every hidden unit of this block's MLP is set to zero.
        model.transformer.h[layer].mlp.output[:] = 0
        ablated = model.lm_head.output[0, -1].softmax(dim=-1)[answer_id].save()
    drops[layer] = baseline.item() - ablated.item()

for layer, drop in drops.items():
    print(f"MLP {layer}: p(Rome) drops by {drop:+.4f}")
