//===- UnsafeArguments.cpp - Safe functions made unsafe by an argument ----===//
//
// Some catalogued functions are safe only without one of their arguments
// (IVC307): torch's `searchsorted(sorter=...)` does not bounds-check the
// sorter; `sparse=True` / `sparse_grad=True` make sparse gradients whose
// index tensors alias what `to_dense()` trusts, and `layout=` other than
// `torch.strided` makes sparse tensors outright; a numpy ufunc given
// `where=` without `out=` returns memory it never wrote; sizes, factors and
// group counts some kernels never check. Each is reported when the argument
// is present and not its safe form.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules {

using namespace ir;

namespace {

/// Functions `torch.nn.functional.f` whose `torch.f` takes the same
/// arguments: an entry for one stands for both. (Not `embedding_bag`: torch's
/// is the raw kernel, positioned otherwise.)
bool alsoInTorch(std::string_view f) {
  return isOneOf(f, {"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                     "conv_transpose3d", "pixel_shuffle", "pixel_unshuffle", "max_pool1d",
                     "max_pool2d", "max_pool3d", "max_pool1d_with_indices"});
}

/// Whether `f` is a max pool of torch.nn.functional: of one to three
/// dimensions, with or without `_with_indices`. All take the same arguments
/// at the same positions.
bool maxPool(std::string_view f) {
  llvm::StringRef r(f.data(), f.size());
  r.consume_back("_with_indices");
  return r.consume_front("max_pool") && isOneOf(r, {"1d", "2d", "3d"});
}

struct UnsafeArgument {
  std::string_view callee; // qualified name (see alsoInTorch), or a tensor method's name
  std::string_view keyword; // also accepted at `position` when >= 0
  int position;
  std::string_view safe;     // the safe form (isSafeForm)
  std::string_view category;
};

constexpr UnsafeArgument UnsafeArguments[] = {
    {"torch.searchsorted", "sorter", -1, "None", "raw-memory"},
    {"torch.embedding", "sparse", 4, "False", "raw-memory"},
    {"torch.nn.functional.embedding", "sparse", 6, "False", "raw-memory"},
    {"torch.nn.functional.embedding_bag", "sparse", 8, "False", "raw-memory"},
    {"torch.gather", "sparse_grad", 3, "False", "raw-memory"},
    {"gather", "sparse_grad", 2, "False", "raw-memory"},
    // Named dimensions reach overloads that skip the range checks:
    // `x.flatten(0, 5, "x")`, `torch.concat([], "x")`.
    {"torch.flatten", "out_dim", 3, "None", "raw-memory"},
    {"flatten", "out_dim", 2, "None", "raw-memory"},
    {"torch.concat", "dim", 1, "not-str", "raw-memory"},
    {"torch.concatenate", "dim", 1, "not-str", "raw-memory"},
    {"torch.cat", "dim", 1, "not-str", "raw-memory"},
    // Tensors of coordinates, class weights and upscale factors whose sizes
    // are not checked against the input.
    {"torch.gradient", "spacing", -1, "None", "raw-memory"},
    {"torch.nn.functional.multi_margin_loss", "weight", 4, "None", "raw-memory"},
    {"torch.nn.functional.pixel_shuffle", "upscale_factor", 1, "small-int", "raw-memory"},
    {"torch.nn.functional.pixel_unshuffle", "downscale_factor", 1, "small-int", "raw-memory"},
    {"torch.nn.functional.fractional_max_pool2d", "_random_samples", -1, "None", "raw-memory"},
    {"torch.nn.functional.fractional_max_pool3d", "_random_samples", -1, "None", "raw-memory"},
    {"torch.nn.functional.fractional_max_pool2d_with_indices", "_random_samples", -1, "None",
     "raw-memory"},
    {"torch.nn.functional.fractional_max_pool3d_with_indices", "_random_samples", -1, "None",
     "raw-memory"},
    {"torch.nn.functional.embedding_bag", "include_last_offset", 9, "False", "raw-memory"},
    // A group count or kernel beyond 2^16 wraps or divides by zero, or never ends.
    {"torch.nn.functional.conv1d", "groups", 6, "small-int", "raw-memory"},
    {"torch.nn.functional.conv2d", "groups", 6, "small-int", "raw-memory"},
    {"torch.nn.functional.conv3d", "groups", 6, "small-int", "raw-memory"},
    {"torch.nn.functional.conv_transpose1d", "groups", 6, "small-int", "raw-memory"},
    {"torch.nn.functional.conv_transpose2d", "groups", 6, "small-int", "raw-memory"},
    {"torch.nn.functional.conv_transpose3d", "groups", 6, "small-int", "raw-memory"},
    // A max pool's output length (L + 2p - d(k - 1) - 1) / s + 1 wraps in
    // int64 for a dilation of 2^62, and the kernel reads far outside its
    // input (SIGSEGV, torch 1.13). `max_pool` stands for every max pool (see
    // maxPool).
    {"torch.nn.functional.max_pool", "kernel_size", 1, "small-ints", "raw-memory"},
    {"torch.nn.functional.max_pool", "stride", 2, "small-ints-or-none", "raw-memory"},
    {"torch.nn.functional.max_pool", "padding", 3, "small-ints", "raw-memory"},
    {"torch.nn.functional.max_pool", "dilation", 4, "small-ints", "raw-memory"},
    // An average pool divides integer sums by divisor_override: -1 traps on
    // the minimum (SIGFPE), as integer division does.
    {"torch.nn.functional.avg_pool2d", "divisor_override", 6, "positive-small-int",
     "integer-division"},
    {"torch.nn.functional.avg_pool3d", "divisor_override", 6, "positive-small-int",
     "integer-division"},
    // Without it the divisor is the window's area in int64: a kernel of
    // 65535 by 281479271743489 wraps it to -1.
    {"torch.nn.functional.avg_pool1d", "kernel_size", 1, "small-ints", "integer-division"},
    {"torch.nn.functional.avg_pool2d", "kernel_size", 1, "small-ints", "integer-division"},
    {"torch.nn.functional.avg_pool3d", "kernel_size", 1, "small-ints", "integer-division"},
    // fold's kernel size wraps and divides by zero (SIGFPE); an embedding
    // bag's padding index with empty offsets reads out of bounds (SIGSEGV).
    {"torch.nn.functional.fold", "kernel_size", 2, "small-ints", "raw-memory"},
    {"torch.nn.functional.unfold", "kernel_size", 1, "small-ints", "raw-memory"},
    {"torch.nn.functional.embedding_bag", "padding_idx", 10, "None", "raw-memory"},
    // histogramdd indexes its first bin count unchecked: `bins=[]` is a
    // read out of bounds (SIGSEGV, torch 1.13).
    {"torch.histogramdd", "bins", 1, "count", "raw-memory"},
    // A padding of 2^63 - 1 overflows the output size (SIGSEGV).
    {"torch.nn.functional.conv1d", "padding", 4, "small-ints-or-str", "raw-memory"},
    {"torch.nn.functional.conv2d", "padding", 4, "small-ints-or-str", "raw-memory"},
    {"torch.nn.functional.conv3d", "padding", 4, "small-ints-or-str", "raw-memory"},
    {"torch.nn.functional.conv1d", "dilation", 5, "small-ints", "raw-memory"},
    {"torch.nn.functional.conv2d", "dilation", 5, "small-ints", "raw-memory"},
    {"torch.nn.functional.conv3d", "dilation", 5, "small-ints", "raw-memory"},
    // The max of an empty bag reads out of bounds; offsets are data.
    {"torch.nn.functional.embedding_bag", "mode", 6, "not max", "raw-memory"},
    // Along an expanded (stride 0) dimension the median reads past the data.
    {"torch.median", "dim", 1, "None", "raw-memory"},
    {"median", "dim", 0, "None", "raw-memory"},
    {"torch.nanmedian", "dim", 1, "None", "raw-memory"},
    {"nanmedian", "dim", 0, "None", "raw-memory"},
    // numpy negates a rounding's decimals and a trace's offset as C ints:
    // -2^31 overflows into an out-of-bounds access (numpy 1.24).
    {"numpy.round", "decimals", 1, "small-signed", "raw-memory"},
    {"numpy.around", "decimals", 1, "small-signed", "raw-memory"},
    {"numpy.round_", "decimals", 1, "small-signed", "raw-memory"},
    {"round", "decimals", 0, "small-signed", "raw-memory"},
    {"numpy.trace", "offset", 1, "small-signed", "raw-memory"},
    {"trace", "offset", 0, "small-signed", "raw-memory"},
    // mode="wrap" brings an index into range by adding the length in a loop:
    // 2^63 turns for -2^63, and none ends on an empty array (object arrays
    // and put hold the interpreter lock throughout).
    {"numpy.take", "mode", 4, "raise-or-clip", "no-return"},
    {"numpy.put", "mode", 3, "raise-or-clip", "no-return"},
    {"numpy.choose", "mode", 3, "raise-or-clip", "no-return"},
    {"take", "mode", 3, "raise-or-clip", "no-return"},
    {"put", "mode", 2, "raise-or-clip", "no-return"},
    {"choose", "mode", 2, "raise-or-clip", "no-return"},
    // diff of order n repeats a pass over the data n times, up to the
    // length of what `prepend`/`append` add: quadratic, past any deadline.
    {"torch.diff", "n", 1, "order", "no-return"},
    {"diff", "n", 0, "order", "no-return"},
    {"numpy.diff", "n", 1, "order", "no-return"},
};

/// Whether `arg` is what keeps the call safe: the constant `safe` (`False`,
/// `None`, `torch.strided`), anything but a string (`not-str`: a dimension
/// by number), or an integer ivc sizes under 2^16 (`small-int`), under 2^16
/// in magnitude (`small-signed`), or from 1 to 2^16 - 1, or None
/// (`positive-small-int`), such an int or a display of them (`small-ints`),
/// or None (`small-ints-or-none`), or a string (`small-ints-or-str`), a
/// count of at least 1 (`count`), a
/// known string other than X (`not X`), `"raise"` or `"clip"`
/// (`raise-or-clip`), an integer from 0 to 64 (`order`), or None, a number
/// or a non-empty display (`items-or-none`).
bool isSafeForm(RuleContext &ctx, const Op *arg, std::string_view safe) {
  if (safe == "False")
    return arg->is(OpKind::False);
  if (safe == "None")
    return arg->is(OpKind::None);
  if (safe == "not-str")
    return !arg->is(OpKind::Str) && llvm::none_of(ctx.valuesOf(arg), [](const Value &v) {
      return v.kind == ValueKind::Str;
    });
  if (safe == "small-ints") { // `3` or `(3, 3)`
    if (arg->is(OpKind::Tuple) || arg->is(OpKind::List))
      return !arg->operands.empty() && llvm::all_of(arg->operands, [&](const Op *o) {
        return o && isSafeForm(ctx, o, "small-int");
      });
    return isSafeForm(ctx, arg, "small-int");
  }
  if (safe == "count") {
    std::optional<int64_t> v = cost::Sizer(ctx).of(arg).value;
    return v && *v >= 1;
  }
  if (safe == "small-ints-or-none") // `stride=None`: the kernel's size
    return arg->is(OpKind::None) || isSafeForm(ctx, arg, "small-ints");
  if (safe == "small-ints-or-str") // `padding="same"`
    return knownString(ctx, arg) || isSafeForm(ctx, arg, "small-ints");
  if (safe.starts_with("not ")) // a known string other than the one named
    return knownString(ctx, arg) && *knownString(ctx, arg) != safe.substr(4);
  if (safe == "order") { // a difference's order: a small constant
    std::optional<int64_t> v = cost::Sizer(ctx).of(arg).value;
    return v && *v >= 0 && *v <= 64;
  }
  if (safe == "raise-or-clip") // numpy's index modes that never loop
    return knownString(ctx, arg) && isOneOf(*knownString(ctx, arg), {"raise", "clip"});
  if (safe == "items-or-none") // None, a number, or a display of at least one
    return arg->is(OpKind::None) || cost::Sizer(ctx).of(arg).value ||
           ((arg->is(OpKind::Tuple) || arg->is(OpKind::List)) && !arg->operands.empty());
  if (safe == "small-int" || safe == "small-signed" || safe == "positive-small-int") {
    if (safe == "positive-small-int" && arg->is(OpKind::None))
      return true;
    std::optional<int64_t> v = cost::Sizer(ctx).of(arg).value;
    int64_t least = safe == "small-int" ? 0 : safe == "small-signed" ? -(1 << 16) + 1 : 1;
    return v && *v >= least && *v < (1 << 16);
  }
  const ValueSet &vs = ctx.valuesOf(arg);
  return !vs.empty() && llvm::all_of(vs, [&](const Value &v) {
    return v.kind == ValueKind::Qualified && v.text == safe;
  });
}

/// Whether `v` is a method of what may be a tensor or an array: a method of
/// a value ivc cannot type may be an array's or a numpy scalar's
/// (`np.float64(x).round(d)`).
bool ofArrayLike(const Value &v) {
  return v.kind == ValueKind::Method &&
         (v.receiver == ValueKind::Tensor || v.receiver == ValueKind::Activation ||
          v.receiver == ValueKind::Unknown);
}

/// Whether entry `u` is about `callee`: a function by its qualified name (a
/// `torch.nn.functional` entry also names torch's own, see alsoInTorch), a
/// method by its name.
bool names(const UnsafeArgument &u, const Value &callee) {
  bool methodEntry = u.callee.find('.') == std::string_view::npos;
  if (ofArrayLike(callee))
    return methodEntry && u.callee == callee.text;
  if (callee.kind != ValueKind::Qualified || methodEntry)
    return false;
  constexpr std::string_view Functional = "torch.nn.functional.";
  // The function's name in torch.nn.functional, or null for another.
  std::string_view f = callee.text.starts_with(Functional) ? callee.text.substr(Functional.size())
                       : callee.text.starts_with("torch.") && alsoInTorch(callee.text.substr(6))
                           ? callee.text.substr(6)
                           : std::string_view();
  if (u.callee == "torch.nn.functional.max_pool")
    return maxPool(f);
  return u.callee == callee.text || (!f.empty() && u.callee.starts_with(Functional) &&
                                     u.callee.substr(Functional.size()) == f);
}

/// The 2-D and n-D FFTs (`torch.fft.fft2`, `torch.fft.irfftn`).
bool isNdFft(std::string_view q) {
  llvm::StringRef f(q.data(), q.size());
  return f.consume_front("torch.fft.") && (f.ends_with("fft2") || f.ends_with("fftn"));
}

void report(RuleContext &ctx, const Op &call, std::string what, std::string_view category) {
  ctx.isolate(call, DiagId::UnsafeEntryPoint, {ctx.subject(), what, std::string(category)});
}

} // namespace

