//===- Cost.cpp - Work whose size ivc cannot bound (IVC312) ---------------===//
//
// A FAST mediator runs in the server's process. A while loop there is ISOLATE
// (IVC301); so is work that one C call does without ever releasing the GIL,
// which would stop the whole server and which the runtime cannot abandon:
//  - integer `**`, `<<`, `pow` and math.factorial/comb/perm whose result
//    ivc cannot bound (`10 ** 10 ** 10`);
//  - repeating a string, bytes or container a number of times ivc cannot
//    bound (`[0] * n`), and repetitions and concatenations whose products
//    pass the limit (`[[0] * 2**24] * 2**24`: `str` of it walks 2^48 items),
//    and `sum(xss, [])`, quadratic;
//  - a range ivc cannot bound handed to a call that iterates it in C, or
//    unpacked (`sum(range(n))`, `sum(r)` after `r = range(n)[::2]`,
//    `[*range(n)]`; a Python loop over it releases the GIL), and a
//    comprehension that keeps what it makes from a range of evidently more
//    than 2^24 items (a loop, but the server's memory runs out first);
//  - a loop that extends the list it iterates, and powers or squares of a
//    name its own rebinding grows (`x = x ** 2` in a loop or line by line);
//  - `bytes(n)`, `bytearray(n)` and string padding (`s.ljust(n)`) of a size
//    ivc evaluates beyond 256 MiB;
//  - a torch factory (`torch.ones(10**5, 10**5)`) whose constant shape holds
//    more than 2^28 elements: in the server's process nothing limits what
//    it allocates.
// Other tensor operations are not judged: their cost follows the sizes of
// activations, which ivc does not track. This bounds the evident cases; it
// is not a proof of cost.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace ivc::rules {

using namespace ir;

namespace {

// Limits on one call's work, each tens of milliseconds at most (CPython 3.11
// on the development machine: a 2^20-bit power 27 ms, sum(range(2^24))
// 160 ms, [None] * 2^24 46 ms, math.factorial(2^14) 3 ms).
constexpr double MaxBits = 1 << 20;
constexpr int64_t MaxElements = 1 << 24;
constexpr int64_t MaxFactorial = 1 << 14;
// Largest exponent for a base ivc cannot size (`x ** 2` on a parameter).
constexpr int64_t MaxBlindExponent = 64;
// Elements of one tensor a factory may make in process: 1 GiB of float32
// (torch 1.13 on the development machine: torch.ones(2^28) 0.33 s).
constexpr double MaxTensorElements = double(1 << 28);
// Bytes or characters one call may allocate and fill (`bytes(n)`,
// `s.ljust(n)`): 256 MiB.
constexpr double MaxFilledBytes = double(1 << 28);

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

Magnitude literal(std::string_view text) {
  std::string digits;
  for (char c : text)
    if (c != '_')
      digits += c;
  int base = 10;
  size_t skip = 0;
  if (digits.size() > 1 && digits[0] == '0' && std::isalpha(static_cast<unsigned char>(digits[1]))) {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[1])));
    base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
    skip = 2;
  }
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(digits.c_str() + skip, &end, base);
  if (errno == 0)
    return Magnitude::integer(v);
  return {Magnitude::Int, double(digits.size() - skip) * std::log2(double(base)) + 1, std::nullopt};
}

