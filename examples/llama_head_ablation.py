"""Ablate single attention heads of a Llama model.

The input of `self_attn.o_proj` is the concatenation of every head's
output, so zeroing one slice of it removes exactly one head. We sweep the
heads of one layer and record the log-probability of the answer.
"""
import torch
from nnsight import LanguageModel

model = LanguageModel("meta-llama/Llama-3.2-1B", device_map="auto", torch_dtype=torch.bfloat16)
LAYER = 10
N_HEADS = model.config.num_attention_heads
HEAD_DIM = model.config.hidden_size // N_HEADS
prompt = "The Great Wall is located in the country of"
answer_id = model.tokenizer.encode(" China", add_special_tokens=False)[0]

scores = []
for head in range(N_HEADS):
    start, stop = head * HEAD_DIM, (head + 1) * HEAD_DIM
    with model.trace(prompt) as tracer:
        model.model.layers[LAYER].self_attn.o_proj.input[:, :, start:stop] = 0
        logprobs = model.lm_head.output[0, -1].log_softmax(dim=-1)
        scores.append(logprobs[answer_id].save())

worst = min(range(N_HEADS), key=lambda h: scores[h].item())
print(f"head {LAYER}.{worst} matters most: logp={scores[worst].item():.3f}")
