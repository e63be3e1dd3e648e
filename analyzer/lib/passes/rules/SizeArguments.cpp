//===- SizeArguments.cpp - Sizes given to functions that are no factories -===//
//
// Some torch and numpy functions allocate what one argument asks for, not
// what their input holds: `torch.histc(h, bins=2**30)` (12.8 GB measured),
// `torch.fft.fft(h, n=2**26)`, `F.interpolate(h, scale_factor=2**18)`,
// `torch.tensor_split(h, 2**24)` (2^24 tensor objects, 10 GB),
// `np.random.bytes(2**32)`, `np.binary_repr(1, width=2**32)`,
// `random.sample(range(2**62), 2**31)`. Each is
// reported (IVC312) when ivc evaluates the argument beyond what one call
// may make in the server, or when the inputs choose it, as for factories.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

struct SizeArgument {
  std::string_view callee;  // qualified name; `torch.f` is also the method `t.f`
  std::string_view keyword; // also accepted at `position` when >= 0
  int position;
  double limit; // the most the argument (a display: its product) may be
  int dims = 1; // how many dimensions one number stands for (`padding=6000`)
};

constexpr double Elements = MaxTensorElements; // float32 elements in 1 GiB
constexpr double Wide = MaxTensorElements / 2; // 8-byte or complex64 elements
constexpr double Objects = 1 << 16;            // a tensor or array object each
constexpr double Transform = 1 << 20;          // a transform's length, for every row