std::optional<int64_t> exactly(std::optional<int64_t> a, std::optional<int64_t> b,
                               bool (*op)(int64_t, int64_t, int64_t *)) {
  int64_t r;
  if (!a || !b || op(*a, *b, &r))
    return std::nullopt;
  return r;
}
bool add(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
bool sub(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
bool mul(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }

/// base ** exponent when it fits in 64 bits.
std::optional<int64_t> power(std::optional<int64_t> base, int64_t exponent) {
  if (!base || exponent > 64)
    return std::nullopt;
  std::optional<int64_t> r = 1;
  for (int64_t i = 0; r && i < exponent; ++i)
    r = exactly(r, base, mul);
  return r;
}

Magnitude binary(std::string_view op, const Magnitude &l, const Magnitude &r) {
  if (op == "/" || (l.kind == Magnitude::Float && r.kind != Magnitude::Unknown) ||
      (r.kind == Magnitude::Float && l.kind != Magnitude::Unknown))
    return Magnitude::floating();
  if (!l.isInt() || !r.isInt())
    return {};
  auto fromBits = [](double bits, std::optional<int64_t> v) {
    return v ? Magnitude::integer(*v) : Magnitude{Magnitude::Int, bits, std::nullopt};
  };
  if (op == "+" || op == "-")
    return fromBits(std::max(l.bits, r.bits) + 1, exactly(l.value, r.value, op == "+" ? add : sub));
  if (op == "*")
    return fromBits(l.bits + r.bits, exactly(l.value, r.value, mul));
  if (op == "//" || op == ">>")
    return fromBits(l.bits, std::nullopt);
  if (op == "%") // takes the divisor's sign and size
    return fromBits(r.bits, std::nullopt);
  if (op == "&" || op == "|" || op == "^") // two's complement: no wider than the wider
    return fromBits(std::max(l.bits, r.bits), std::nullopt);
  if (!r.value)
    return {};
  if (op == "**")
    return *r.value < 0 ? Magnitude::floating()
                        : fromBits(l.bits * double(*r.value), power(l.value, *r.value));
  if (op == "<<")
    return fromBits(l.bits + double(*r.value),
                    *r.value >= 0 && *r.value < 63
                        ? exactly(l.value, int64_t(1) << *r.value, mul)
                        : std::nullopt);
  return {};
}

class Sizer {
public:
  explicit Sizer(RuleContext &ctx) : ctx_(ctx) {}

  Magnitude of(const Op *op, int depth = 0) {
    if (!op)
      return {};
    if (depth > 8) // a chain this long could have built anything: assume the worst
      return {Magnitude::Int, HUGE_VAL, std::nullopt};
    switch (op->kind) {
    case OpKind::Int: return literal(op->text);
    case OpKind::Float: case OpKind::Complex: return Magnitude::floating();
    case OpKind::True: return Magnitude::integer(1);
    case OpKind::False: return Magnitude::integer(0);
    case OpKind::UnaryOp: {
      Magnitude m = of(op->operand(0), depth + 1);
      if (op->text == "not")
        return Magnitude::integer(0);
      if (op->text == "-" && m.value && *m.value != INT64_MIN)
        return Magnitude::integer(-*m.value);
      if (op->text == "~" && m.value)
        return Magnitude::integer(~*m.value);
      return m.kind == Magnitude::Length ? Magnitude{Magnitude::Int, m.bits, std::nullopt} : m;
    }
    case OpKind::BinaryOp:
      return binary(op->text, of(op->operand(0), depth + 1), of(op->operand(1), depth + 1));
    case OpKind::Name: return ofName(op, depth);
    case OpKind::Call: {
      const ValueSet &callee = ctx_.valuesOf(op->operand(0));
      auto all = [&](std::initializer_list<std::string_view> names) {
        return !callee.empty() && llvm::all_of(callee, [&](const Value &v) {
          return v.kind == ValueKind::Builtin && isOneOf(v.text, names);
        });
      };
      if (all({"len"}))
        return Magnitude{Magnitude::Length, 48, std::nullopt};
      // `int(3 ** 2**19)` is as large as its argument.
      if (all({"int", "abs"}) && op->operands.size() == 2) {
        Magnitude m = of(op->operand(1), depth + 1);
        return m.isInt() ? m : Magnitude{};
      }
      return {};
    }
    default: return {};
    }
  }

private:
  /// A name with one binding, a plain assignment, sizes as its value.
  Magnitude ofName(const Op *op, int depth) {
    NameResolution r = ctx_.values.scopes().resolve(op);
    if (!r.symbol || r.symbol->bindings.size() != 1)
      return {};
    const Binding &b = r.symbol->bindings[0];
    if (b.kind != Binding::Kind::Assign || !b.path.empty())
      return {};
    return of(b.value, depth + 1);
  }

  RuleContext &ctx_;
};

bool allTensors(RuleContext &ctx, const Op *op) {
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && std::all_of(vs.begin(), vs.end(), [](const Value &v) {
    return v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation;
  });
}

/// The symbol a name op reads or binds, or null.
const Symbol *symbolOf(RuleContext &ctx, const Op *op) {
  if (!op || !op->is(OpKind::Name))
    return nullptr;
  return ctx.values.scopes().resolve(op).symbol;
}

bool isSequence(RuleContext &ctx, const Op *op) {
  if (op && (op->is(OpKind::Str) || op->is(OpKind::Bytes) || op->is(OpKind::FString) ||
             op->is(OpKind::List) || op->is(OpKind::Tuple) || op->is(OpKind::ListComp)))
    return true;
  // The target of `xs *= n`: what its other bindings made it.
  if (op && op->is(OpKind::Name) && op->ctx == Ctx::Store) {
    const Symbol *s = symbolOf(ctx, op);
    if (!s)
      return false;
    bool any = false;
    for (const Binding &b : s->bindings) {
      if (b.kind == Binding::Kind::AugAssign)
        continue;
      if (b.kind != Binding::Kind::Assign || !b.path.empty() || !isSequence(ctx, b.value))
        return false;
      any = true;
    }
    return any;
  }
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && std::all_of(vs.begin(), vs.end(), [](const Value &v) {
    return v.kind == ValueKind::Str || v.kind == ValueKind::Container;
  });
}

void report(RuleContext &ctx, const Op &at, std::string_view why) {
  ctx.isolate(at, DiagId::UnboundedCost, {ctx.subject(), quotedSource(ctx, at), why});
}

bool isLoop(const Op &op) {
  return op.is(OpKind::For) || op.is(OpKind::ListComp) || op.is(OpKind::SetComp) ||
         op.is(OpKind::DictComp) || op.is(OpKind::GeneratorExp);
}

bool isScopeBoundary(const Op &op) {
  return op.is(OpKind::FunctionDef) || op.is(OpKind::Lambda) || op.is(OpKind::ClassDef);
}

/// The ops `op` runs inside, innermost first, in its function and within
/// the mediator: a loop around the trace runs the mediator again, not its
/// code many times.
template <typename F> bool anyEnclosing(RuleContext &ctx, const Op &op, F &&f) {
  for (const Op *p = op.parentOp(); p && !isScopeBoundary(*p) && p != ctx.m.mediator.withOp;
       p = p->parentOp())
    if (f(*p))
      return true;
  return false;
}

/// Whether `op` runs inside a loop, in the same function, that iterates
/// `target` (or any loop, when `target` is null).
bool inLoopOver(RuleContext &ctx, const Op &op, const Symbol *target) {
  return anyEnclosing(ctx, op, [&](const Op &p) {
    if (!isLoop(p))
      return false;
    if (!target)
      return true;
    // A for statement's iterable is its second operand; a comprehension's
    // first iterable is its operand, the others are in its comp_for ops.
    if (symbolOf(ctx, p.operand(p.is(OpKind::For) ? 1 : 0)) == target)
      return true;
    if (!p.is(OpKind::For))
      for (const Region &r : p.regions)
        for (const Op *c : r.ops)
          if (c->is(OpKind::CompFor) && symbolOf(ctx, c->operand(1)) == target)
            return true;
    return false;
  });
}

/// The statement an expression op belongs to: the first statement after it
/// in its region (an expression's ops precede the statement that uses them).
const Op *statementOf(const Op &op) {
  if (op.cls() == OpClass::Stmt)
    return &op;
  if (!op.parentRegion)
    return nullptr;
  bool after = false;
  for (const Op *c : op.parentRegion->ops) {
    if (c == &op)
      after = true;
    else if (after && c->cls() == OpClass::Stmt)
      return c;
  }
  return nullptr;
}

/// How many of a display's items read `self`.
int selfReferences(RuleContext &ctx, const Op &display, const Symbol *self) {
  int refs = 0;
  for (const Op *item : display.operands)
    refs += item && symbolOf(ctx, item) == self;
  return refs;
}

/// Whether a binding makes its name from a power, shift or square (`x = x ** 2`,
/// `x <<= 8`, `x *= x`): rebinding such a name compounds its size, in a loop
/// or line after line, where ivc sizes only names bound once.
bool growthBinding(RuleContext &ctx, const Binding &b) {
  const Op *v = b.kind == Binding::Kind::AugAssign && b.site ? statementOf(*b.site) : b.value;
  if (v && (v->is(OpKind::Tuple) || v->is(OpKind::List))) {
    // `x = (x, x)`: each rebinding doubles what a walk of x visits.
    const Symbol *self = symbolOf(ctx, b.site);
    return self && selfReferences(ctx, *v, self) >= 2;
  }
  if (!v || !(v->is(OpKind::BinaryOp) || v->is(OpKind::AugAssign)))
    return false;
  std::string_view o = v->text;
  if (v->is(OpKind::AugAssign))
    o = o.substr(0, o.size() - 1);
  if (o == "**" || o == "<<")
    return true;
  const Symbol *l = symbolOf(ctx, v->operand(0));
  return (o == "*" || o == "+") && l && l == symbolOf(ctx, v->operand(1));
}

/// Whether the name `base` reads may hold an integer that compounds: it is
/// bound more than once, by a growth binding among others, and the other
/// bindings are not all tensors (`h = h ** 2` on an activation stays one).
bool compounds(RuleContext &ctx, const Op *base) {
  const Symbol *s = symbolOf(ctx, base);
  if (!s || s->bindings.size() < 2)
    return false;
  bool grows = false, tensor = true;
  for (const Binding &b : s->bindings) {
    if (growthBinding(ctx, b))
      grows = true;
    else
      tensor &= b.kind == Binding::Kind::Assign && allTensors(ctx, b.value);
  }
  return grows && !tensor;
}

void checkPower(RuleContext &ctx, const Op &at, std::string_view op, const Op *base,
                const Op *exponent) {
  if (allTensors(ctx, base) || allTensors(ctx, exponent))
    return;
  Sizer size(ctx);
  Magnitude b = size.of(base), e = size.of(exponent);
  if (b.kind == Magnitude::Float || e.kind == Magnitude::Float)
    return;
  if (e.value && *e.value < 0)
    return; // a float (`**`) or a ValueError (`<<`)
  if (e.value && b.isInt()) {
    Magnitude r = binary(op, b, e);
    if (r.bits <= MaxBits)
      return;
    if (!(r.bits <= 1e18)) // a chain ivc stopped following (or NaN), beyond any machine
      return report(ctx, at, "computes an integer whose size ivc cannot bound");
    return report(ctx, at, "computes an integer of up to " + std::to_string(int64_t(r.bits)) + " bits");
  }
  if (e.value && (op == "**" ? *e.value <= MaxBlindExponent : *e.value <= MaxBits)) {
    if (compounds(ctx, base))
      report(ctx, at, "raises again an integer that its own rebinding grows");
    return;
  }
  report(ctx, at, "computes an integer whose size ivc cannot bound");
}

/// What ivc knows of a sequence a display, a repetition or a concatenation
/// makes: its length, and the items a walk of it visits (`str`, `==`,
/// `copy.deepcopy`), each nested sequence counted at every reference:
/// `[[0] * 2**12] * 2**12` is 2^12 long and reaches 2^24 + 2^12 items.
struct Extent {
  double length = 0, reach = 0;
  bool text = false; // a str or bytes: its length is in characters or bytes
};

class ExtentOf {
public:
  explicit ExtentOf(RuleContext &ctx) : ctx_(ctx) {}

  std::optional<Extent> of(const Op *op, int depth = 0) {
    // A bounded walk: displays of names of displays fan out.
    if (!op || depth > 8 || ++visits_ > 256)
      return std::nullopt;
    switch (op->kind) {
    case OpKind::Str: case OpKind::Bytes: {
      double n = double(op->text.size());
      return Extent{n, n, true};
    }
    case OpKind::List: case OpKind::Tuple: case OpKind::Set: {
      Extent e;
      for (size_t i = 0; i < op->operands.size(); ++i) {
        const Op *item = op->operand(i);
        if (!item || item->is(OpKind::Starred))
          return std::nullopt;
        std::optional<Extent> inner = of(item, depth + 1);
        e.length += 1;
        e.reach += 1 + (inner && !inner->text ? inner->reach : 0);
      }
      return e;
    }
    case OpKind::BinaryOp: return ofBinary(*op, depth);
    case OpKind::Name: {
      NameResolution r = ctx_.values.scopes().resolve(op);
      if (!r.symbol || r.symbol->bindings.size() != 1)
        return std::nullopt;
      const Binding &b = r.symbol->bindings[0];
      if (b.kind != Binding::Kind::Assign || !b.path.empty())
        return std::nullopt;
      return of(b.value, depth + 1);
    }
    default: return std::nullopt;
    }
  }

private:
  std::optional<Extent> ofBinary(const Op &op, int depth) {
    const Op *l = op.operand(0), *r = op.operand(1);
    if (op.text == "+") {
      std::optional<Extent> a = of(l, depth + 1), b = of(r, depth + 1);
      if (!a || !b)
        return std::nullopt;
      return Extent{a->length + b->length, a->reach + b->reach, a->text};
    }
    if (op.text != "*")
      return std::nullopt;
    bool lSeq = isSequence(ctx_, l);
    if (lSeq == isSequence(ctx_, r))
      return std::nullopt;
    std::optional<Extent> e = of(lSeq ? l : r, depth + 1);
    Magnitude count = Sizer(ctx_).of(lSeq ? r : l);
    if (!e || !count.value)
      return std::nullopt;
    double n = std::max(0.0, double(*count.value));
    return Extent{e->length * n, e->reach * n, e->text};
  }

  RuleContext &ctx_;
  int visits_ = 0;
};

/// Repetitions of a sequence ivc cannot size are judged from this many
/// times up: what exists already may itself be 2^24 items long.
constexpr int64_t MaxBlindRepetitions = 1 << 16;

/// Why repeating `seq` `count` times may make more than one call should,
/// if it may.
std::optional<std::string> unboundedRepetition(RuleContext &ctx, const Op *seq,
                                               const Magnitude &count) {
  if (count.kind == Magnitude::Float)
    return std::nullopt; // a TypeError
  std::optional<Extent> e = ExtentOf(ctx).of(seq);
  if (count.kind == Magnitude::Length) { // bounded by what exists, when seq is small
    if (e && e->reach <= 256)
      return std::nullopt;
    return "repeats a sequence ivc cannot size a length's number of times";
  }
  if (!count.value)
    return "repeats a sequence a number of times ivc cannot bound";
  int64_t n = *count.value;
  if (n > MaxElements)
    return "repeats a sequence " + std::to_string(n) + " times";
  if (!e) {
    if (n <= MaxBlindRepetitions)
      return std::nullopt;
    return "repeats a sequence ivc cannot size " + std::to_string(n) + " times";
  }
  double times = double(std::max<int64_t>(n, 0));
  double length = e->length * times, reach = e->reach * times;
  if (length > (e->text ? MaxFilledBytes : double(MaxElements)))
    return "makes a sequence of " + std::to_string(int64_t(length)) +
           (e->text ? " characters or bytes" : " items");
  if (!e->text && reach > double(MaxElements))
    return "makes a nested sequence that reaches " + std::to_string(int64_t(reach)) + " items";
  return std::nullopt;
}

void checkRepetition(RuleContext &ctx, const Op &at, const Op *l, const Op *r) {
  bool lSeq = isSequence(ctx, l), rSeq = isSequence(ctx, r);
  const Symbol *ls = symbolOf(ctx, l);
  if (!lSeq && !rSeq && ls && ls == symbolOf(ctx, r) && compounds(ctx, l))
    return report(ctx, at, "squares an integer that its own rebinding grows");
  if (!lSeq && !rSeq) {
    // `a * a` of a 2^19-bit `a`, line after line: each product is sized.
    // (A chain deeper than the Sizer follows is no evidence of size here:
    // only powers, shifts and rebinding amplify it.)
    Sizer size(ctx);
    Magnitude a = size.of(l), b = size.of(r);
    Magnitude product = binary("*", a, b);
    if (a.isInt() && b.isInt() && product.bits > MaxBits && product.bits <= 1e18 &&
        !allTensors(ctx, l) && !allTensors(ctx, r))
      report(ctx, at, "multiplies integers into one of up to " +
                          std::to_string(int64_t(product.bits)) + " bits");
    return;
  }
  if (lSeq == rSeq)
    return;
  Magnitude count = Sizer(ctx).of(lSeq ? r : l);
  if (std::optional<std::string> why = unboundedRepetition(ctx, lSeq ? l : r, count))
    report(ctx, at, *why);
}

/// A width or precision beyond the fill limit written in a format string or
/// spec (`'%.2000000000f'`, `f'{x:>2000000000}'`).
bool hasWideField(std::string_view text) {
  double run = 0;
  for (char c : text) {
    run = std::isdigit(static_cast<unsigned char>(c)) ? run * 10 + (c - '0') : 0;
    if (run > MaxFilledBytes)
      return true;
  }
  return false;
}

/// Whether `op` may be an integer beyond the fill limit: a width or
/// precision given as a value (`'{:>{}}'.format('', 10**10)`).
bool wideNumber(RuleContext &ctx, const Op *op) {
  Magnitude m = Sizer(ctx).of(op);
  return m.kind == Magnitude::Int && (m.value ? double(*m.value) > MaxFilledBytes : m.bits > 28);
}

/// An f-string field's spec: its text and the values nested in it.
bool wideSpec(RuleContext &ctx, const Op *spec) {
  if (!spec)
    return false;
  for (const Op *part : spec->operands) {
    if (part && part->is(OpKind::Str) && hasWideField(part->text))
      return true;
    if (part && part->is(OpKind::FormatValue) && wideNumber(ctx, part->operand(0)))
      return true;
  }
  return false;
}

/// Whether a `str.format` string nests a field in another's spec
/// (`{:>{}}`): a width or precision taken from the arguments.
bool nestsFields(std::string_view text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      if (depth == 0 && i + 1 < text.size() && text[i + 1] == '{') {
        ++i; // an escaped brace
        continue;
      }
      if (++depth > 1)
        return true;
    } else if (text[i] == '}' && depth > 0) {
      --depth;
    }
  }
  return false;
}

