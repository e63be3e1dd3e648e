# Look-alike: local names that contain the words the escape checks look for
# (gi_frame, f_back, tb_next, help, exit, open, input) but are just
# variables. Only attributes and builtins with those names matter.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Names") as tracer:
    gi_frame_count = 3
    f_back_steps = 2
    tb_next_layer = 5
    help_text = "layer sweep"
    exit_layer = 11
    open_positions = [0, 1, 2]
    input_ids_len = 4
    hidden = model.transformer.h[tb_next_layer].output[0][:, open_positions].save()
