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

with model.trace("hi"):
    u = model.transformer.h[0].output[0]

    def g():
        pass
    \
    u = 7
    z = (u ** 20000000).save()

# A line of blanks ended by a backslash: the parser adds its blanks to the
# next line's (u = 7 is g's), Python takes the first line's; the plan drops
# the backslash and gives the next line the sum.
# CHECK: "source": "t = model.transformer.h[0].output[0]\n\ndef f():\n    pass\n        t = 7\ny = (t ** 20000000).save()\n"
# CHECK: "tier": "fast"
# CHECK: "source": "u = model.transformer.h[0].output[0]\n\ndef g():\n    pass\n\n    u = 7\nz = (u ** 20000000).save()\n"
# CHECK: "tier": "fast"