/// `fmt % args` and `fmt.format(*args)`: widths and precisions written in
/// the format or taken from the arguments (`%*d`, `{:>{}}`): then an
/// argument ivc sizes beyond the limit may be one.
bool wideFormat(RuleContext &ctx, const Op *format, const std::vector<const Op *> &args,
                bool percent) {
  std::optional<std::string_view> text = knownString(ctx, format);
  if (text && hasWideField(*text))
    return true;
  bool takesWidths =
      !text || (percent ? text->find('*') != std::string_view::npos : nestsFields(*text));
  return takesWidths && llvm::any_of(args, [&](const Op *a) { return wideNumber(ctx, a); });
}

/// `xs + ys` of sizes ivc evaluates, where the sum first passes the limit
/// (`a + b + c` is judged once, where it crosses).
void checkConcatenation(RuleContext &ctx, const Op &at) {
  const Symbol *ls = symbolOf(ctx, at.operand(0));
  if (ls && ls == symbolOf(ctx, at.operand(1)) && compounds(ctx, at.operand(0)) &&
      llvm::any_of(ls->bindings, [&](const Binding &b) {
        return b.kind == Binding::Kind::Assign && isSequence(ctx, b.value);
      }))
    return report(ctx, at, "doubles a sequence that its own rebinding grows");
  std::optional<Extent> l = ExtentOf(ctx).of(at.operand(0));
  std::optional<Extent> r = ExtentOf(ctx).of(at.operand(1));
  if (!l || !r)
    return;
  Extent sum{l->length + r->length, l->reach + r->reach, l->text};
  double limit = sum.text ? MaxFilledBytes : double(MaxElements);
  auto over = [&](const Extent &e) { return e.length > limit || (!e.text && e.reach > limit); };
  if (over(sum) && !over(*l) && !over(*r))
    report(ctx, at, "makes a sequence of " + std::to_string(int64_t(sum.length)) +
                        (sum.text ? " characters or bytes" : " items"));
}

