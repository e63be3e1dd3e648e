//===- References.cpp - Names and attributes ------------------------------===//
//
// REJECT: dunder and underscore attributes (IVC201), frame, generator,
// coroutine, traceback, code and cell attributes (IVC202), introspection
// builtins referenced in any way (IVC203), module dunders (IVC211), the
// trace's model or tracer rebound in its body (IVC212), modules the policy
// does not allow (IVC104). ISOLATE: unsafe torch/numpy entry points
// (IVC307), writes to module or model attributes (IVC309), file APIs a policy
// allows (IVC310). Prohibited modules and builtins are the blacklist's.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace ivc::rules {

using namespace ir;

namespace {

bool isIntrospectionBuiltin(std::string_view b) {
  return isOneOf(b, {"type", "object", "super", "dir", "vars", "globals", "locals", "eval", "exec",
                     "compile", "__import__", "breakpoint", "help", "memoryview", "license",
                     "credits", "copyright", "exit", "quit", "__build_class__"});
}

void checkQualifiedReference(Op &op, std::string_view q, RuleContext &ctx) {
  const Policy &p = ctx.m.policy;
  if (p.prohibitedModule(q))
    return; // the blacklist's
  if (q == "string.Formatter" || q.substr(0, 17) == "string.Formatter.") {
    checkFormatterReference(op, q, ctx);
    return;
  }
  std::string_view root = q.substr(0, q.find('.'));
  if (!p.isSafeModule(root) &&
      std::find(p.importAllowlist.begin(), p.importAllowlist.end(), root) ==
          p.importAllowlist.end()) {
    std::string module(root.empty() ? q : root);
    ctx.reject(op, DiagId::ModuleNotAllowed, {ctx.subject(), module, p.name});
    return;
  }
  if (auto category = ctx.m.catalog.unsafeCategory(q); category && !opensScopedMode(ctx, op, q))
    ctx.isolate(op, DiagId::UnsafeEntryPoint, {ctx.subject(), q, *category});
}

bool reportedBase(Op &attr, RuleContext &ctx) {
  for (const Value &b : ctx.valuesOf(attr.operand(0)))
    if (b.kind == ValueKind::Qualified && reportedReference(ctx, b.text))
      return true;
  return false;
}

// Attributes a write may target without touching shared state: nnsight's
// swaps, and a tensor's own autograd flags.
bool privateWriteTarget(const Value &base, std::string_view attr) {
  if (base.kind == ValueKind::Envoy)
    return isOneOf(attr, {"output", "input", "inputs"});
  if (base.kind == ValueKind::Tensor || base.kind == ValueKind::Activation)
    return isOneOf(attr, {"requires_grad", "grad"});
  return base.kind == ValueKind::Instance; // a same-file class: ISOLATE already
}

} // namespace

std::optional<std::string_view> frameAttributeOwner(std::string_view a) {
  if (isOneOf(a, {"gi_frame", "gi_code", "gi_yieldfrom", "gi_running", "gi_suspended"}))
    return "generators";
  if (isOneOf(a, {"cr_frame", "cr_code", "cr_await", "cr_running", "cr_origin", "cr_suspended"}))
    return "coroutines";
  if (isOneOf(a, {"ag_frame", "ag_code", "ag_await", "ag_running"}))
    return "async generators";
  if (isOneOf(a, {"f_back", "f_builtins", "f_code", "f_globals", "f_lasti", "f_lineno",
                  "f_locals", "f_trace", "f_trace_lines", "f_trace_opcodes"}))
    return "frames";
  if (isOneOf(a, {"tb_frame", "tb_lasti", "tb_lineno", "tb_next"}))
    return "tracebacks";
  if (isOneOf(a, {"co_argcount", "co_cellvars", "co_code", "co_consts", "co_exceptiontable",
                  "co_filename", "co_firstlineno", "co_flags", "co_freevars",
                  "co_kwonlyargcount", "co_lines", "co_linetable", "co_lnotab", "co_name",
                  "co_names", "co_nlocals", "co_positions", "co_posonlyargcount", "co_qualname",
                  "co_stacksize", "co_varnames"}))
    return "code objects";
  if (isOneOf(a, {"cell_contents", "func_globals", "func_code", "func_closure", "im_func",
                  "im_self"}))
    return "functions and closures";
  if (a == "mro")
    return "classes (the type hierarchy)";
  return std::nullopt;
}