bool checkUnsafeArgumentsReference(Op &op, const Value &v, RuleContext &ctx) {
  // Handed to map, a sort key, partial or an apply, such a function gets
  // its arguments where ivc does not check them.
  bool listed = (v.kind == ValueKind::Builtin && v.text == "round") ||
                (v.kind == ValueKind::Qualified && isNdFft(v.text)) ||
                llvm::any_of(UnsafeArguments,
                             [&](const UnsafeArgument &u) { return names(u, v); });
  if (!listed)
    return false;
  ctx.isolate(op, DiagId::UnsafeEntryPoint,
              {ctx.subject(), shortSource(ctx, op) + " as a value",
               "raw-memory: its arguments are checked only where it is called"});
  return true;
}

void checkUnsafeArguments(Op &call, const Value &callee, RuleContext &ctx) {
  // `round(np.float64(x), d)` calls the scalar's own rounding.
  if (callee.kind == ValueKind::Builtin && callee.text == "round")
    if (const Op *d = argument(call, 1, "ndigits"); d && !isSafeForm(ctx, d, "small-signed"))
      return report(ctx, call, "round(ndigits=...)", "raw-memory");
  bool method = ofArrayLike(callee);
  if (!method && callee.kind != ValueKind::Qualified)
    return;
  // `functools.partial(np.exp, where=m)` gives the keyword where ivc does
  // not see the call.
  if (callee.kind == ValueKind::Qualified && callee.text == "functools.partial" &&
      ((keywordArgument(call, "where") && !keywordArgument(call, "out")) ||
       keywordArgument(call, "layout")))
    return report(ctx, call, "functools.partial(where=... or layout=...)", "raw-memory");
  auto name = [&] {
    return method ? "torch.Tensor." + std::string(callee.text) : std::string(callee.text);
  };
  for (const UnsafeArgument &u : UnsafeArguments) {
    if (!names(u, callee))
      continue;
    const Op *arg = u.position >= 0 ? argument(call, size_t(u.position), u.keyword)
                                    : keywordArgument(call, u.keyword);
    if (arg && !isSafeForm(ctx, arg, u.safe))
      return report(ctx, call, name() + "(" + std::string(u.keyword) + "=...)", u.category);
  }
  if (callee.kind != ValueKind::Qualified)
    return;
  // The 2-D and n-D FFTs given no dimensions (`s=[]`, `dim=[]`) return
  // memory they never wrote (torch 1.13).
  if (isNdFft(callee.text))
    for (auto [keyword, position] : {std::pair{"s", 1}, std::pair{"dim", 2}})
      if (const Op *a = argument(call, size_t(position), keyword);
          a && !isSafeForm(ctx, a, "items-or-none"))
        return report(ctx, call, name() + "(" + keyword + "=...)", "uninitialized-memory");
  if (callee.text.starts_with("torch."))
    if (const Op *layout = keywordArgument(call, "layout");
        layout && !isSafeForm(ctx, layout, "torch.strided"))
      return report(ctx, call, name() + "(layout=...)", "raw-memory");
  if (callee.text.starts_with("numpy.") && keywordArgument(call, "where") &&
      !keywordArgument(call, "out"))
    return report(ctx, call, name() + "(where=...) without out=", "uninitialized-memory");
}

} // namespace ivc::rules