void checkBinary(Op &op, RuleContext &ctx) {
  std::string_view o = op.text;
  if (op.is(OpKind::AugAssign))
    o = o.substr(0, o.size() - 1);
  if (o == "**" || o == "<<")
    checkPower(ctx, op, o, op.operand(0), op.operand(1));
  else if (o == "*")
    checkRepetition(ctx, op, op.operand(0), op.operand(1));
  else if (o == "+" && op.is(OpKind::BinaryOp))
    checkConcatenation(ctx, op);
  else if (o == "%" && op.is(OpKind::BinaryOp) && isSequence(ctx, op.operand(0))) {
    const Op *rhs = op.operand(1);
    std::vector<const Op *> args{rhs};
    if (rhs && rhs->is(OpKind::Tuple))
      args.assign(rhs->operands.begin(), rhs->operands.end());
    if (wideFormat(ctx, op.operand(0), args, true))
      report(ctx, op, "formats a field of a width or precision beyond 2^28");
  }
}

/// `pow(b, e, m)`: about one multiplication modulo m per bit of e, each
/// growing as m's bits to the power 1.585 (Karatsuba). Measured with
/// CPython 3.11 here: 64 steps modulo a 415,000-bit m took 5.8 s; the
/// bound keeps a call near 0.1 s.
void checkModularPower(RuleContext &ctx, const Op &call) {
  Sizer size(ctx);
  Magnitude e = size.of(argument(call, 1, "exp")), m = size.of(argument(call, 2, "mod"));
  if (e.kind == Magnitude::Float || m.kind == Magnitude::Float)
    return; // a TypeError
  if (e.isInt() && m.isInt() && e.bits * std::pow(m.bits, 1.585) <= 1e9)
    return;
  report(ctx, call, e.isInt() && m.isInt() && m.bits <= 1e18
                        ? "computes a modular power with a " + std::to_string(int64_t(m.bits)) +
                              "-bit modulus and a " + std::to_string(int64_t(e.bits)) +
                              "-bit exponent"
                        : std::string("computes a modular power of sizes ivc cannot bound"));
}

