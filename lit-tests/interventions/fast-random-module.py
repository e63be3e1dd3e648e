# The random module's samplers are FAST: a runtime gives each mediator a
# generator of its own, seeded as torch's is, so the host's state is never
# touched. getrandbits and randbytes (one C call as large as asked) and
# seeding are not catalogued.
# RUN: %ivc check --verify --remarks %s
import random
from random import randint

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("The Eiffel Tower is in"):
    h = model.transformer.h[6].output[0]
    layer = random.randrange(12)
    positions = random.sample(range(5), 3)
    order = [0, 1, 2, 3]
    random.shuffle(order)
    noise = random.gauss(0.0, 1.0) * random.uniform(0.5, 1.5)
    picked = random.choices(order, k=2)
    h[:, randint(0, 4)] = h[:, positions].mean(1) * noise  # expected-remark {{updates the output of 'transformer.h.6' in place}}

with model.trace("The Eiffel Tower is in"):
    bits = random.getrandbits(2**33)  # expected-remark {{calls 'random.getrandbits', which is not in the op catalog}}
    random.seed(0)  # expected-remark {{calls 'random.seed', which is not in the op catalog}}