/// The attribute read of a `super` read's call, when that is the
/// cooperative call a class's method makes on its own name (`super().__init__()` in `def __init__`,
/// `super().forward(x)` in `def forward`): the zero-argument form, read
/// once for that one attribute. A same-file class is ISOLATE already; this
/// form reaches nothing its own method does not.
static const Op *cooperativeSuper(RuleContext &ctx, const Op &superRead) {
  UseIndex &uses = ctx.values.uses();
  const Op *call = uses.userOf(&superRead);
  if (!call || !call->is(OpKind::Call) || call->operands.size() != 1 ||
      call->operand(0) != &superRead)
    return nullptr;
  const Op *attr = uses.userOf(call);
  const Op *def = superRead.parentOp();
  while (def && !def->is(OpKind::FunctionDef) && !def->is(OpKind::Lambda) &&
         !def->is(OpKind::ClassDef))
    def = def->parentOp();
  if (!attr || !attr->is(OpKind::Attribute) || attr->ctx != Ctx::Load || !def ||
      !def->is(OpKind::FunctionDef) || attr->text != def->text || !def->parentOp() ||
      !def->parentOp()->is(OpKind::ClassDef))
    return nullptr;
  return attr;
}

bool isCooperativeSuperAttribute(RuleContext &ctx, const Op &attr) {
  const Op *call = attr.operand(0);
  const Op *callee = call && call->is(OpKind::Call) ? call->operand(0) : nullptr;
  return callee && callee->is(OpKind::Name) && callee->text == "super" &&
         cooperativeSuper(ctx, *callee) == &attr;
}

void checkName(Op &op, RuleContext &ctx) {
  if (op.ctx == Ctx::Load) {
    for (const Value &v : ctx.valuesOf(&op)) {
      if (v.kind == ValueKind::Builtin) {
        if (ctx.m.policy.isProhibitedBuiltin(v.text))
          return; // the blacklist's
        if (isIntrospectionBuiltin(v.text) && !(v.text == "super" && cooperativeSuper(ctx, op))) {
          ctx.reject(op, DiagId::IntrospectionBuiltin, {ctx.subject(), v.text});
          return;
        }
        if (v.text == "open")
          ctx.isolate(op, DiagId::AllowedFileApi, {ctx.subject(), "open", ctx.m.policy.name});
      } else if (v.kind == ValueKind::Qualified) {
        checkQualifiedReference(op, v.text, ctx);
      }
    }
    checkEscapingReference(op, ctx);
  }
  if (isDunder(op.text))
    ctx.reject(op, DiagId::DunderName, {ctx.subject(), op.text});
}

namespace {

/// Where the file binds its models' and tracers' names outside trace
/// headers (which bind the tracers; a session's body holds its traces'
/// headers), once per file: every mediator of a file of 10^5 traces would
/// otherwise go through all their bindings.
const TraceNameSites &traceNameSites(RuleContext &ctx) {
  auto [it, fresh] = ctx.memo.traceNameSites.try_emplace(ctx.unit.context);
  TraceNameSites &sites = it->second;
  if (!fresh)
    return sites;
  const TraceBindings &traces = ctx.unit.context->traces;
  std::vector<SourceRange> headers = traces.traceHeaders;
  llvm::sort(headers, [](const SourceRange &a, const SourceRange &b) {
    return a.begin.offset < b.begin.offset;
  });
  auto inHeader = [&](uint32_t at) { // up to the body's start
    auto after = llvm::upper_bound(headers, at, [](uint32_t at, const SourceRange &h) {
      return at < h.begin.offset;
    });
    return after != headers.begin() && at < std::prev(after)->end.offset;
  };
  auto note = [&](const std::vector<const Symbol *> &symbols, std::string_view what) {
    for (const Symbol *s : symbols)
      for (const Binding &b : s->bindings)
        if (b.site && !inHeader(b.site->range.begin.offset))
          sites.try_emplace(b.site, s->name, what);
  };
  note(traces.modelSymbols, "model");
  note(traces.tracerSymbols, "tracer");
  return sites;
}

} // namespace