/// `map(pow, [3], [10**8])`, `reduce(operator.mul, xs)`: an operator
/// whose cost follows its operands, handed to a callee that applies it to
/// values ivc does not see together.
std::optional<std::string> arithmeticHandedOn(RuleContext &ctx, const Op &call) {
  for (size_t i = 1; i < call.operands.size(); ++i) {
    const Op *a = call.operand(i);
    if (a && (a->is(OpKind::Keyword) || a->is(OpKind::Starred)))
      a = a->operand(0);
    for (const Value &v : a ? ctx.valuesOf(a) : ValueSet{})
      if ((v.kind == ValueKind::Builtin && v.text == "pow") ||
          (v.kind == ValueKind::Qualified &&
           isOneOf(v.text, {"operator.pow", "operator.ipow", "operator.mul", "operator.imul",
                            "operator.lshift", "operator.ilshift", "math.prod", "math.lcm",
                            "math.factorial", "math.comb", "math.perm"})))
        return "hands '" + std::string(v.text) + "' to a callee that applies it to values ivc does not size";
  }
  return std::nullopt;
}

/// A call's positional arguments, up to a `*args`.
std::vector<const Op *> positionalArguments(const Op &call) {
  std::vector<const Op *> args;
  while (const Op *a = positionalArgument(call, args.size()))
    args.push_back(a);
  return args;
}

/// The length of `range(*args)` or `torch.arange(*args)` when every argument
/// is an integer ivc evaluates.
std::optional<double> rangeLength(RuleContext &ctx, const std::vector<const Op *> &args) {
  if (args.empty() || args.size() > 3)
    return std::nullopt;
  Sizer size(ctx);
  std::vector<double> v;
  for (const Op *a : args) {
    Magnitude m = size.of(a);
    if (!m.value)
      return std::nullopt; // floats and unknowns
    v.push_back(double(*m.value));
  }
  double start = v.size() > 1 ? v[0] : 0, end = v.size() > 1 ? v[1] : v[0];
  double step = v.size() == 3 ? std::fabs(v[2]) : 1;
  if (step == 0)
    return std::nullopt;
  return std::ceil(std::fabs(end - start) / step);
}

/// Whether a range call's length is bounded.
bool boundedRange(RuleContext &ctx, const std::vector<const Op *> &args) {
  if (args.size() == 1 && Sizer(ctx).of(args[0]).kind == Magnitude::Length)
    return true;
  std::optional<double> n = rangeLength(ctx, args);
  return n && *n <= double(MaxElements);
}

/// A callee whose result iterates its arguments lazily: a Python loop over
/// it releases the GIL between items.
bool isLazyWrapper(const Value &v) {
  return (v.kind == ValueKind::Builtin &&
          isOneOf(v.text, {"enumerate", "zip", "reversed", "map", "filter", "iter"})) ||
         (v.kind == ValueKind::Qualified && v.text.starts_with("itertools."));
}

/// A builtin that takes a range without iterating it.
bool isConstantTimeOnRanges(const Value &v) {
  return v.kind == ValueKind::Builtin &&
         isOneOf(v.text, {"len", "bool", "repr", "str", "print", "isinstance", "type", "id",
                          "hash"});
}

/// Whether `op` may evaluate to a range longer than MaxElements or of a
/// length ivc cannot bound, or to a lazy wrapper over one: a call of `range`,
/// a slice of one (a range too), or a name bound to one (`r = range(n)` ...
/// `sum(r)`). `evidently`: only a range whose length ivc evaluates.
bool mayBeLongRange(RuleContext &ctx, const Op *op, bool evidently = false, int depth = 0) {
  if (!op || depth > 8)
    return false;
  auto inner = [&](const Op *o) { return mayBeLongRange(ctx, o, evidently, depth + 1); };
  if (op->is(OpKind::Call)) {
    std::vector<const Op *> args = positionalArguments(*op);
    for (const Value &v : ctx.valuesOf(op->operand(0))) {
      if (v.kind == ValueKind::Builtin && v.text == "range") {
        std::optional<double> n = rangeLength(ctx, args);
        if (evidently ? n && *n > double(MaxElements) : !boundedRange(ctx, args))
          return true;
      }
      if (isLazyWrapper(v) && llvm::any_of(args, inner))
        return true;
    }
    return false;
  }
  if (op->is(OpKind::Subscript))
    return op->operand(1) && op->operand(1)->is(OpKind::Slice) && inner(op->operand(0));
  if (op->is(OpKind::Name) && op->ctx == Ctx::Load) {
    const Symbol *s = symbolOf(ctx, op);
    if (!s)
      return false;
    // A read's answer is its symbol's; it is kept only when worked out from
    // the top (deeper, the depth bound may have cut it short).
    llvm::DenseMap<const Symbol *, bool> &memo = ctx.memo.longRangeNames[evidently];
    if (depth == 0)
      if (auto it = memo.find(s); it != memo.end())
        return it->second;
    bool found = llvm::any_of(s->bindings, [&](const Binding &b) {
      return (b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus) &&
             b.path.empty() && inner(b.value);
    });
    if (depth == 0)
      memo[s] = found;
    return found;
  }
  return false;
}

