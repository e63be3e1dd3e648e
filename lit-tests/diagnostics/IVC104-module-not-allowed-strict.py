# IVC104 under the strict policy, which lists fewer safe modules than ndif:
# json, re and random are not allowed; torch, math, einops are.
# RUN: %ivc check --verify --policy strict %s
import json
import math
import random
import re
import torch

with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[5].output[0]
    record = json.dumps([1.0])  # expected-error {{Trace body uses module 'json', which policy 'strict' neither lists as safe nor allows to be imported}}
    pattern = re.compile("[a-z]+")  # expected-error {{uses module 're', which policy 'strict'}}
    seed = random.random()  # expected-error {{uses module 'random'}}

    # Allowed under strict.
    scaled = (hidden / math.sqrt(hidden.shape[-1])).save()
    probs = torch.softmax(scaled, dim=-1).save()
