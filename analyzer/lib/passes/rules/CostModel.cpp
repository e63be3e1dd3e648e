//===- CostModel.cpp - Sizes of integers and calls for the cost rules -----===//
//
// Integers are sized in bits from literals through arithmetic and names bound
// once; a chain longer than the Sizer follows is taken as unbounded, which
// powers and shifts must assume and products need not (Cost.cpp).
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

#include "ivc/support/Text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace ivc::rules::cost {

using namespace ir;

namespace {

Magnitude literal(std::string_view text) {
  if (std::optional<int64_t> v = pythonInt(text))
    return Magnitude::integer(*v);
  // Too large for an int64: as many bits as its digits carry.
  bool prefixed = text.size() > 1 && text[0] == '0' && std::isalpha(static_cast<unsigned char>(text[1]));
  char p = prefixed ? char(std::tolower(static_cast<unsigned char>(text[1]))) : 'd';
  double bitsPerDigit = p == 'x' ? 4 : p == 'o' ? 3 : p == 'b' ? 1 : std::log2(10.0);
  double digits = 0;
  for (char c : text.substr(prefixed ? 2 : 0))
    digits += c != '_';
  return {Magnitude::Int, digits * bitsPerDigit + 1, std::nullopt};
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
// Python's // and % round toward negative infinity.
bool floorDiv(int64_t a, int64_t b, int64_t *r) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    return true;
  *r = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
  return false;
}
bool floorMod(int64_t a, int64_t b, int64_t *r) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    return true;
  *r = a % b;
  if (*r != 0 && ((*r < 0) != (b < 0)))
    *r += b;
  return false;
}
bool shiftRight(int64_t a, int64_t b, int64_t *r) {
  if (b < 0)
    return true;
  *r = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;
  return false;
}
bool bitAnd(int64_t a, int64_t b, int64_t *r) { return *r = a & b, false; }
bool bitOr(int64_t a, int64_t b, int64_t *r) { return *r = a | b, false; }
bool bitXor(int64_t a, int64_t b, int64_t *r) { return *r = a ^ b, false; }

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
    return fromBits(l.bits, exactly(l.value, r.value, op == "//" ? floorDiv : shiftRight));
  if (op == "%") // takes the divisor's sign and size
    return fromBits(r.bits, exactly(l.value, r.value, floorMod));
  if (op == "&" || op == "|" || op == "^") // two's complement: no wider than the wider
    return fromBits(std::max(l.bits, r.bits), exactly(l.value, r.value, op == "&"   ? bitAnd
                                                                         : op == "|" ? bitOr
                                                                                     : bitXor));
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
  case OpKind::NamedExpr: return of(op->operand(0), depth + 1); // `(n := 2**33)`
  case OpKind::Subscript: { // `N[0]` of `N = [2**29]`, `D["n"]` of `D = {"n": 2**29}`
    const Op *display = valueBehindNames(ctx_, op->operand(0));
    if (!display || !ctx_.values.unchanging(display))
      return {};
    if (display->is(OpKind::List) || display->is(OpKind::Tuple)) {
      Magnitude i = of(op->operand(1), depth + 1);
      int64_t n = int64_t(display->operands.size());
      if (!i.value || *i.value < -n || *i.value >= n)
        return {};
      const Op *item = display->operand(size_t(*i.value < 0 ? *i.value + n : *i.value));
      return item && !item->is(OpKind::Starred) ? of(item, depth + 1) : Magnitude{};
    }
    std::optional<std::string_view> key = knownString(ctx_, op->operand(1));
    if (display->is(OpKind::Dict) && key)
      for (size_t i = 0; i + 1 < display->operands.size(); i += 2) {
        if (!display->operand(i))
          return {}; // a `**` splat may hold the key
        if (knownString(ctx_, display->operand(i)) == key)
          return of(display->operand(i + 1), depth + 1);
      }
    return {};
  }
  case OpKind::Name:
    if (const Op *value = onlyAssignedValue(ctx_, op))
      return of(value, depth + 1);
    return ofBindings(op, depth + 1);
  case OpKind::Call: {
    const ValueSet &callee = ctx_.valuesOf(op->operand(0));
    auto all = [&](std::initializer_list<std::string_view> names) {
      return !callee.empty() && llvm::all_of(callee, [&](const Value &v) {
        return v.kind == ValueKind::Builtin && isOneOf(v.text, names);
      });
    };
    if (all({"len"}) && op->operands.size() == 2) {
      const Op *x = op->operand(1);
      if (std::optional<double> n = iterableLength(ctx_, x); n && *n < 9.2e18)
        return Magnitude::integer(int64_t(*n));
      if (lengthExists(ctx_, x) || anyTensor(ctx_, x))
        return Magnitude{Magnitude::Length, 48, std::nullopt};
      return {};
    }
    // `max(2**33, 1)`, `pow(2, 33)`: what they compute from sized integers.
    // A length beside a number past 2^16 is that number at least
    // (`max(len(h), 2**31)`).
    if (all({"max"}) && op->operands.size() > 2) {
      bool length = false;
      std::optional<int64_t> largest;
      for (size_t i = 1; i < op->operands.size(); ++i) {
        Magnitude n = of(op->operand(i), depth + 1);
        length |= n.kind == Magnitude::Length;
        if (n.value && (!largest || *n.value > *largest))
          largest = n.value;
      }
      if (length && largest && *largest > (1 << 16))
        return Magnitude{Magnitude::Int, Magnitude::integer(*largest).bits + 1, std::nullopt};
    }
    if (all({"max", "min"}) && op->operands.size() > 2) {
      Magnitude m = of(op->operand(1), depth + 1);
      for (size_t i = 2; i < op->operands.size() && m.isInt(); ++i) {
        Magnitude n = of(op->operand(i), depth + 1);
        if (!n.isInt())
          return {};
        bool takeN = callee[0].text == "max" ? (n.value && m.value ? *n.value > *m.value
                                                                    : n.bits > m.bits)
                                              : (n.value && m.value ? *n.value < *m.value
                                                                    : n.bits < m.bits);
        if (takeN)
          m = n;
      }
      return m.isInt() ? m : Magnitude{};
    }
    if (all({"pow"}) && op->operands.size() == 3)
      return binary("**", of(op->operand(1), depth + 1), of(op->operand(2), depth + 1));
    // `int(3 ** 2**19)` is as large as its argument, `int(1e12)` as the float.
    if (all({"int", "abs", "round"}) && op->operands.size() == 2) {
      // `int(float(n))`, `int(str(n))`: n, as far as size goes.
      const Op *arg = op->operand(1);
      while (arg && arg->is(OpKind::Call) && arg->operands.size() == 2 &&
             llvm::any_of(ctx_.valuesOf(arg->operand(0)), [](const Value &v) {
               return v.kind == ValueKind::Builtin && isOneOf(v.text, {"float", "str", "int"});
             }))
        arg = arg->operand(1);
      Magnitude m = of(arg, depth + 1);
      if (m.kind == Magnitude::Float)
        return ofFloat(arg);
      return m.isInt() ? m : Magnitude{};
    }
    // `int('1' * 2**24, 2)`, `int.from_bytes(b'\xff' * n, 'big')`: as many
    // bits as the digits or bytes say.
    if (all({"int"}) && positionalArgument(*op, 1))
      return ofParsed(positionalArgument(*op, 0), positionalArgument(*op, 1), depth + 1);
    if (callee.size() == 1 && callee[0].kind == ValueKind::Method &&
        callee[0].receiver == ValueKind::Builtin && callee[0].text == "from_bytes") {
      std::optional<double> n = textLength(ctx_, argument(*op, 0, "bytes"));
      return n ? Magnitude{Magnitude::Int, 8 * *n + 1, std::nullopt} : Magnitude{};
    }
    return {};
  }
  default: return {};
  }
}