/// Why calling `callee` in `call` may do work without a bound, if it may.
std::optional<std::string> unboundedCall(RuleContext &ctx, const Op &call,
                                              const Value &callee,
                                              const std::vector<const Op *> &args) {
  std::string_view f = callee.text;
  // One call that iterates a range (`sum(r)`, `list(zip(r, xs))`) does it in
  // C, without releasing the GIL; a for loop over it (or over a lazy wrapper
  // of it) is Python's loop.
  if (!isLazyWrapper(callee) && !isConstantTimeOnRanges(callee))
    for (size_t i = 1; i < call.operands.size(); ++i) {
      const Op *a = call.operand(i);
      if (a && a->is(OpKind::Keyword))
        a = a->operand(0);
      if (a && !a->is(OpKind::Starred) && mayBeLongRange(ctx, a))
        return "iterates a range whose length ivc cannot bound";
    }
  // `bytes(n)` and `s.ljust(n)` allocate and fill n bytes or characters in
  // one call; n from an activation or a length is not judged.
  const Op *size = nullptr;
  if (callee.kind == ValueKind::Builtin && isOneOf(f, {"bytes", "bytearray"}) && args.size() == 1)
    size = args[0];
  // `str.ljust(s, n)` takes the string first.
  if (callee.kind == ValueKind::Method && isOneOf(f, {"ljust", "rjust", "center", "zfill"}))
    size = argument(call, callee.receiver == ValueKind::Builtin ? 1 : 0, "width");
  const Op *attr = call.operand(0);
  if (callee.kind == ValueKind::Method && isOneOf(f, {"format", "format_map"}) && attr &&
      attr->is(OpKind::Attribute) && wideFormat(ctx, attr->operand(0), args, false))
    return "formats a field of a width or precision beyond 2^28";
  if (callee.kind == ValueKind::Builtin && f == "format")
    if (std::optional<std::string_view> spec = knownString(ctx, argument(call, 1, "format_spec"));
        spec && hasWideField(*spec))
      return "formats a field of a width or precision beyond 2^28";
  // math.prod(range(1, n)) is n factorial.
  if (callee.kind == ValueKind::Qualified && isOneOf(f, {"math.prod", "math.lcm"}))
    for (size_t i = 1; i < call.operands.size(); ++i) {
      const Op *a = call.operand(i);
      if (a && a->is(OpKind::Starred))
        a = a->operand(0);
      if (a && a->is(OpKind::Call)) {
        std::optional<double> n = rangeLength(ctx, positionalArguments(*a));
        bool isRange = llvm::any_of(ctx.valuesOf(a->operand(0)), [](const Value &v) {
          return v.kind == ValueKind::Builtin && v.text == "range";
        });
        if (isRange && (!n || *n > double(MaxFactorial)))
          return "multiplies the integers of a range longer than 2^14 in one call";
      }
    }
  if (size) {
    Magnitude m = Sizer(ctx).of(size);
    if (m.kind == Magnitude::Int && (m.value ? double(*m.value) > MaxFilledBytes : m.bits > 28))
      return m.value ? "fills " + std::to_string(*m.value) + " bytes or characters"
                     : "fills a number of bytes or characters ivc cannot bound";
  }
  // `sum(xss, [])` copies the running total at every item: quadratic.
  if (callee.kind == ValueKind::Builtin && f == "sum")
    if (const Op *start = argument(call, 1, "start"); start && isSequence(ctx, start)) {
      std::optional<Extent> e = ExtentOf(ctx).of(argument(call, 0, "iterable"));
      if (!e || e->length * e->reach > double(MaxElements))
        return "concatenates sequences with 'sum', which copies the total at every item";
    }
  if (callee.kind == ValueKind::Qualified &&
      isOneOf(f, {"math.factorial", "math.comb", "math.perm"}))
    for (const Op *a : args) {
      Magnitude m = Sizer(ctx).of(a);
      if (!m.value)
        return "calls '" + std::string(f) + "' with an argument ivc cannot bound";
      if (*m.value > MaxFactorial)
        return "calls '" + std::string(f) + "' with " + std::to_string(*m.value);
    }
  // `xs.append(...)` inside `for x in xs:` never ends.
  if (callee.kind == ValueKind::Method && isOneOf(f, {"append", "extend", "insert"})) {
    const Op *attr = call.operand(0);
    const Symbol *list =
        attr && attr->is(OpKind::Attribute) ? symbolOf(ctx, attr->operand(0)) : nullptr;
    if (list && inLoopOver(ctx, call, list))
      return "extends the list its loop iterates";
  }
  return std::nullopt;
}

/// The product of `dims` when every one is an integer ivc evaluates, else
/// nullopt (a shape from an activation, or `*shape`).
std::optional<double> product(RuleContext &ctx, const std::vector<const Op *> &dims) {
  Sizer size(ctx);
  double n = 1;
  for (const Op *d : dims) {
    Magnitude m = d && !d->is(OpKind::Starred) ? size.of(d) : Magnitude{};
    if (!m.value || *m.value < 0)
      return std::nullopt;
    n *= double(*m.value);
  }
  return n;
}