constexpr SizeArgument SizeArguments[] = {
    // Exactly as many pieces as asked for, empty ones too.
    {"torch.tensor_split", "sections", 1, Objects},
    {"torch.hsplit", "sections", 1, Objects},
    {"torch.vsplit", "sections", 1, Objects},
    {"torch.dsplit", "sections", 1, Objects},
    {"torch.histc", "bins", 1, Elements},
    {"torch.bincount", "minlength", 2, Wide},
    {"torch.mvlgamma", "p", 1, 1 << 10},
    {"torch.stft", "n_fft", 1, 1 << 20},
    {"torch.special.multigammaln", "p", 1, 1 << 10},
    {"torch.histogram", "bins", 1, Wide}, // the counts and the edges
    {"torch.istft", "length", 8, Elements},
    {"torch.nn.functional.local_response_norm", "size", 1, Objects},
    {"torch.nn.functional.upsample", "size", 1, Elements},
    {"torch.nn.functional.upsample_nearest", "size", 1, Elements},
    {"torch.nn.functional.upsample_bilinear", "size", 1, Elements},
    // A scale, stride, dilation or padding grows every spatial dimension: a
    // number alone counts once for each (F.interpolate(t, scale_factor=255)
    // of a 5-D t made 4 GB; F.conv2d(h, w, padding=6000) 4.6 GB).
    {"torch.nn.functional.interpolate", "scale_factor", 2, 1 << 8, 3},
    {"torch.nn.functional.interpolate", "size", 1, Elements, 2},
    {"torch.nn.functional.upsample", "scale_factor", 2, 1 << 8, 3},
    {"torch.nn.functional.upsample_nearest", "scale_factor", 2, 1 << 8, 3},
    {"torch.nn.functional.upsample_bilinear", "scale_factor", 2, 1 << 8, 2},
    {"torch.nn.functional.conv1d", "padding", 4, 1 << 16, 1},
    {"torch.nn.functional.conv2d", "padding", 4, 1 << 16, 2},
    {"torch.nn.functional.conv3d", "padding", 4, 1 << 16, 3},
    {"torch.conv1d", "padding", 4, 1 << 16, 1},
    {"torch.conv2d", "padding", 4, 1 << 16, 2},
    {"torch.conv3d", "padding", 4, 1 << 16, 3},
    {"torch.nn.functional.conv_transpose1d", "stride", 3, 1 << 8, 1},
    {"torch.nn.functional.conv_transpose2d", "stride", 3, 1 << 8, 2},
    {"torch.nn.functional.conv_transpose3d", "stride", 3, 1 << 8, 3},
    {"torch.conv_transpose1d", "stride", 3, 1 << 8, 1},
    {"torch.conv_transpose2d", "stride", 3, 1 << 8, 2},
    {"torch.conv_transpose3d", "stride", 3, 1 << 8, 3},
    {"torch.nn.functional.conv_transpose1d", "dilation", 7, 1 << 8, 1},
    {"torch.nn.functional.conv_transpose2d", "dilation", 7, 1 << 8, 2},
    {"torch.nn.functional.conv_transpose3d", "dilation", 7, 1 << 8, 3},
    {"torch.conv_transpose1d", "dilation", 7, 1 << 8, 1},
    {"torch.conv_transpose2d", "dilation", 7, 1 << 8, 2},
    {"torch.conv_transpose3d", "dilation", 7, 1 << 8, 3},
    {"torch.nn.functional.unfold", "padding", 3, 1 << 16, 2},
    {"torch.nn.functional.fold", "output_size", 1, 1 << 24},
    {"torch.nn.functional.affine_grid", "size", 1, Elements / 2},
    {"torch.nn.functional.adaptive_avg_pool1d", "output_size", 1, Elements},
    {"torch.nn.functional.adaptive_avg_pool2d", "output_size", 1, Elements},
    {"torch.nn.functional.adaptive_avg_pool3d", "output_size", 1, Elements},
    // The maxima and their int64 indices.
    {"torch.nn.functional.adaptive_max_pool1d", "output_size", 1, Elements / 4},
    {"torch.nn.functional.adaptive_max_pool2d", "output_size", 1, Elements / 4},
    {"torch.nn.functional.adaptive_max_pool3d", "output_size", 1, Elements / 4},
    // A diagonal `offset` away makes a square that much wider.
    {"torch.diag", "diagonal", 1, 1 << 14},
    {"torch.diagflat", "offset", 1, 1 << 14},
    {"torch.diag_embed", "offset", 1, 1 << 14},
    {"torch.vander", "N", 1, Elements},
    {"torch.linalg.vander", "N", -1, Elements},
    {"torch.fft.fftfreq", "n", 0, Elements},
    {"torch.fft.rfftfreq", "n", 0, Elements},
    {"numpy.histogram", "bins", 1, Wide},
    {"numpy.histogram_bin_edges", "bins", 1, Wide},
    {"numpy.histogram2d", "bins", 2, Wide, 2},
    {"numpy.bincount", "minlength", 2, Wide},
    {"numpy.array_split", "indices_or_sections", 1, Objects},
    {"numpy.split", "indices_or_sections", 1, Objects},
    {"numpy.hsplit", "indices_or_sections", 1, Objects},
    {"numpy.vsplit", "indices_or_sections", 1, Objects},
    {"numpy.dsplit", "indices_or_sections", 1, Objects},
    {"numpy.resize", "new_shape", 1, Wide},
    {"numpy.zeros_like", "shape", -1, Wide},
    {"numpy.ones_like", "shape", -1, Wide},
    {"numpy.full_like", "shape", -1, Wide},
    {"numpy.tril_indices", "n", 0, 1 << 13},
    {"numpy.triu_indices", "n", 0, 1 << 13},
    {"numpy.diag_indices", "n", 0, Wide},
    {"numpy.indices", "dimensions", 0, Wide / 4},
    {"numpy.kaiser", "M", 0, Wide},
    {"numpy.hamming", "M", 0, Wide},
    {"numpy.hanning", "M", 0, Wide},
    {"numpy.bartlett", "M", 0, Wide},
    {"numpy.blackman", "M", 0, Wide},
    {"numpy.geomspace", "num", 2, Wide},
    {"numpy.random.bytes", "length", 0, MaxFilledBytes},
    {"numpy.random.choice", "a", 0, Wide},
    {"numpy.binary_repr", "width", 1, MaxFilledBytes / 16},
    {"numpy.base_repr", "padding", 2, MaxFilledBytes / 16},
    {"numpy.fft.fftfreq", "n", 0, Wide},
    {"numpy.fft.rfftfreq", "n", 0, Wide},
    // A list of k items in one call: `random.sample(range(2**62), 2**31)`.
    {"random.sample", "k", 1, MaxElements},
};

/// The length argument of an FFT of torch's or numpy's (`n` of a 1-D
/// transform, the shape `s` of the others), the same for both libraries.
std::optional<SizeArgument> transformLength(std::string_view q) {
  for (std::string_view lib : {"torch.fft.", "numpy.fft."}) {
    if (!q.starts_with(lib))
      continue;
    std::string_view f = q.substr(lib.size());
    if (isOneOf(f, {"fft", "ifft", "rfft", "irfft", "hfft", "ihfft"}))
      return SizeArgument{q, "n", 1, Transform};
    if (isOneOf(f, {"fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn",
                    "rfftn", "irfftn", "hfftn", "ihfftn"}))
      return SizeArgument{q, "s", 1, Transform};
  }
  return std::nullopt;
}

