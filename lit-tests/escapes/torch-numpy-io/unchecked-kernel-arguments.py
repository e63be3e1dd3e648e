# Catalogued kernels that trust their arguments, and arguments that make a
# safe function unsafe, are IVC307: each crashed the server or read memory
# it does not own from a FAST mediator (torch 1.13 on CPU):
# native_channel_shuffle(h, 0) divides by zero, ldl_solve reads and writes
# past its operand at an unchecked pivot, searchsorted(sorter=...) indexes
# unchecked, a sparse gradient's indices alias what to_dense() trusts, and
# a numpy ufunc with where= and no out= returns memory it never wrote.
# Known from: a red team of ivc's classifier (2026-11-25).
# RUN: %ivc check --verify %s
import numpy as np
import torch
import torch.nn.functional as F
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("kernels that trust their arguments"):
    h = model.lm_head.output
    shuffled = torch.native_channel_shuffle(h, 0)  # expected-remark {{uses 'torch.native_channel_shuffle' (raw-memory)}}
    x = torch.linalg.ldl_solve(torch.eye(3), torch.tensor([1 << 30, 1, 1]), torch.ones(3, 1))  # expected-remark {{uses 'torch.linalg.ldl_solve' (raw-memory)}}

with model.trace("the kernels behind modules and quantization, called directly"):
    C = 65536
    mem = torch.native_batch_norm(torch.zeros(1, C, 1), None, torch.zeros(64), torch.zeros(C), torch.ones(C), False, 0.1, 0.0)  # expected-remark {{uses 'torch.native_batch_norm' (raw-memory)}}
    stats = torch.batch_norm_update_stats(torch.ones(2, 8), torch.zeros(1), torch.ones(1), 1.0)  # expected-remark {{uses 'torch.batch_norm_update_stats' (raw-memory)}}
    lp = torch.randn(5, 1, 4).log_softmax(2)
    loss = torch.ctc_loss(lp, torch.tensor([[1, 2, 1 << 40]]), [5], [3])  # expected-remark {{uses 'torch.ctc_loss' (raw-memory)}}
    q = torch.quantize_per_tensor(torch.randn(2, 3, 4), 0.1, 0, torch.quint8)  # expected-remark {{uses 'torch.quantize_per_tensor' (raw-memory)}}
    bag = torch.embedding_bag(torch.randn(3, 3), torch.tensor([0, 1]), torch.tensor([0]), False, 5, False, None, False)  # expected-remark {{uses 'torch.embedding_bag' (raw-memory)}}
    up = F.max_unpool2d(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 2, 2).long(), [])  # expected-remark {{uses 'torch.nn.functional.max_unpool2d' (raw-memory)}}

with model.trace("named dimensions, unchecked weights and factors"):
    x = torch.randn(2, 3)
    f1 = x.flatten(0, 5, "x")  # expected-remark {{uses 'torch.Tensor.flatten(out_dim=...)' (raw-memory)}}
    f2 = torch.concat([], "x")  # expected-remark {{uses 'torch.concat(dim=...)' (raw-memory)}}
    f3 = torch.gradient(x, spacing=[torch.tensor([1.0, 2.0])])  # expected-remark {{uses 'torch.gradient(spacing=...)' (raw-memory)}}
    f4 = F.multi_margin_loss(torch.zeros(8, 8), torch.arange(8), weight=torch.zeros(1))  # expected-remark {{uses 'torch.nn.functional.multi_margin_loss(weight=...)' (raw-memory)}}
    f5 = torch.pixel_shuffle(torch.randn(2, 3, 4), 1 << 32)  # expected-remark {{uses 'torch.pixel_shuffle(upscale_factor=...)' (raw-memory)}}
    f6 = F.fractional_max_pool2d(torch.randn(1, 4, 8, 8), 2, output_size=4, _random_samples=torch.rand(0))  # expected-remark {{uses 'torch.nn.functional.fractional_max_pool2d(_random_samples=...)' (raw-memory)}}
    f7 = F.embedding_bag(torch.tensor([[0, 1, 2]]), torch.randn(5, 3), include_last_offset=True, mode="max")  # expected-remark {{uses 'torch.nn.functional.embedding_bag(include_last_offset=...)' (raw-memory)}}
    f8 = F.conv1d(torch.randn(1, 4, 5), torch.randn(4, 1, 1), groups=1 << 32)  # expected-remark {{uses 'torch.nn.functional.conv1d(groups=...)' (raw-memory)}}
    f9 = F.max_pool1d(torch.randn(1, 2, 3), 1 << 40)  # expected-remark {{uses 'torch.nn.functional.max_pool1d(kernel_size=...)' (raw-memory)}}