/// The dimensions a shape argument lists: a tuple or list display, or
/// `torch.Size` of one.
std::optional<std::vector<const Op *>> shapeOf(RuleContext &ctx, const Op *shape) {
  if (shape && shape->is(OpKind::Call) && shape->operands.size() == 2) {
    const ValueSet &callee = ctx.valuesOf(shape->operand(0));
    if (callee.size() == 1 && callee[0].kind == ValueKind::Qualified &&
        callee[0].text == "torch.Size")
      shape = shape->operand(1);
  }
  if (!shape || !(shape->is(OpKind::Tuple) || shape->is(OpKind::List)))
    return std::nullopt;
  std::vector<const Op *> dims;
  for (size_t i = 0; i < shape->operands.size(); ++i)
    dims.push_back(shape->operand(i));
  return dims;
}

/// A call's positional arguments with `*[a, b]` spread among them (`*xs`
/// of anything else stays, and sizes as nothing).
std::vector<const Op *> spread(const Op &call) {
  std::vector<const Op *> dims;
  for (size_t i = 1; i < call.operands.size(); ++i) {
    const Op *a = call.operand(i);
    if (!a || a->is(OpKind::Keyword) || a->is(OpKind::KwSplat))
      continue;
    const Op *inner = a && a->is(OpKind::Starred) ? a->operand(0) : nullptr;
    if (inner && (inner->is(OpKind::Tuple) || inner->is(OpKind::List)))
      for (size_t i = 0; i < inner->operands.size(); ++i)
        dims.push_back(inner->operand(i));
    else
      dims.push_back(a);
  }
  return dims;
}

/// The elements of a shape given as one display or as sizes one by one
/// (`zeros((a, b))`, `zeros(a, b)`, `new_zeros(*[a, b])`).
std::optional<double> shapeElements(RuleContext &ctx, const std::vector<const Op *> &dims) {
  if (dims.size() == 1)
    if (std::optional<std::vector<const Op *>> d = shapeOf(ctx, dims[0]))
      return product(ctx, *d);
  return dims.empty() ? std::nullopt : product(ctx, dims);
}

/// How many float32 elements' worth of memory one element of the dtype a
/// call asks for takes (`dtype=torch.float64`: 2).
double dtypeWidth(RuleContext &ctx, const Op &call) {
  const Op *dtype = keywordArgument(call, "dtype");
  double width = 1;
  for (const Value &v : dtype ? ctx.valuesOf(dtype) : ValueSet{})
    if (v.kind == ValueKind::Qualified) {
      if (isOneOf(v.text, {"torch.float64", "torch.double", "torch.int64", "torch.long",
                           "torch.complex64", "torch.cfloat"}))
        width = std::max(width, 2.0);
      if (isOneOf(v.text, {"torch.complex128", "torch.cdouble"}))
        width = std::max(width, 4.0);
    }
  return width;
}

/// How many elements the torch factory `f` (`torch.` stripped) makes in
/// `call`, when its shape is made of constants ivc evaluates.
std::optional<double> factoryElements(RuleContext &ctx, const Op &call, std::string_view f) {
  std::vector<const Op *> pos = positionalArguments(call);
  auto dims = [&](const Op *shape) -> std::optional<double> {
    std::optional<std::vector<const Op *>> d = shapeOf(ctx, shape);
    return d ? product(ctx, *d) : std::nullopt;
  };
  if (isOneOf(f, {"zeros", "ones", "empty", "rand", "randn"})) {
    if (const Op *size = keywordArgument(call, "size"))
      return dims(size);
    return shapeElements(ctx, spread(call));
  }
  if (isOneOf(f, {"hann_window", "hamming_window", "bartlett_window", "blackman_window",
                  "kaiser_window"}))
    return product(ctx, {argument(call, 0, "window_length")});
  if (isOneOf(f, {"tril_indices", "triu_indices"})) // 2 x up to row * col
    if (std::optional<double> n = product(ctx, {argument(call, 0, "row"), argument(call, 1, "col")}))
      return 2 * *n;
  if (f == "full")
    return dims(argument(call, 0, "size"));
  if (f == "randint") { // (high, size) or (low, high, size)
    const Op *size = keywordArgument(call, "size");
    return dims(size ? size : pos.empty() ? nullptr : pos.back());
  }
  if (f == "randperm")
    return product(ctx, {argument(call, 0, "n")});
  if (f == "eye") {
    const Op *n = argument(call, 0, "n"), *m = argument(call, 1, "m");
    return product(ctx, {n, m ? m : n});
  }
  if (isOneOf(f, {"linspace", "logspace"}))
    return product(ctx, {argument(call, 2, "steps")});
  if (f == "arange" && !keywordArgument(call, "start") && !keywordArgument(call, "end") &&
      !keywordArgument(call, "step"))
    return rangeLength(ctx, pos);
  return std::nullopt;
}

/// "1073741824 elements", "268435456 elements of 8 bytes".
std::string elementsText(double n, double width) {
  std::string text = (n < 1e18 ? std::to_string(int64_t(n)) : "over 10^18") + " elements";
  return width > 1 ? text + " of " + std::to_string(int(4 * width)) + " bytes" : text;
}

/// The elements of the tensor `op` makes when it is a torch factory call of
/// a constant shape, directly or through a name bound once.
std::optional<double> tensorElements(RuleContext &ctx, const Op *op, int depth = 0) {
  if (!op || depth > 8)
    return std::nullopt;
  if (op->is(OpKind::Name)) {
    const Symbol *s = symbolOf(ctx, op);
    if (!s || s->bindings.size() != 1 || s->bindings[0].kind != Binding::Kind::Assign ||
        !s->bindings[0].path.empty())
      return std::nullopt;
    return tensorElements(ctx, s->bindings[0].value, depth + 1);
  }
  if (!op->is(OpKind::Call))
    return std::nullopt;
  for (const Value &v : ctx.valuesOf(op->operand(0)))
    if (v.kind == ValueKind::Qualified && v.text.starts_with("torch."))
      if (std::optional<double> n = factoryElements(ctx, *op, std::string_view(v.text).substr(6)))
        return n;
  return std::nullopt;
}

