# IVC406: a trace on the model an edit() block bound sees none of its
# edits (ivc runs every trace on its own); a trace on the model itself, and
# a name bound otherwise, are fine.
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.edit() as ablated:
    model.transformer.h[1].mlp.output[:] = 0

with ablated.trace("The Eiffel Tower is in"):  # expected-warning {{Trace body runs on 'ablated', which 'edit()' made at line 9; ivc runs every trace on the model as it is, so those edits do not apply here}}
    a = ablated.lm_head.output.save()

with model.trace("The Eiffel Tower is in"):
    b = model.lm_head.output.save()

other = LanguageModel("openai-community/gpt2")
with other.trace("The Eiffel Tower is in"):
    c = other.lm_head.output.save()