with model.trace("arguments that make a function unsafe"):
    s = torch.arange(1024.0)
    found = torch.searchsorted(s, s, sorter=torch.full((1024,), 1 << 40))  # expected-remark {{uses 'torch.searchsorted(sorter=...)' (raw-memory)}}
    again = torch.zeros(10, 4).gather(0, torch.zeros(1, 4).long(), sparse_grad=True)  # expected-remark {{uses 'torch.Tensor.gather(sparse_grad=...)' (raw-memory)}}
    w = torch.zeros(10, 4)
    e = F.embedding(torch.tensor([1]), w, sparse=True)  # expected-remark {{uses 'torch.nn.functional.embedding(sparse=...)' (raw-memory)}}
    g = torch.gather(w, 0, torch.zeros(1, 4).long(), sparse_grad=True)  # expected-remark {{uses 'torch.gather(sparse_grad=...)' (raw-memory)}}
    z = torch.zeros(4, 4, layout=torch.sparse_csr)  # expected-remark {{uses 'torch.zeros(layout=...)' (raw-memory)}}
    u = np.add(np.float32(0), np.float32(0), where=np.zeros(64, bool))  # expected-remark {{uses 'numpy.add(where=...) without out=' (uninitialized-memory)}}

with model.trace("numpy: C ints negated, fixed buffers, samplers that never return"):
    r1 = np.round(np.ones(3), -2**31)  # expected-remark {{uses 'numpy.round(decimals=...)' (raw-memory)}}
    r2 = np.ones(3).round(-2**31)  # expected-remark {{uses 'torch.Tensor.round(decimals=...)' (raw-memory)}}
    r3 = round(np.float64(1.5), -2**31)  # expected-remark {{uses 'round(ndigits=...)' (raw-memory)}}
    t1 = np.trace(np.ones((2, 2)), -2**31)  # expected-remark {{uses 'numpy.trace(offset=...)' (raw-memory)}}
    p1 = np.format_float_positional(1.0, pad_left=2**16)  # expected-remark {{uses 'numpy.format_float_positional' (raw-memory)}}
    v1 = np.random.vonmises(0.0, 1e20)  # expected-remark {{uses 'numpy.random.vonmises' (no-return)}}
    z1 = np.random.zipf(1e20)  # expected-remark {{uses 'numpy.random.zipf' (no-return)}}

