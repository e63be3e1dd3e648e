# NFKC applies to imported module names as well: `import ｏｓ` imports os.
# Known from: pyjail challenges that filter ASCII keywords; PEP 3131 specifies
# the NFKC folding.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Wide imports") as tracer:
    import ｏｓ

    hidden = model.transformer.h[6].output[0]
    logits = model.lm_head.output.save()
