"""Writes a file of N small traces (a notebook export's shape) to argv[2]."""
import sys

count, path = int(sys.argv[1]), sys.argv[2]
lines = ["from nnsight import LanguageModel", "model = LanguageModel('gpt2')"]
for i in range(count):
    lines += [
        f"with model.trace('prompt {i}'):",
        f"    h = model.transformer.h[{i % 12}].output[0]",
        f"    model.transformer.h[{i % 12}].output[0][:] = h * 2",
        "    out = model.lm_head.output.save()",
    ]
with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
