//===- LowerTrace.cpp - `with` statements, trace regions and mediators ----===//
#include "Lowering.h"

#include <algorithm>

namespace ivc {

using namespace ir;

namespace {
bool contains(const std::vector<std::string> &names, std::string_view s) {
  return std::find(names.begin(), names.end(), s) != names.end();
}
} // namespace

WithRole Lowering::classifyWithItem(Op *context, std::string_view &method) const {
  if (!context || !context->is(OpKind::Call))
    return WithRole::Plain;
  Op *callee = context->operand(0);
  if (!callee || !callee->is(OpKind::Attribute))
    return WithRole::Plain;
  if (contains(options_.traceMethods, callee->text)) {
    method = callee->text;
    return WithRole::Trace;
  }
  // `tracer.invoke(...)` on the innermost trace's tracer.
  if (currentTrace_ >= 0 && contains(options_.invokeMethods, callee->text)) {
    Op *receiver = callee->operand(0);
    const TraceRegion &t = traces_[currentTrace_];
    if (receiver && receiver->is(OpKind::Name) && !t.tracerName.empty() &&
        receiver->text == t.tracerName) {
      method = callee->text;
      return WithRole::Invoke;
    }
  }
  return WithRole::Plain;
}

void Lowering::lowerWith(TSNode n, const Children &cs) {
  llvm::SmallVector<TSNode, 2> items;
  bool isAsync = false;
  for (const Child &c : cs) {
    if (c.sym == Sym::with_clause) {
      Children wcs;
      children(c.node, wcs);
      for (const Child &w : wcs)
        if (w.sym == Sym::with_item)
          items.push_back(w.node);
    } else if (!c.named && text(c.node) == "async") {
      isAsync = true;
    }
  }

  llvm::SmallVector<Op *, 2> withItems;
  WithRole role = WithRole::Plain;
  std::string_view method;
  Op *roleItem = nullptr;
  TSNode aliasNode{};
  for (TSNode item : items) {
    Children ics;
    children(item, ics);
    TSNode value = fieldChild(ics, Field::value);
    TSNode alias{};
    if (!ts_node_is_null(value) && sym(value) == Sym::as_pattern) {
      Children acs;
      children(value, acs);
      value = TSNode{};
      for (const Child &a : acs) {
        if (a.field == Field::alias)
          alias = a.node;
        else if (a.named && ts_node_is_null(value))
          value = a.node;
      }
    }
    Op *context = expr(value);
    Op *target = nullptr;
    if (!ts_node_is_null(alias)) {
      Children tcs;
      children(alias, tcs);
      TSNode t = tcs.size() == 1 ? tcs[0].node : alias;
      target = exprList(t, Ctx::Store);
    }
    Op *wi = emit(OpKind::WithItem, rangeOf(item), {context, target});
    withItems.push_back(wi);
    std::string_view m;
    WithRole r = classifyWithItem(context, m);
    if (r != WithRole::Plain && role == WithRole::Plain) {
      role = r;
      method = m;
      roleItem = wi;
      aliasNode = alias;
    }
  }

  Op *op = emit(OpKind::With, rangeOf(n), withItems);
  op->isAsync = isAsync;
  op->small = uint8_t(role);
  auto rs = regions(op, 1);
  TSNode body = fieldChild(cs, Field::body);

  if (role == WithRole::Plain) {
    lowerBody(op, rs[0], RegionKind::Body, body);
    return;
  }

  Op *call = roleItem->operand(0);
  if (role == WithRole::Invoke) {
    TraceRegion &t = traces_[currentTrace_];
    Mediator m;
    m.index = uint32_t(t.mediators.size());
    m.kind = MediatorKind::Invoke;
    m.withOp = op;
    m.call = call;
    m.body = &rs[0];
    m.range = rangeOf(n);
    m.bodyRange = ts_node_is_null(body) ? m.range : rangeOf(body);
    op->number = m.index;
    t.mediators.push_back(m);
    lowerBody(op, rs[0], RegionKind::Body, body);
    return;
  }

  TraceRegion t;
  t.index = uint32_t(traces_.size());
  t.parent = currentTrace_;
  t.method = std::string(method);
  Op *receiver = call->operand(0)->operand(0);
  t.receiverOp = receiver;
  t.receiver = receiver ? std::string(source_.slice(receiver->range)) : std::string();
  if (!ts_node_is_null(aliasNode) && roleItem->operand(1) &&
      roleItem->operand(1)->is(OpKind::Name))
    t.tracerName = std::string(roleItem->operand(1)->text);
  t.withOp = op;
  t.call = call;
  t.range = rangeOf(n);
  t.callRange = call->range;
  t.bodyRange = ts_node_is_null(body) ? t.range : rangeOf(body);
  t.headerRange = {t.range.begin, ts_node_is_null(body) ? t.range.end : rangeOf(body).begin};
  op->number = t.index;
  traces_.push_back(std::move(t));

  int saved = currentTrace_;
  currentTrace_ = int(op->number);
  lowerBody(op, rs[0], RegionKind::Body, body);
  currentTrace_ = saved;
  finishTrace(traces_[op->number]);
}

void Lowering::finishTrace(TraceRegion &trace) {
  Region &body = trace.withOp->regions[0];
  for (Mediator &m : trace.mediators)
    m.header = statementHeader(m.withOp);
  if (trace.mediators.empty()) {
    Mediator m;
    m.kind = MediatorKind::Body;
    m.withOp = trace.withOp;
    m.body = &body;
    m.range = trace.bodyRange;
    m.bodyRange = trace.bodyRange;
    trace.mediators.push_back(m);
    return;
  }
  // Code beside the invokes runs too: it becomes one more mediator.
  bool substantive = false;
  for (Op *op : body.ops) {
    if (op->cls() != OpClass::Stmt || op->is(OpKind::Pass))
      continue;
    if (op->is(OpKind::With) && op->withRole() == WithRole::Invoke)
      continue;
    if (op->is(OpKind::ExprStmt) && op->operand(0) && op->operand(0)->is(OpKind::Str))
      continue; // a docstring-like string
    substantive = true;
    break;
  }
  if (substantive) {
    Mediator m;
    m.index = uint32_t(trace.mediators.size());
    m.kind = MediatorKind::Body;
    m.withOp = trace.withOp;
    m.body = &body;
    m.range = trace.bodyRange;
    m.bodyRange = trace.bodyRange;
    trace.mediators.push_back(m);
  }
}

} // namespace ivc