bool reads(RuleContext &ctx, const Op *op, const Symbol *s, int &budget) {
  if (!op || --budget < 0)
    return budget < 0;
  if (op->is(OpKind::Name) && symbolOf(ctx, op) == s)
    return true;
  return llvm::any_of(op->operands, [&](const Op *o) { return reads(ctx, o, s, budget); });
}

Magnitude Sizer::ofBindings(const Op *name, int depth) {
  // `n = 1` ... `n = 2**33`, `for n in [2**33]`, `(n := 2**33)`, a
  // parameter's arguments: the largest of what each binding makes, when
  // every one is sized and none reads the name again (a counter's growth is
  // judged where it compounds).
  const Symbol *s = symbolOf(ctx_, name);
  if (!s || s->bindings.empty() || s->bindings.size() > 8 || ctx_.values.fromCaller(name))
    return {};
  std::vector<const Op *> values;
  for (const Binding &b : s->bindings) {
    // A parameter: what every call passes (`h = mk(3)`: 3).
    if (b.kind == Binding::Kind::Param && b.site) {
      if (b.site->paramKind() == ParamKind::VarArgs || b.site->paramKind() == ParamKind::VarKeywords)
        return {}; // a tuple or dict of them
      size_t before = values.size();
      if (!ctx_.values.argumentsOf(*b.site, values) ||
          llvm::any_of(llvm::drop_begin(values, before), [](const Op *a) {
            return !a || a->is(OpKind::Starred) || a->is(OpKind::KwSplat);
          }))
        return {};
      continue;
    }
    if (!b.path.empty() || !b.value)
      return {};
    if (b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus)
      values.push_back(b.value);
    else if (b.kind == Binding::Kind::Loop &&
             (b.value->is(OpKind::List) || b.value->is(OpKind::Tuple)))
      values.insert(values.end(), b.value->operands.begin(), b.value->operands.end());
    else
      return {};
  }
  Magnitude largest;
  for (const Op *v : values) {
    int budget = 64;
    if (reads(ctx_, v, s, budget))
      return {};
    Magnitude m = of(v, depth);
    if (!m.isInt())
      return {};
    bool larger = largest.kind == Magnitude::Unknown ||
                  (m.value && largest.value ? *m.value > *largest.value : m.bits > largest.bits);
    if (larger)
      largest = m;
    else if (!m.value)
      largest.value.reset(); // no longer exact
  }
  return largest;
}

