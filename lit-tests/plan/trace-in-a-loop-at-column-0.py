# A trace in a loop runs again after what follows it, however its `with`
# line starts: here a backslash line puts it at column 0 of its physical
# line, inside the loop. The list the loop fills is the caller's.
# RUN: %ivc plan %s | FileCheck %s
import torch

FILLED = []
for i in range(2):
    \
with model.trace("hi"):
        n = torch.tensor(len(FILLED)).save()
    FILLED.append(1)

# CHECK:      "free_names": [
# CHECK-NEXT:   "FILLED",
