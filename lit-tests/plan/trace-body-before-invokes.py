# nnsight runs a trace's body up to its first invoke before the invokes,
# and they see what it binds: a constant bound there is pinned for the
# invokes that read it, as one bound before the trace is. A list or dict
# made empty there (or before the trace) is marked `starts_empty`: each
# invoke fills a copy, and a runtime joins the copies the invokes save.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc check --verify %s
import nnsight
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
per_prompt = {}

with model.trace() as tracer:
    acts = nnsight.list().save()
    scale = 3
    with tracer.invoke("The Eiffel Tower is in"):
        acts.append(model.transformer.h[0].output[0].save())
        per_prompt["a"] = (model.transformer.h[1].output[0] * scale).save()
    with tracer.invoke("The Colosseum is in"):
        acts.append(model.transformer.h[0].output[0].save())
    late = 1

# CHECK:      "definitions": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "per_prompt",
# CHECK-NEXT:     "source": "per_prompt = ({})\n",
# CHECK-NEXT:     "starts_empty": true
# CHECK-NEXT:   },
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "acts",
# CHECK-NEXT:     "source": "acts = (nnsight.list().save())\n",
# CHECK-NEXT:     "starts_empty": true
# CHECK-NEXT:   },
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "scale",
# CHECK-NEXT:     "source": "scale = (3)\n"
# CHECK-NEXT:   }
# CHECK-NEXT: ],
# CHECK:      "free_names": [
# CHECK-NEXT:   "nnsight"
# CHECK-NEXT: ],
# CHECK:      "kind": "invoke",
# CHECK:      "name": "acts",
# CHECK:      "kind": "invoke",
# CHECK:      "kind": "body",