void checkTraceNameBindings(RuleContext &ctx) {
  // Helpers rebind neither name without `global` or `nonlocal`, which are
  // errors of their own.
  if (ctx.unit.kind != CodeUnit::Kind::Mediator)
    return;
  const TraceNameSites &sites = traceNameSites(ctx);
  if (sites.empty())
    return;
  for (const Op *op : ctx.unit.ops)
    if (auto it = sites.find(op); it != sites.end())
      ctx.reject(*op, DiagId::TraceNameRebinding,
                 {ctx.subject(), it->second.first, it->second.second});
}

bool rejectedAttributeName(std::string_view name) {
  return isPrivate(name) || frameAttributeOwner(name).has_value();
}

bool isItemAccessor(RuleContext &ctx, const Op &op) {
  if (op.ctx != Ctx::Load || !isOneOf(op.text, {"__getitem__", "__contains__", "__len__"}))
    return false;
  const ValueSet &bases = ctx.valuesOf(op.operand(0));
  return !bases.empty() && llvm::all_of(bases, [](const Value &v) {
    return v.kind == ValueKind::Container || v.kind == ValueKind::Str ||
           v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation;
  });
}

void checkAttribute(Op &op, RuleContext &ctx) {
  std::string_view attr = op.text;
  if (rejectedAttributeName(attr) && !isCooperativeSuperAttribute(ctx, op) &&
      !isItemAccessor(ctx, op)) {
    // One error per chain: `().__class__.__base__` is rejected at `__class__`.
    const Op *base = op.operand(0);
    if (base && base->is(OpKind::Attribute) && rejectedAttributeName(base->text) &&
        !isItemAccessor(ctx, *base))
      return;
    SourceRange at = attributeNameRange(ctx, op);
    if (isPrivate(attr))
      ctx.m.report(Tier::Reject, ctx.unit, at, DiagId::PrivateAttribute, {ctx.subject(), attr});
    else
      ctx.m.report(Tier::Reject, ctx.unit, at, DiagId::FrameAttribute,
                   {ctx.subject(), attr, *frameAttributeOwner(attr)});
    return;
  }
  const ValueSet &bases = ctx.valuesOf(op.operand(0));
  if (op.ctx != Ctx::Load) {
    // A FAST mediator shares the server's model and modules: any attribute
    // write that is not a swap or a tensor's own flag may change them.
    if (ctx.unit.kind == CodeUnit::Kind::Class)
      return; // `self.x = ...` in a same-file class: the class is ISOLATE already
    for (const Value &b : bases)
      if (!privateWriteTarget(b, attr)) {
        ctx.m.report(Tier::Isolate, ctx.unit, attributeNameRange(ctx, op),
                     DiagId::SharedStateWrite, {ctx.subject(), attr, describeBase(b)});
        return;
      }
    return;
  }
  if (checkFormatReference(op, ctx))
    return;
  if (reportedBase(op, ctx))
    return;
  // Every module path the attribute may be: `m = numpy` and `m = torch` in
  // one scope make `m.asarray` both numpy.asarray and torch.asarray.
  const ValueSet &values = ctx.valuesOf(&op);
  bool qualified = false;
  for (const Value &v : values)
    if (v.kind == ValueKind::Qualified) {
      checkQualifiedReference(op, v.text, ctx);
      qualified = true;
    }
  checkEscapingReference(op, ctx);
  if (qualified)
    return;
  bool mayBeArray = bases.empty() || llvm::any_of(bases, [](const Value &b) {
    return mayHoldTensor(b.kind);
  });
  if (!mayBeArray)
    return;
  if (const std::string *q = ctx.m.catalog.unsafeMember(attr))
    ctx.isolate(op, DiagId::UnsafeEntryPoint,
                {ctx.subject(), *q, *ctx.m.catalog.unsafeCategory(*q)});
}

} // namespace ivc::rules
