# IVC402: torch.save and numpy.save are functions of their modules, not
# nnsight's .save() on a value; calling them saves nothing across the
# boundary and must not be reported as saving the module. (They are IVC307
# remarks, io.)
# RUN: %ivc check --verify %s
import numpy as np
import torch

with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[5].output[0]
    torch.save(hidden, "layer5.pt")
    np.save("layer5.npy", hidden.detach().cpu())
