//===- Rules.cpp - Helpers shared by the classifier's rules ---------------===//
#include "Rules.h"

#include <algorithm>

namespace ivc::rules {

bool isDunder(std::string_view n) {
  return n.size() > 4 && n.substr(0, 2) == "__" && n.substr(n.size() - 2) == "__";
}

bool isPrivate(std::string_view n) { return !n.empty() && n[0] == '_'; }

SourceRange attributeNameRange(RuleContext &ctx, const ir::Op &attr) {
  const SourceFile &file = ctx.m.fileOf(ctx.unit);
  std::string_view text = file.slice(attr.range);
  size_t b = text.size();
  // Identifier bytes: ASCII letters, digits, '_' and any non-ASCII byte.
  while (b > 0) {
    unsigned char c = static_cast<unsigned char>(text[b - 1]);
    if (!(c >= 0x80 || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
          (c >= 'A' && c <= 'Z')))
      break;
    --b;
  }
  if (b == text.size())
    return attr.range;
  return {file.position(attr.range.begin.offset + uint32_t(b)), attr.range.end};
}

bool isOneOf(std::string_view s, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

bool mayHoldTensor(ValueKind k) {
  return k == ValueKind::Tensor || k == ValueKind::Activation || k == ValueKind::Unknown ||
         k == ValueKind::Method;
}

// Long expressions keep both ends: the head names the value, the tail the
// method called on it (`model.lm_head.o...topk(5).indices.save`). Cuts fall
// on UTF-8 character boundaries.
std::string shortSource(RuleContext &ctx, const ir::Op &op) {
  std::string_view text = ctx.m.fileOf(ctx.unit).slice(op.range);
  if (text.size() <= 40)
    return std::string(text);
  auto continuation = [&](size_t i) { return (uint8_t(text[i]) & 0xC0) == 0x80; };
  size_t head = 16, tail = text.size() - 21;
  while (head > 0 && continuation(head))
    --head;
  while (tail < text.size() && continuation(tail))
    ++tail;
  return std::string(text.substr(0, head)) + "..." + std::string(text.substr(tail));
}

std::string quotedSource(RuleContext &ctx, const ir::Op &op) {
  return "'" + shortSource(ctx, op) + "'";
}

std::optional<std::string_view> knownString(RuleContext &ctx, const ir::Op *op) {
  if (!op)
    return std::nullopt;
  const ValueSet &vs = ctx.valuesOf(op);
  if (vs.size() == 1 && vs[0].kind == ValueKind::Str && vs[0].known)
    return vs[0].text;
  return std::nullopt;
}

std::string describeBase(const Value &b) {
  switch (b.kind) {
  case ValueKind::Qualified: return "module '" + std::string(b.text) + "'";
  case ValueKind::Envoy:
    return b.text.empty() ? "the model" : "the model's '" + std::string(b.text) + "'";
  case ValueKind::Tracer: return "the tracer";
  case ValueKind::Tensor: case ValueKind::Activation: return "a tensor";
  default: return "a value ivc cannot type (it may be the model or a module)";
  }
}

bool reportedReference(RuleContext &ctx, std::string_view q) {
  const Policy &p = ctx.m.policy;
  if (p.prohibitedModule(q) || ctx.m.catalog.unsafeCategory(q))
    return true;
  std::string_view root = q.substr(0, q.find('.'));
  return !p.isSafeModule(root) &&
         std::find(p.importAllowlist.begin(), p.importAllowlist.end(), root) ==
             p.importAllowlist.end();
}

namespace {

/// A name a notebook binds in every trace block (`a = torch.ones(n)`), or a
/// body rebinds line after line (`x = x[:, None] * x`): what a read in a
/// mediator's body sees when the body binds it only by plain assignments
/// among its own statements: the last one before the read. The other
/// bindings are other blocks', and no loop or branch of this one rebinds it.
const ir::Op *bodysOwnValue(RuleContext &ctx, const ir::Op *name, const Symbol &s) {
  const Mediator &m = ctx.m.mediator;
  if (ctx.unit.kind != CodeUnit::Kind::Mediator || !m.bodyRange.contains(name->range.begin.offset))
    return nullptr;
  const ir::Op *reaching = nullptr;
  uint32_t reachingEnd = 0;
  for (const Binding &b : s.bindings) {
    if (!b.site || !m.bodyRange.contains(b.site->range.begin.offset))
      continue;
    const ir::Op *statement = ctx.values.uses().userOf(b.site);
    if (b.kind != Binding::Kind::Assign || !b.path.empty() || !b.value || !statement ||
        statement->parentOp() != m.withOp)
      return nullptr;
    // (`a = a + 1` reads the value from before its statement.)
    uint32_t end = statement->range.end.offset;
    if (end <= name->range.begin.offset && end >= reachingEnd)
      reaching = b.value, reachingEnd = end;
  }
  return reaching;
}

} // namespace

const ir::Op *onlyAssignedValue(RuleContext &ctx, const ir::Op *name) {
  if (!name || !name->is(ir::OpKind::Name))
    return nullptr;
  const Symbol *s = ctx.values.scopes().resolve(name).symbol;
  if (!s)
    return nullptr;
  if (s->bindings.size() != 1 || ctx.values.fromCaller(name))
    return bodysOwnValue(ctx, name, *s);
  const Binding &b = s->bindings[0];
  return b.kind == Binding::Kind::Assign && b.path.empty() ? b.value : nullptr;
}

const ir::Op *valueBehindNames(RuleContext &ctx, const ir::Op *op) {
  for (int depth = 0; op && op->is(ir::OpKind::Name) && depth < 8; ++depth)
    op = onlyAssignedValue(ctx, op);
  return op;
}

} // namespace ivc::rules
