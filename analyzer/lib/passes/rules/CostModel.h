//===- CostModel.h - Sizes the cost rules (IVC312) share -----------------===//
//
// What the cost rule knows of numbers, sequences, shapes and calls, shared by
// its files: Cost.cpp (integers, sequences, ranges), Nesting.cpp (loops, and
// values a loop nests in themselves), FormatCost.cpp (format widths),
// TensorCost.cpp (tensors of constant sizes), SizeArguments.cpp (sizes given
// to functions that are no factories), DtypeCost.cpp (numpy dtypes that hide
// sizes), TextCost.cpp (string methods), IteratorCost.cpp (itertools'
// combinatorics), HashingCost.cpp (sets and dicts filled in one call),
// Doubling.cpp (lists grown in place by themselves in a loop) and
// HandedOn.cpp (such functions handed to `map`, `partial`, ...). Sizes come
// from CostModel.cpp (integers), SequenceExtent.cpp (sequences),
// SizeBounds.cpp (the most a size may be), InputNumbers.cpp (numbers the
// inputs choose) and Parameters.cpp (what calls pass a helper).
// Internal to the rules.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_PASSES_RULES_COSTMODEL_H
#define IVC_LIB_PASSES_RULES_COSTMODEL_H

#include "Rules.h"

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ivc::rules::cost {

// Limits on one call's work, each tens of milliseconds at most (CPython 3.11
// on the development machine: a 2^20-bit power 27 ms, sum(range(2^24))
// 160 ms, [None] * 2^24 46 ms, math.factorial(2^14) 3 ms).
constexpr double MaxBits = 1 << 20;
// Bits one call may work through adding or comparing big integers
// (sum([10**100000] * 2**23), 2.8 * 10^12 of them, took 65 s): 2^32.
constexpr double MaxBitSteps = 4294967296.0;
constexpr int64_t MaxElements = 1 << 24;
constexpr int64_t MaxFactorial = 1 << 14;
// Items `str` or `repr` formats in one call (2^23 floats of a tolist() held
// the interpreter lock 3.4 s).
constexpr int64_t MaxWrittenItems = 1 << 21;
// Largest exponent for a base ivc cannot size (`x ** 2` on a parameter).
constexpr int64_t MaxBlindExponent = 64;
// Elements of one tensor a factory may make in process: 1 GiB of float32
// (torch 1.13 on the development machine: torch.ones(2^28) 0.33 s).
constexpr double MaxTensorElements = double(1 << 28);
// Multiply-adds of one numpy convolution (2^16 by 2^16: 4.5 s).
constexpr double MaxConvolutionProducts = double(1 << 28);
// Multiply-adds of one matrix product or factorization in torch's threads
// (a 4000-square product, 2^36, took seconds; svd of 2000 squared, 2^33, 18 s).
constexpr double MaxDenseProducts = double(1LL << 32);
// Bytes of source (a body and its definitions) a runtime compiles in the
// server's process: folding constants makes at most about 400 times that.
constexpr size_t MaxFastCodeBytes = 64 << 10;
// Bytes or characters one call may allocate and fill (`bytes(n)`,
// `s.ljust(n)`): 256 MiB.
constexpr double MaxFilledBytes = double(1 << 28);

/// Items of a tensor a builtin may take one by one in one call, each a new
/// tensor (`max(t)`, `list(t)`: 2^20 took 1.3-2.8 s), or compare (`sorted`,
/// n log n times).
constexpr double MaxIteratedTensorItems = double(1 << 16);
/// Repetitions of a tensor ivc cannot size are judged from this many times
/// up.
constexpr int64_t MaxBlindRepetitions = 1 << 16;
/// The elements a caller's tensor may hold, as ivc counts them when it is
/// repeated or concatenated: 64 MiB (the codec's limit) of float32.
constexpr double CallersTensorElements = double(1 << 24);
/// Repetitions of a string or list ivc cannot size are judged from this
/// many times up: a caller may pass a 64 MiB string (the codec's limit), so
/// 16 repetitions make 1 GiB at most.
constexpr int64_t MaxBlindSequenceRepetitions = 16;

/// What ivc knows of a number: a float (bounded by its type), an integer of
/// at most `bits` bits (exactly `value` when small), a length (bounded by the
/// memory of something that exists already), or nothing.
struct Magnitude {
  enum Kind { Unknown, Float, Int, Length } kind = Unknown;
  double bits = 0;
  std::optional<int64_t> value;

  static Magnitude floating() { return {Float, 0, std::nullopt}; }
  static Magnitude integer(int64_t v) {
    return {Int, v == 0 ? 1.0 : std::floor(std::log2(std::fabs(double(v)))) + 1, v};
  }
  bool isInt() const { return kind == Int || kind == Length; }
};

/// The size of `l op r` from its operands' (`**`, `<<`, `*`, `+`, ...).
Magnitude binary(std::string_view op, const Magnitude &l, const Magnitude &r);

/// Sizes integer expressions: literals, arithmetic, names bound once (through
/// up to eight of them), `len(...)`, `int`/`abs` of a sized value or a float,
/// and integers parsed from strings or bytes of known length.
class Sizer {
public:
  explicit Sizer(RuleContext &ctx) : ctx_(ctx) {}
  Magnitude of(const ir::Op *op, int depth = 0);

private:
  Magnitude ofFloat(const ir::Op *op);
  Magnitude ofBindings(const ir::Op *name, int depth);
  Magnitude ofParsed(const ir::Op *digits, const ir::Op *base, int depth);

  RuleContext &ctx_;
};

/// Whether `op` is a str, bytes, list or tuple (a display, or a name or
/// value ivc types as one).
bool isSequence(RuleContext &ctx, const ir::Op *op);
/// Whether `op` may be a sequence: typed as one, or not typed at all.
bool maySequence(RuleContext &ctx, const ir::Op *op);

/// What ivc knows of a sequence a display, a repetition or a concatenation
/// makes: its length, and the items a walk of it visits (`str`, `==`,
/// `copy.deepcopy`), each nested sequence counted at every reference:
/// `[[0] * 2**12] * 2**12` is 2^12 long and reaches 2^24 + 2^12 items.
struct Extent {
  double length = 0, reach = 0;
  bool text = false; // a str or bytes: its length is in characters or bytes
  double chars = 0;  // a list or tuple: the characters of its str items, nested ones too

  /// Why making a sequence of this extent in one call is too much, if it is.
  std::optional<std::string> excess() const;
};

/// Extents of displays, repetitions, concatenations and names bound once,
/// through a bounded walk.
class ExtentOf {
public:
  explicit ExtentOf(RuleContext &ctx) : ctx_(ctx) {}
  std::optional<Extent> of(const ir::Op *op, int depth = 0);
  std::optional<double> sliceLength(const ir::Op &slice);

private:
  std::optional<Extent> ofBinary(const ir::Op &op, int depth);
  std::optional<Extent> ofComprehension(const ir::Op &comp, int depth);
  std::optional<Extent> ofItem(const ir::Op *item, int depth);
  std::optional<Extent> ofItemsCarried(const ir::Op &call, int depth);

  RuleContext &ctx_;
  int visits_ = 0;
};

/// Why `str`, `repr` or `%` of a sequence ivc sizes costs too much in one
/// call (its characters, or more than MaxWrittenItems items), if it does.
std::optional<std::string> writtenOut(RuleContext &ctx, const ir::Op *seq);

/// The length of a str or bytes ivc sizes (literals, `+`, `*`, names).
std::optional<double> textLength(RuleContext &ctx, const ir::Op *op);
/// The iterable whose items `map(f, xs, ...)`, `filter(f, xs)`, `iter(xs)`
/// or `reversed(xs)` pass on (no fewer than they yield), or null for
/// another call.
const ir::Op *itemsPassedOn(RuleContext &ctx, const ir::Op &call);
/// Whether `op` is a call of the builtin `range`.
bool isRangeCall(RuleContext &ctx, const ir::Op *op);
/// The length of an iterable ivc sizes: a range, a display, a string or a
/// repetition of one.
std::optional<double> iterableLength(RuleContext &ctx, const ir::Op *op);
/// The value of a float literal (`1_000.5`), or nothing for another op.
std::optional<double> floatLiteral(const ir::Op *op);
/// The value of an integer or float ivc evaluates (a literal, `-x`, sized
/// integer arithmetic, through names bound once).
std::optional<double> numberValue(RuleContext &ctx, const ir::Op *op);

/// Whether every value `op` may be is a tensor.
bool allTensors(RuleContext &ctx, const ir::Op *op);
/// Whether some value `op` may be is a tensor (an activation included).
bool anyTensor(RuleContext &ctx, const ir::Op *op);
/// Whether `op` reads `s` anywhere in its operands (a walk of at most
/// `budget` ops; true when the budget runs out).
bool reads(RuleContext &ctx, const ir::Op *op, const Symbol *s, int &budget);
/// The symbol a name op reads or binds, or null.
const Symbol *symbolOf(RuleContext &ctx, const ir::Op *op);
/// One thing code adds, in place, to the container a name holds.
struct Addition {
  const ir::Op *value; // an item, or a sequence of items
  const ir::Op *at;    // the statement or call that adds it
  bool sequence;       // `extend`, `update`, `+=`, `|=`: its items are added
};
/// What code adds to what `s` names: items (`l.append(x)`, `appendleft`,
/// `add`, `l.insert(i, x)`, `d.setdefault(k, x)`, `l[i] = x`) and sequences
/// (`extend`, `extendleft`, `update`, `l += xs`, `d |= m`); with `deep`, also
/// to what its items hold (`xs[0].append(z)`). `others`, when given, gets
/// the reads of `s` that add nothing.
std::vector<Addition> additionsTo(RuleContext &ctx, const Symbol &s, bool deep,
                                  std::vector<const ir::Op *> *others = nullptr);
/// Reports `at` as IVC312, `why` saying what it does.
void report(RuleContext &ctx, const ir::Op &at, std::string_view why);
/// A call's positional arguments, up to a `*args`.
std::vector<const ir::Op *> positionalArguments(const ir::Op &call);
/// What each of a call's arguments passes: a keyword's value, what `*xs`
/// or `**d` spreads, or the argument itself.
std::vector<const ir::Op *> argumentValues(const ir::Op &call);
/// The length of `range(*args)` or `torch.arange(*args)` when every argument
/// is an integer ivc evaluates.
std::optional<double> rangeLength(RuleContext &ctx, const std::vector<const ir::Op *> &args);
/// The product of `dims` when every one is an integer ivc evaluates, or
/// infinity when one is not a size ivc sees bounded (boundedSize): the
/// inputs may choose it.
std::optional<double> product(RuleContext &ctx, const std::vector<const ir::Op *> &dims);
/// "2147483648", "over 10^18", or "a number ivc cannot bound" (infinity).
std::string countText(double n);


// InputNumbers.cpp
/// Whether `op` is a number the inputs choose: a caller's value, a tensor's
/// contents (`t.item()`, `int(t)`, a tensor given as a size), or arithmetic
/// on those (`min` with a bound caps it). The cost rules count such a size
/// as beyond every limit.
bool chosenByInputs(RuleContext &ctx, const ir::Op *op);
/// The same, but a tensor counts only when its value comes from the inputs
/// (an activation does not: its shape is the model's).
bool derivedFromInputs(RuleContext &ctx, const ir::Op *op);
/// Whether the tensor `t` is the caller's, so that its shape is too (a
/// caller's 2^40 by 0 tensor holds nothing), and the plan does not guard
/// its size.
bool callersShape(RuleContext &ctx, const ir::Op *t);

// SizeBounds.cpp
/// How many times a length of what exists may be taken in one size: an
/// activation's 4096 by 2^16 is 2^28, a tensor's limit.
constexpr double MaxLengthFactor = double(1 << 16);

/// What a size may be at most: `most`, plus `lengths` times a length of
/// something that exists whose number ivc does not know (an activation's
/// shape, the model's configuration).
struct SizeLimit {
  double most = 0;
  double lengths = 0;
};
SizeLimit plus(SizeLimit a, SizeLimit b);
SizeLimit times(SizeLimit a, SizeLimit b);
/// The number `l` stands for, to judge against a limit: its `most`, or
/// infinity when it takes lengths more than MaxLengthFactor times.
double judged(SizeLimit l);
/// The limit of the size `op` when ivc sees it bounded: numbers it
/// evaluates or caps (`n % 4096`, `min(n, 64)`), lengths of what exists,
/// and arithmetic of those (floats included). Nothing for any other size:
/// it may be what the inputs choose.
std::optional<SizeLimit> sizeLimit(RuleContext &ctx, const ir::Op *op);
/// The number part of the most the nonzero dimensions of the tensor `t`
/// multiply to (its span), lengths of what exists counted as nothing;
/// nothing when ivc cannot bound it (a caller's tensor).
std::optional<double> spanBound(RuleContext &ctx, const ir::Op *t);
/// The numbers the tensor `t` holds, as ivc counts them: its span's number
/// part, lengths of what exists counted as nothing when taken once and as
/// infinity when taken many times over (`h.repeat(2**16)`); nothing when
/// ivc cannot bound them (a caller's tensor).
std::optional<double> numbersIn(RuleContext &ctx, const ir::Op *t);
/// The items of the list `op` is when it is a tensor's `tolist()`, through
/// names bound once: numbersIn the tensor (`torch.rand(2**23).tolist()`).
std::optional<double> listedNumbers(RuleContext &ctx, const ir::Op *op);
/// Whether `len(x)` is the length of something that exists: a str, the
/// model's modules, an activation, a display's or comprehension's list;
/// not a range, nor a slice of one, whose length costs nothing
/// (`len(range(2**30)[:])`).
bool lengthExists(RuleContext &ctx, const ir::Op *x, int depth = 0);
/// The number part of sizeLimit, where a float is no size (a TypeError: 0),
/// and nothing when it is unbounded or takes lengths too many times.
std::optional<double> sizeBound(RuleContext &ctx, const ir::Op *op);
/// A number of times as a Magnitude: a length of what exists plus a small
/// number, or the number ivc bounds (its `value` the most it may be, or
/// the least when lengths come on top), or nothing.
Magnitude countBound(RuleContext &ctx, const ir::Op *op);

// Nesting.cpp
/// Whether `op` runs inside a loop, in the same function and the mediator,
/// that iterates `target` (or any loop, when `target` is null).
bool inLoopOver(RuleContext &ctx, const ir::Op &op, const Symbol *target);
/// How many times `op` runs, as the loops around it in its function and the
/// mediator say: the product of their lengths, infinity for one ivc cannot
/// size or a while loop.
double timesRun(RuleContext &ctx, const ir::Op &op);
/// The statement an expression op belongs to: the first statement after it
/// in its region.
const ir::Op *statementOf(const ir::Op &op);
/// A callee whose result iterates its arguments lazily (`zip`, `map`,
/// itertools' wrappers): a Python loop over it releases the GIL between
/// items.
bool isLazyWrapper(const Value &v);
/// Whether `op` is an iterator that reads the list `list` item by item as
/// it is consumed (`iter(xs)`, `zip(xs)`, `map(f, xs)`, `x for x in xs`, a
/// name bound to one): extending `xs` from it never ends.
bool readsLazily(RuleContext &ctx, const ir::Op *op, const Symbol *list);
/// Whether `call`, a lazy wrapper's, hands it a method that grows a list
/// (`xs.append`) and an iterable over that list (`map(xs.append, xs)`).
bool growsWhatItIterates(RuleContext &ctx, const ir::Op &call);
/// Whether `op`, a display or a lazy wrapper's call, is what a loop stores
/// again where it read it (`x = (x,)`, `a[0] = (a[0],)`).
bool nestsItselfInLoop(RuleContext &ctx, const ir::Op &op);
/// Whether `call` is a container method that a loop hands a display or
/// wrapper holding the container itself (`s.append((s.pop(),))`).
bool storesItselfInLoop(RuleContext &ctx, const ir::Op &call);
/// Whether a walrus in a loop binds a name to what holds it
/// (`[o := (o,) for _ in r]`).
bool walrusNestsInLoop(RuleContext &ctx, const ir::Op &walrus);
/// Whether `call` reduces an iterable of more than 1024 items (or of a
/// length ivc cannot size) with a function that returns what holds its
/// parameter (`functools.reduce(lambda a, _: (a,), range(10**6), ())`).
bool nestsByReduction(RuleContext &ctx, const ir::Op &call);

// Doubling.cpp
/// Whether `op` grows a list in place (`+=`, `extend`, a slice store), in a
/// loop, by what may be a list (`s.extend(s)`, `a = s; b = s; a += b`):
/// maybe geometric growth.
bool growsByItselfInLoop(RuleContext &ctx, const ir::Op &op);

// IteratorCost.cpp
/// Whether `v` is one of itertools' combinatoric iterators.
bool isCombinatoric(const Value &v);
/// How many items the combinatoric iterator `f` makes in `call`, when ivc
/// sizes its inputs.
std::optional<double> combinatoricCount(RuleContext &ctx, const ir::Op &call,
                                        std::string_view f);

// TextCost.cpp
/// Why a string method or conversion (`join`, `replace`, `expandtabs`,
/// `split`, `list(s)`) may make more than one call should, if it may.
std::optional<std::string> textCallCost(RuleContext &ctx, const ir::Op &call,
                                        const Value &callee);

// FormatCost.cpp
/// Why an f-string field, `fmt % args`, `fmt.format(...)` or `format(x,
/// spec)` may fill beyond 256 MiB (a width or precision), if it may.
std::optional<std::string> formatCost(RuleContext &ctx, const ir::Op &op);

// SizeArguments.cpp
/// Why a size, count or factor argument of a torch or numpy function that
/// is no factory (`torch.histc(bins=...)`, `np.random.bytes(n)`) may make
/// it allocate beyond the limits, if it may.
std::optional<std::string> sizeArgumentCost(RuleContext &ctx, const ir::Op &call,
                                            const Value &callee);
/// Whether the function `q` (qualified) takes such an argument.
bool takesSizeArgument(std::string_view q);

// DtypeCost.cpp
/// Why a numpy call's dtype may hide a size or make objects
/// (`dtype=(np.float64, 2**9)`, `'U2000000000'`, `object`), if it may.
std::optional<std::string> dtypeCost(RuleContext &ctx, const ir::Op &call, const Value &callee);

// HandedOn.cpp
/// Why `call` of `callee` may hand a function whose cost follows its
/// arguments (`pow`, `torch.ones`, `str.zfill`) to code that calls it with
/// values ivc does not see (`map(torch.ones, [2**30])`), if it may.
std::optional<std::string> costHandedOn(RuleContext &ctx, const ir::Op &call,
                                        const Value &callee);

// HashingCost.cpp
/// Why `call` (`set(xs)`, `dict.fromkeys(xs)`, `s.update(xs)`) may hash
/// items that collide in bulk in one C call, if it may.
std::optional<std::string> hashingCost(RuleContext &ctx, const ir::Op &call,
                                       const Value &callee);
/// The same for a set display's unpacked items (`{*xs}`).
std::optional<std::string> unpackedHashingCost(RuleContext &ctx, const ir::Op &set);
/// The same for `d |= pairs`.
std::optional<std::string> augmentedHashingCost(RuleContext &ctx, const ir::Op &op);

// TensorCost.cpp
/// The shape of the tensor `op` is, when a torch or numpy factory of a
/// constant shape made it (directly or through names bound once).
std::optional<std::vector<double>> factoryShape(RuleContext &ctx, const ir::Op *op);
/// The most elements `a @ b` of tensors factories of constant shapes made
/// may have (an outer product: `zeros(2**15, 1) @ zeros(1, 2**15)`).
std::optional<double> matmulElements(RuleContext &ctx, const ir::Op *a, const ir::Op *b);
/// Why that product (of a size within the limit) takes too many
/// multiply-adds: its elements by the contracted size.
std::optional<std::string> matmulWorkCost(RuleContext &ctx, const ir::Op *a, const ir::Op *b);
/// Why a binary operator's tensors of known shapes broadcast to too many
/// elements (`a[:, :, None] * b[None]`).
std::optional<std::string> broadcastCost(RuleContext &ctx, const ir::Op &binary);
/// Why `w[idx]` with an integer tensor of a constant size may gather too
/// much: a row of w per index.
std::optional<std::string> gatherCost(RuleContext &ctx, const ir::Op &subscript);
/// Why iterating `iterable` at `at` (a loop, a comprehension, `*t`,
/// unpacking, `zip(t, ...)`) may make too many tensors: a tensor iterates
/// by unbinding every row at once.
std::optional<std::string> rowsIteratedCost(RuleContext &ctx, const ir::Op &at,
                                            const ir::Op *iterable);
/// Why a torch factory or tensor method call of constant sizes (`callee`)
/// may allocate beyond 1 GiB, if it may.
std::optional<std::string> tensorCallCost(RuleContext &ctx, const ir::Op &call,
                                          const Value &callee);

} // namespace ivc::rules::cost

#endif
