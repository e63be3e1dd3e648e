# IVC313: a trace in a function is FAST on what the runtime checks of the
# caller's values: the fewest and weakest guards that make it so, a small
# number where a size needs one, no sequence where a product does. Names
# the file binds to what no number is (a config instance), a guard could
# never hold, and a division by the caller's number may still trap.
# RUN: %ivc check --verify --remarks %s
# RUN: %ivc plan %s | FileCheck %s
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class Config:  # expected-remark {{Trace body uses class 'Config'}}
    layer = 3


cfg = Config()


# CHECK:      "guards": {
# CHECK-NEXT:   "coeff": {
# CHECK-NEXT:     "kind": "number_or_tensor"
# CHECK-NEXT:   },
# CHECK-NEXT:   "k": {
# CHECK-NEXT:     "kind": "number",
# CHECK-NEXT:     "most": 65536
# CHECK-NEXT:   },
# CHECK-NEXT:   "vec": {
# CHECK-NEXT:     "kind": "number_or_tensor"
# CHECK-NEXT:   }
# CHECK-NEXT: },
# CHECK:      "tier": "fast"
def steer(prompt, k, coeff, vec, layer):
    with model.trace(prompt):  # expected-remark {{Trace body runs FAST when the caller gives 'k' an int or a float of at most 65536, and 'coeff', 'vec' an int, a float or a tensor; a runtime checks, and runs it ISOLATE otherwise (for the reasons below)}}
        h = model.transformer.h[layer].output[0]
        model.transformer.h[layer].output[0][:] = h + coeff * vec  # expected-remark {{'coeff * vec' repeats what may be the caller's sequence a number ivc cannot bound times}} expected-remark {{updates the output of 'transformer.h.*' in place}}
        top = torch.zeros(k, 2).save()  # expected-remark {{'torch.zeros(k, 2)' allocates a tensor of a size ivc cannot bound}}


# Two numbers multiplied: each at most 4096.
# CHECK:      "guards": {
# CHECK-NEXT:   "n_layers": {
# CHECK-NEXT:     "kind": "number",
# CHECK-NEXT:     "most": 4096
# CHECK-NEXT:   },
# CHECK-NEXT:   "seq": {
# CHECK-NEXT:     "kind": "number",
# CHECK-NEXT:     "most": 4096
# CHECK-NEXT:   }
# CHECK-NEXT: },
def heat(prompt, n_layers, seq):
    with model.trace(prompt):  # expected-remark {{runs FAST when the caller gives 'n_layers', 'seq' an int or a float of at most 4096}}
        grid = torch.zeros(n_layers, seq).save()  # expected-remark {{allocates a tensor of a size ivc cannot bound}}


# A size from the caller's tensor's shape: the tensor is small, whatever
# the file binds it to (a 2^20 by 0 tensor would make `eye` 4 TiB). One
# from its contents is no shape a guard bounds.
concept = torch.randn(768)


# CHECK:      "guards": {
# CHECK-NEXT:   "v": {
# CHECK-NEXT:     "kind": "tensor",
# CHECK-NEXT:     "most": 4096
# CHECK-NEXT:   }
# CHECK-NEXT: },
# CHECK:      "tier": "fast"
# CHECK:      "guards": {
# CHECK-NEXT:   "concept": {
# CHECK-NEXT:     "kind": "tensor",
# CHECK-NEXT:     "most": 65536
# CHECK-NEXT:   }
# CHECK-NEXT: },
# CHECK:      "tier": "fast"
# CHECK:      "guards": {},
# CHECK:      "tier": "isolate"
def reflect(prompt, v):
    with model.trace(prompt):  # expected-remark {{runs FAST when the caller gives 'v' a tensor of at most 4096 elements (an empty dimension as 1)}}
        h = model.transformer.h[6].output[0]
        H = torch.eye(v.shape[0]) - 2 * torch.outer(v, v)  # expected-remark {{'torch.eye(v.shape[0])' allocates a tensor of a size ivc cannot bound}} expected-remark {{'torch.outer(v, v)' makes a tensor of 281474976710656 elements}}
        model.transformer.h[6].output[0][:] = h @ H  # expected-remark {{updates the output of 'transformer.h.6' in place}}
    with model.trace(prompt):  # expected-remark {{runs FAST when the caller gives 'concept' a tensor of at most 65536 elements (an empty dimension as 1)}}
        pad = torch.zeros(concept.shape[0], 2).save()  # expected-remark {{allocates a tensor of a size ivc cannot bound}}
    with model.trace(prompt):
        n = torch.zeros(int(v[0])).save()  # expected-remark {{allocates a tensor of a size ivc cannot bound}}


# No guard: cfg is the file's instance, and -1 traps a division.
# CHECK:      "guards": {},
# CHECK:      "tier": "isolate"
# CHECK:      "guards": {},
# CHECK:      "tier": "isolate"
def unguarded(prompt, n):
    with model.trace(prompt):
        x = "-" * cfg.layer  # expected-remark {{'"-" * cfg.layer' repeats a sequence a number of times ivc cannot bound}}
    with model.trace(prompt):
        q = torch.full((1,), -(2**63)) // n  # expected-remark {{integer-division: the minimum by -1 traps}}


# Names bound to attributes of what ivc cannot type (a parsed command line)
# are the caller's too, and guarded the same way.
# CHECK:      "guards": {
# CHECK-NEXT:   "HEAD": {
# CHECK-NEXT:     "kind": "number_or_tensor"
# CHECK-NEXT:   }
# CHECK-NEXT: },
# CHECK:      "tier": "fast"
LAYER, HEAD = args.layer, args.head
with model.trace("x"):  # expected-remark {{runs FAST when the caller gives 'HEAD' an int, a float or a tensor}}
    model.transformer.h[LAYER].attn.c_proj.input[:, :, HEAD * 64:(HEAD + 1) * 64] = 0  # expected-remark {{'HEAD * 64' repeats what may be the caller's sequence 64 times}} expected-remark {{updates the input of 'transformer.h.*.attn.c_proj' in place}}


# A product of the caller's tensors (an outer product makes n^2 of n) is
# guarded the same way, though nothing reads the tensor's shape.
# CHECK:      "guards": {
# CHECK-NEXT:   "u": {
# CHECK-NEXT:     "kind": "tensor",
# CHECK-NEXT:     "most": 4096
# CHECK-NEXT:   }
# CHECK-NEXT: },
def gram(prompt, u):
    with model.trace(prompt):  # expected-remark {{runs FAST when the caller gives 'u' a tensor of at most 4096 elements}}
        g = torch.outer(u, u).save()  # expected-remark {{'torch.outer(u, u)' makes a tensor of 281474976710656 elements from its operands}}


# A name the file binds nowhere is the caller's alone, guarded the same way.
# CHECK:      "guards": {
# CHECK-NEXT:   "steering_vector": {
# CHECK-NEXT:     "kind": "number_or_tensor"
# CHECK-NEXT:   }
# CHECK-NEXT: },
with model.trace("x"):  # expected-remark {{runs FAST when the caller gives 'steering_vector' an int, a float or a tensor}}
    scale = model.transformer.h[0].output[0].norm().item()
    model.transformer.h[1].output[0][:, -1] += scale * steering_vector  # expected-remark {{'scale * steering_vector' repeats what may be the caller's sequence a number ivc cannot bound times}} expected-remark {{updates the output of 'transformer.h.1' in place}}
