# A line indented with tabs and spaces mixed is read as the parser reads it
# (a tab is 8 columns), and the plan spells its indentation in spaces: the
# runtime must run the structure the analyzer checked. Here `t = 7` is in
# f's body (column 12), so `t` stays the activation and its power is an
# elementwise one; read as one blank, the tab would put `t = 7` in the body
# and make the power an integer of 56 million bits.
# RUN: %ivc plan %s | FileCheck %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("hi"):
    t = model.transformer.h[0].output[0]

    def f():
        pass
	    t = 7
    y = (t ** 20000000).save()

# CHECK: "source": "t = model.transformer.h[0].output[0]\n\ndef f():\n    pass\n        t = 7\ny = (t ** 20000000).save()\n"
# CHECK: "tier": "fast"