/// Why a tensor method with constant sizes (`h.new_zeros(2**30)`,
/// `h.expand(2**18, 8, 768)`, `t.repeat(16)` of a 2^27-element `t`) may
/// allocate beyond the limit, if it may. The receiver's size is known only
/// when a factory of a constant shape made it.
std::optional<std::string> tensorMethodCost(RuleContext &ctx, const Op &call, std::string_view m) {
  const Op *attr = call.operand(0);
  std::optional<double> receiver =
      attr && attr->is(OpKind::Attribute) ? tensorElements(ctx, attr->operand(0)) : std::nullopt;
  std::optional<double> n;
  if (isOneOf(m, {"new_zeros", "new_ones", "new_empty"}))
    n = keywordArgument(call, "size") ? shapeElements(ctx, {keywordArgument(call, "size")})
                                       : shapeElements(ctx, spread(call));
  else if (m == "new_full")
    n = shapeElements(ctx, {argument(call, 0, "size")});
  else if (isOneOf(m, {"expand", "broadcast_to"})) {
    // -1 keeps the receiver's size there: counted as 1.
    std::vector<const Op *> dims;
    for (const Op *d : spread(call))
      if (!(d && d->is(OpKind::UnaryOp) && d->text == "-"))
        dims.push_back(d);
    n = shapeElements(ctx, dims);
  } else if (isOneOf(m, {"repeat", "tile", "repeat_interleave"})) {
    std::optional<double> times = shapeElements(ctx, m == "repeat_interleave"
                                                         ? std::vector<const Op *>{argument(call, 0, "repeats")}
                                                         : spread(call));
    if (!times)
      return std::nullopt;
    if (!receiver)
      return *times > double(MaxBlindRepetitions)
                 ? std::optional<std::string>("repeats a tensor " +
                                              std::to_string(int64_t(*times)) + " times")
                 : std::nullopt;
    n = *times * *receiver;
  }
  double width = dtypeWidth(ctx, call);
  if (n && *n * width > MaxTensorElements)
    return "makes a tensor of " + elementsText(*n, width);
  return std::nullopt;
}

void checkCallCost(Op &call, RuleContext &ctx) {
  std::vector<const Op *> args = positionalArguments(call);
  for (const Value &v : ctx.valuesOf(call.operand(0))) {
    if (v.kind == ValueKind::Qualified && v.text.starts_with("torch.")) {
      std::optional<double> n = factoryElements(ctx, call, std::string_view(v.text).substr(6));
      double width = dtypeWidth(ctx, call);
      if (n && *n * width > MaxTensorElements)
        return report(ctx, call, "allocates a tensor of " + elementsText(*n, width));
    }
    if (v.kind == ValueKind::Method &&
        (v.receiver == ValueKind::Tensor || v.receiver == ValueKind::Activation))
      if (std::optional<std::string> why = tensorMethodCost(ctx, call, v.text))
        return report(ctx, call, *why);
    bool isPow = (v.kind == ValueKind::Builtin && v.text == "pow") ||
                 (v.kind == ValueKind::Qualified && v.text == "operator.pow");
    if (isPow && argument(call, 2, "mod"))
      return checkModularPower(ctx, call);
    if (isPow)
      return checkPower(ctx, call, "**", argument(call, 0, "base"), argument(call, 1, "exp"));
    // operator.mul is `*`, a repetition or a product.
    if (v.kind == ValueKind::Qualified && v.text == "operator.mul")
      return checkRepetition(ctx, call, argument(call, 0, "a"), argument(call, 1, "b"));
    if (std::optional<std::string> why = arithmeticHandedOn(ctx, call))
      return report(ctx, call, *why);
    if (std::optional<std::string> why = unboundedCall(ctx, call, v, args))
      return report(ctx, call, *why);
  }
}

} // namespace

void checkCost(Op &op, RuleContext &ctx) {
  switch (op.kind) {
  case OpKind::BinaryOp:
    return checkBinary(op, ctx);
  case OpKind::AugAssign: {
    checkBinary(op, ctx);
    const Symbol *list = symbolOf(ctx, op.operand(0));
    if (list && isOneOf(op.text, {"+=", "*="}) && inLoopOver(ctx, op, list))
      return report(ctx, op, "extends the list its loop iterates");
    // `s *= 2` or `s += s` at every turn of a loop: geometric growth.
    bool doubles = op.text == "*=" || (op.text == "+=" && list && list == symbolOf(ctx, op.operand(1)));
    if (doubles && isSequence(ctx, op.operand(0)) && inLoopOver(ctx, op, nullptr))
      report(ctx, op, "repeats a sequence at every turn of a loop");
    return;
  }
  case OpKind::FormatValue:
    if (wideSpec(ctx, op.operand(1)))
      report(ctx, op, "formats a field of a width or precision beyond 2^28");
    return;
  case OpKind::Tuple: case OpKind::List: {
    // `x = (x, x)` rebound line after line or in a loop.
    for (const Op *item : op.operands)
      if (const Symbol *s = symbolOf(ctx, item);
          s && selfReferences(ctx, op, s) >= 2 && compounds(ctx, item))
        return report(ctx, op, "nests a sequence in itself twice, which its rebinding doubles");
    return;
  }
  case OpKind::Call:
    return checkCallCost(op, ctx);
  case OpKind::Starred: // `f(*r)`, `[*r]`: unpacked in C, whatever receives it
    if (op.ctx == Ctx::Load && mayBeLongRange(ctx, op.operand(0)))
      report(ctx, op, "unpacks a range whose length ivc cannot bound");
    return;
  case OpKind::ListComp: case OpKind::SetComp: case OpKind::DictComp: {
    // A Python loop, interrupted at the deadline, but one that keeps all it
    // makes: the server's memory goes first. Only evident lengths: `range(n)`
    // of a length from a config is how traces walk layers.
    bool huge = mayBeLongRange(ctx, op.operand(0), /*evidently=*/true);
    for (const Region &r : op.regions)
      for (const Op *c : r.ops)
        huge |= c->is(OpKind::CompFor) &&
                mayBeLongRange(ctx, c->operand(1), /*evidently=*/true);
    if (huge)
      report(ctx, op, "builds a collection of more than 2^24 items from a range");
    return;
  }
  default:
    return;
  }
}

} // namespace ivc::rules