Magnitude Sizer::ofFloat(const Op *op) {
  std::optional<double> f = floatLiteral(valueBehindNames(ctx_, op));
  if (!f)
    return {}; // `int(a / b)`: as unknown as it was
  double v = std::trunc(*f);
  if (!std::isfinite(v))
    return {}; // an OverflowError
  if (std::fabs(v) < 9.2e18)
    return Magnitude::integer(int64_t(v));
  return {Magnitude::Int, std::floor(std::log2(std::fabs(v))) + 1, std::nullopt};
}

Magnitude Sizer::ofParsed(const Op *digits, const Op *base, int depth) {
  std::optional<double> n = textLength(ctx_, digits);
  if (!n)
    return {};
  Magnitude b = of(base, depth);
  int64_t radix = b.value ? *b.value : 0;
  // CPython refuses more than 4300 digits in a base that is not a power of
  // two (sys.int_info.default_max_str_digits); base 0 may be binary.
  bool powerOfTwo = radix == 0 || (radix > 1 && (radix & (radix - 1)) == 0);
  double count = powerOfTwo ? *n : std::min(*n, 4300.0);
  double bitsPerDigit = radix > 1 ? std::log2(double(radix)) : 6;
  return {Magnitude::Int, count * bitsPerDigit + 1, std::nullopt};
}

std::optional<double> floatLiteral(const Op *op) {
  if (!op || !op->is(OpKind::Float))
    return std::nullopt;
  std::string digits;
  for (char c : op->text)
    if (c != '_')
      digits += c;
  return std::strtod(digits.c_str(), nullptr);
}

