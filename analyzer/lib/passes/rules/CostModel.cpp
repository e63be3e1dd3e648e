//===- CostModel.cpp - Sizes of integers and calls for the cost rules -----===//
//
// Integers are sized in bits from literals through arithmetic and names bound
// once; a chain longer than the Sizer follows is taken as unbounded, which
// powers and shifts must assume and products need not (Cost.cpp).
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace ivc::rules::cost {

using namespace ir;

namespace {

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



} // namespace

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

Magnitude Sizer::of(const Op *op, int depth) {
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
  case OpKind::Name: return of(onlyAssignedValue(ctx_, op), depth + 1);
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


bool allTensors(RuleContext &ctx, const Op *op) {
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && std::all_of(vs.begin(), vs.end(), [](const Value &v) {
    return v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation;
  });
}

const Symbol *symbolOf(RuleContext &ctx, const Op *op) {
  if (!op || !op->is(OpKind::Name))
    return nullptr;
  return ctx.values.scopes().resolve(op).symbol;
}

void report(RuleContext &ctx, const Op &at, std::string_view why) {
  ctx.isolate(at, DiagId::UnboundedCost, {ctx.subject(), quotedSource(ctx, at), why});
}

std::vector<const Op *> positionalArguments(const Op &call) {
  std::vector<const Op *> args;
  while (const Op *a = positionalArgument(call, args.size()))
    args.push_back(a);
  return args;
}

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

} // namespace ivc::rules::cost
