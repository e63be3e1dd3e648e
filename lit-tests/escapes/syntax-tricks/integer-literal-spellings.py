# Python spells integers as 0o12, 0b1010, 0x0a and 1_0; ivc reads each as
# Python does wherever it evaluates one. Read as C reads them (0o12 as 0),
# an index picked the wrong item of a display and chr() the wrong character,
# and a format string spelled `__globals__` passed as harmless.
# Known from: a red team of ivc's classifier (2026-11-27).
# RUN: %ivc check --verify %s
import nnsight
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
F = torch.nn.functional

with model.trace("The Eiffel Tower is in"):
    x = torch.full((1, 1, 1, 1), -2**63, dtype=torch.long)
    pools = [F.max_pool2d, F.max_pool2d, F.avg_pool2d]
    y = pools[0b10](x, 1, divisor_override=-1)  # expected-remark {{uses 'torch.nn.functional.avg_pool2d(divisor_override=...)' (integer-division)}}
    z = pools[0x_2](x, 1, divisor_override=-1)  # expected-remark {{uses 'torch.nn.functional.avg_pool2d(divisor_override=...)' (integer-division)}}

with model.trace("The Eiffel Tower is in"):
    u = chr(0o137)
    fmt = "{0." + u + u + "globals" + u + u + "[torch].os.environ}"
    env = nnsight.save(fmt.format(F.relu))  # expected-error {{'__globals__'}}