/// The most `arg` asks for: a number (to the power `dims`) or a display's
/// product, each item bounded by sizeLimit (floats too: scale factors),
/// infinity when one is not; nothing for a string or a length of what
/// exists alone.
std::optional<double> amount(RuleContext &ctx, const Op *arg, int dims) {
  auto one = [&](const Op *x) -> std::optional<SizeLimit> {
    if (knownString(ctx, x))
      return std::nullopt; // `padding="same"`
    std::optional<SizeLimit> most = sizeLimit(ctx, x);
    return most ? most : SizeLimit{HUGE_VAL};
  };
  std::vector<const Op *> items{arg};
  if (const Op *v = valueBehindNames(ctx, arg); v && (v->is(OpKind::Tuple) || v->is(OpKind::List)))
    items.assign(v->operands.begin(), v->operands.end());
  else
    items.assign(size_t(dims), arg);
  SizeLimit n{1};
  for (const Op *item : items) {
    std::optional<SizeLimit> x = item ? one(item) : std::nullopt;
    if (!x)
      return std::nullopt;
    n = times(n, *x);
  }
  return n.most || n.lengths > MaxLengthFactor ? std::optional<double>(judged(n)) : std::nullopt;
}

} // namespace

bool takesSizeArgument(std::string_view q) {
  return transformLength(q) ||
         llvm::any_of(SizeArguments, [&](const SizeArgument &s) { return s.callee == q; });
}

/// Why a function sizes its result by the values of its input, if it does:
/// `bincount` makes a count for every number up to the largest it is given
/// (`torch.bincount(h.long() + 2**28)`: 2 GiB), unless those are indices
/// into something that exists; numpy's histograms choose their number of
/// bins from the data when `bins` names a rule (`"auto"`: one outlier,
/// 10^8 bins).
std::optional<std::string> sizedByValues(RuleContext &ctx, const Op &call, const Value &callee,
                                         bool method) {
  std::string_view f = callee.text;
  if ((method && f == "bincount") ||
      (!method && isOneOf(f, {"torch.bincount", "numpy.bincount"}))) {
    const Op *input = method && call.operand(0)->is(OpKind::Attribute)
                          ? call.operand(0)->operand(0)
                          : argument(call, 0, f == "numpy.bincount" ? "x" : "input");
    if (!holdsIndices(ctx, input))
      return std::string("makes a count for every number up to the largest its input holds, "
                         "which ivc cannot bound");
  }
  if (!method && isOneOf(f, {"numpy.histogram", "numpy.histogram_bin_edges"}) &&
      knownString(ctx, argument(call, 1, "bins")))
    return std::string("chooses its number of bins from the data");
  return std::nullopt;
}

std::optional<std::string> sizeArgumentCost(RuleContext &ctx, const Op &call, const Value &callee) {
  bool method = callee.kind == ValueKind::Method &&
                (callee.receiver == ValueKind::Tensor || callee.receiver == ValueKind::Activation ||
                 callee.receiver == ValueKind::Unknown);
  if (!method && callee.kind != ValueKind::Qualified)
    return std::nullopt;
  if (std::optional<std::string> why = sizedByValues(ctx, call, callee, method))
    return why;
  std::optional<SizeArgument> fft = method ? std::nullopt : transformLength(callee.text);
  for (const SizeArgument &s : fft ? llvm::ArrayRef(*fft) : llvm::ArrayRef(SizeArguments)) {
    // A method takes the function's arguments but the first, its receiver.
    bool named = method ? s.callee.starts_with("torch.") && s.callee.substr(6) == callee.text
                        : s.callee == callee.text;
    if (!named)
      continue;
    int position = method && s.position >= 0 ? s.position - 1 : s.position;
    const Op *arg = position >= 0 ? argument(call, size_t(position), s.keyword)
                                  : keywordArgument(call, s.keyword);
    std::optional<double> n = amount(ctx, arg, s.dims);
    if (!n || *n <= s.limit)
      continue;
    // One number for several dimensions: say it, and what they make.
    std::optional<double> one = s.dims > 1 ? numberValue(ctx, arg) : std::nullopt;
    return "asks for " + std::string(s.keyword) + " of " +
           (one ? countText(std::fabs(*one)) + " in each of " + std::to_string(s.dims) +
                      " dimensions, " + countText(*n) + " in all"
                : countText(*n)) +
           " (at most " + std::to_string(int64_t(s.limit)) + " in the server's process)";
  }
  return std::nullopt;
}

} // namespace ivc::rules::cost
