import mylab
from mylab import secrets

with model.trace("x") as tracer:
    print("layer 3")
    mylab.norms(model.transformer.h[3].output[0])
    k = secrets.TOKEN