with model.trace("torch: pools that divide, raw kernels, samplers that never return"):
    a1 = F.avg_pool2d(torch.tensor([[[[-2**63]]]]), 1, divisor_override=-1)  # expected-remark {{uses 'torch.nn.functional.avg_pool2d(divisor_override=...)' (integer-division)}}
    g1 = torch.grid_sampler(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 1, 2), 7, 0, False)  # expected-remark {{uses 'torch.grid_sampler' (uninitialized-memory)}}
    b1 = torch.binomial(torch.tensor([float("nan")]), torch.tensor([0.5]))  # expected-remark {{uses 'torch.binomial' (no-return)}}
    d1 = torch.histogramdd(torch.ones(2, 3), bins=[])  # expected-remark {{uses 'torch.histogramdd(bins=...)' (raw-memory)}}
    s1 = torch.ones(2, 3).sum_to_size(-2**63)  # expected-remark {{uses 'torch.Tensor.sum_to_size' (raw-memory)}}
    c1 = torch.convolution(torch.ones(1, 1, 4, 4), torch.ones(1, 1, 4, 4), None, [1, 1], (1, 2**63 - 1), [1, 1], False, [0, 0], 1)  # expected-remark {{uses 'torch.convolution' (raw-memory)}}
    r1 = torch.lstm_cell(torch.ones(1, 4), (torch.zeros(1, 3), torch.zeros(1, 3)), torch.ones(1, 4), torch.ones(1, 3))  # expected-remark {{uses 'torch.lstm_cell' (raw-memory)}}
    r2 = torch.gru(torch.ones(5, 1, 4), torch.zeros(1, 1, 3), [torch.ones(1, 4), torch.ones(1, 3)], False, 1, 0.0, False, False, False)  # expected-remark {{uses 'torch.gru' (raw-memory)}}
    r3 = torch.lu_unpack(torch.ones(2, 2), torch.ones(1000, 2, dtype=torch.int32))  # expected-remark {{uses 'torch.lu_unpack' (raw-memory)}}
    p1 = F.max_pool1d(torch.ones(1, 4, 8), 3, dilation=2**62)  # expected-remark {{uses 'torch.nn.functional.max_pool1d(dilation=...)' (raw-memory)}}
    p2 = torch.max_pool2d(torch.ones(1, 1, 8, 8), 2, 2**40)  # expected-remark {{uses 'torch.max_pool2d(stride=...)' (raw-memory)}}
    e1 = F.embedding_bag(torch.tensor([1, 2]), torch.ones(5, 3), torch.tensor([], dtype=torch.long), mode="mean", padding_idx=2)  # expected-remark {{uses 'torch.nn.functional.embedding_bag(padding_idx=...)' (raw-memory)}}
    f1 = F.fold(torch.ones(1, 4, 4), output_size=(4, 4), kernel_size=2**32)  # expected-remark {{uses 'torch.nn.functional.fold(kernel_size=...)' (raw-memory)}}
    d2 = torch.histogramdd(torch.ones(4, 4), bins=[3, 3])  # expected-remark {{uses 'torch.histogramdd(bins=...)' (raw-memory)}}
    # expected-remark@+1 {{asks for padding of over 10^18}}
    c2 = F.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2), padding=2**63 - 1)  # expected-remark {{uses 'torch.nn.functional.conv1d(padding=...)' (raw-memory)}}
    # expected-remark@+1 {{asks for padding of over 10^18}}
    c3 = torch.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2), padding=2**63 - 1)  # expected-remark {{uses 'torch.conv1d(padding=...)' (raw-memory)}}
    c4 = torch.conv2d(torch.ones(1, 2, 4, 4), torch.ones(1, 2, 4, 4), groups=2**32)  # expected-remark {{uses 'torch.conv2d(groups=...)' (raw-memory)}}
    e2 = F.embedding_bag(torch.tensor([1]), torch.ones(5, 3), torch.tensor([], dtype=torch.long), mode="max")  # expected-remark {{uses 'torch.nn.functional.embedding_bag(mode=...)' (raw-memory)}}
    m2 = torch.median(torch.ones(1, 768).expand(2**16, 768), dim=0)  # expected-remark {{uses 'torch.median(dim=...)' (raw-memory)}}
    t2 = torch.fft.fftn(torch.ones(4, 4), dim=[])  # expected-remark {{uses 'torch.fft.fftn(dim=...)' (uninitialized-memory)}}

with model.trace("their safe forms stay FAST"):
    h = model.lm_head.output
    s = torch.arange(1024.0)
    found = torch.searchsorted(s, s) + torch.searchsorted(s, s, sorter=None)
    w = torch.zeros(10, 4)
    e = F.embedding(torch.tensor([1]), w, sparse=False) + torch.zeros(1, 4, layout=torch.strided)
    out = np.zeros(64)
    u = np.add(out, 1.0, out=out, where=out > 0)
    x = torch.randn(2, 3)
    safe = x.flatten(0, 1) + torch.cat([x, x], 0).sum() + torch.gradient(x)[0] + torch.pixel_shuffle(torch.randn(1, 4, 2, 2), 2).sum()
    folded = F.fold(torch.ones(1, 4, 4), output_size=(4, 4), kernel_size=(2, 2)).sum() + F.unfold(torch.ones(1, 1, 4, 4), 2).sum()
    binned = torch.histogramdd(torch.ones(4, 2), 4)[0].sum() + torch.fft.fftn(torch.ones(2, 2), dim=(0, 1)).abs().sum() + torch.ones(3, 2).median()
    padded = F.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2), padding="same").sum() + F.conv2d(torch.ones(1, 1, 4, 4), torch.ones(1, 1, 2, 2), padding=(1, 1)).sum()
    pooled = F.avg_pool2d(torch.ones(1, 1, 2, 2), 1, divisor_override=2) + F.avg_pool2d(torch.ones(1, 1, 2, 2), 1, divisor_override=None)
    rounded = np.round(np.ones(3), -2) + np.ones(3).round(2) + round(1.2345, 2) + np.trace(np.ones((2, 2)), 1) + torch.ones(2, 2).trace()
    convolved = F.conv1d(torch.randn(1, 4, 5), torch.randn(4, 1, 1), groups=4).sum() + F.max_pool1d(torch.randn(1, 2, 4), 2).sum()
    pooled2 = F.max_pool2d(torch.randn(1, 1, 4, 4), (2, 2), stride=None, padding=1, dilation=1).sum()
    y = h.save()
