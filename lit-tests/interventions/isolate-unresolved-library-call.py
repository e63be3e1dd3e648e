# A call into a library outside the catalogue (transformers), made inside the
# trace: allowed module, unknown effects, so ISOLATE.
# Expected: ISOLATE, no differentiation.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{fast|reject}}"
# CHECK: "tier": "isolate"
# CHECK-NOT: "tier": "{{fast|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
from transformers import AutoTokenizer

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Tokenizers") as tracer:
    tok = AutoTokenizer.from_pretrained("openai-community/gpt2")
    answer = tok.encode(" Paris")[0]
    prob = model.lm_head.output[0, -1].softmax(dim=-1)[answer].save()
