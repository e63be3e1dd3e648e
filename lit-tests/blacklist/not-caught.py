# Look-alikes that are not references to anything prohibited: names that
# contain a module's name, a local variable called like one, the words in
# comments and strings, an attribute named like a module of an allowed value.
# RUN: %ivc check --verify %s
# expected-no-diagnostics
import torch

with model.trace("The Eiffel Tower is in") as tracer:
    os_count = 3  # os, subprocess and eval in a comment are just words
    label = "import os; eval('x')"
    sys_prompt = model.transformer.h[0].output[0].mean().save()
    signal = model.transformer.h[1].output[0][:, -1]
    io_norm = signal.norm().save()
