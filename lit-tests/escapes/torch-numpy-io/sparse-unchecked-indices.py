# Since torch 2.0 the sparse constructors skip their index checks unless
# asked (check_invariants), so to_dense() of an out-of-range index writes
# past the tensor's memory in the server process: raw-memory, not FAST.
# Known from: PyTorch issues on unchecked sparse invariants.
# RUN: %ivc check --verify %s
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Sparse"):
    bad = torch.sparse_coo_tensor(torch.tensor([[1 << 40]]), torch.tensor([1.0]), (4,))  # expected-remark {{'torch.sparse_coo_tensor' (raw-memory)}}
    dense = bad.to_dense()