std::optional<double> numberValue(RuleContext &ctx, const Op *op) {
  op = valueBehindNames(ctx, op);
  if (std::optional<double> f = floatLiteral(op))
    return f;
  if (op && op->is(OpKind::UnaryOp) && op->text == "-")
    if (std::optional<double> v = numberValue(ctx, op->operand(0)))
      return -*v;
  Magnitude m = Sizer(ctx).of(op);
  return m.value ? std::optional<double>(double(*m.value)) : std::nullopt;
}

static bool isTensor(const Value &v) {
  return v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation;
}

bool allTensors(RuleContext &ctx, const Op *op) {
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && llvm::all_of(vs, isTensor);
}

bool anyTensor(RuleContext &ctx, const Op *op) { return llvm::any_of(ctx.valuesOf(op), isTensor); }

const Symbol *symbolOf(RuleContext &ctx, const Op *op) {
  if (!op || !op->is(OpKind::Name))
    return nullptr;
  return ctx.values.scopes().resolve(op).symbol;
}

std::vector<Addition> additionsTo(RuleContext &ctx, const Symbol &s, bool deep,
                                  std::vector<const Op *> *others) {
  std::vector<Addition> out;
  UseIndex &uses = ctx.values.uses();
  for (const Binding &b : s.bindings)
    if (const Op *stmt = b.kind == Binding::Kind::AugAssign ? uses.userOf(b.site) : nullptr;
        stmt && stmt->is(OpKind::AugAssign) && isOneOf(stmt->text, {"+=", "|="}))
      out.push_back({stmt->operand(1), stmt, true});
  for (const Op *read : uses.readsOf(&s)) {
    const Op *at = read, *user = uses.userOf(read);
    while (deep && user && user->is(OpKind::Subscript) && user->operand(0) == at &&
           user->ctx == Ctx::Load) {
      at = user;
      user = uses.userOf(user);
    }
    size_t before = out.size();
    if (user && user->is(OpKind::Subscript) && user->operand(0) == at && user->ctx == Ctx::Store) {
      if (const Op *stmt = uses.userOf(user); stmt && stmt->is(OpKind::Assign))
        out.push_back({stmt->operands.back(), stmt, false});
    } else if (const Op *call = user && user->is(OpKind::Attribute) ? uses.userOf(user) : nullptr;
               call && call->is(OpKind::Call) && call->operand(0) == user) {
      std::string_view m = user->text;
      if (isOneOf(m, {"append", "appendleft", "add"}))
        out.push_back({positionalArgument(*call, 0), call, false});
      else if (isOneOf(m, {"insert", "setdefault"}))
        out.push_back({positionalArgument(*call, 1), call, false});
      else if (isOneOf(m, {"extend", "extendleft", "update"}))
        out.push_back({positionalArgument(*call, 0), call, true});
    }
    if (others && out.size() == before)
      others->push_back(read);
  }
  return out;
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

std::vector<const Op *> argumentValues(const Op &call) {
  std::vector<const Op *> values;
  for (const Op *a : llvm::drop_begin(call.operands))
    if (a)
      values.push_back(a->is(OpKind::Keyword) || a->is(OpKind::Starred) || a->is(OpKind::KwSplat)
                           ? a->operand(0)
                           : a);
  return values;
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

std::string countText(double n) {
  if (!std::isfinite(n))
    return "a number ivc cannot bound";
  return n < 9.2e18 ? std::to_string(int64_t(n)) : "over 10^18";
}

std::optional<double> product(RuleContext &ctx, const std::vector<const Op *> &dims) {
  // The largest each dimension may be: lengths of what exists multiplied by
  // at most 2^16 in all (`zeros(h.shape[0], 2**28)` is not), and the
  // numbers judged (a float is a TypeError, no size).
  SizeLimit n{1};
  for (const Op *d : dims) {
    if (d && Sizer(ctx).of(d).kind == Magnitude::Float)
      continue;
    std::optional<SizeLimit> most = d ? sizeLimit(ctx, d) : std::nullopt;
    if (!most)
      return HUGE_VAL;
    n = times(n, *most);
  }
  return judged(n);
}

} // namespace ivc::rules::cost
