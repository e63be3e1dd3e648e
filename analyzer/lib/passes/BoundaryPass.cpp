//===- BoundaryPass.cpp - What crosses between the model and a mediator ---===//
//
// Records, for the plan, which submodules a mediator touches and how (output
// and input reads, writes, in-place updates, saves, grads, skips), which
// names it saves, and whether it reads weights. Warns where a value cannot
// cross a process boundary: saving a function, module, generator or instance
// of a user class (IVC402), a value made in one invoke used in another
// without a barrier (IVC404), a weight changed in place, which a trace sees
// as a copy (IVC405), a trace on what a model.edit() block bound, whose
// edits ivc does not carry over (IVC406), and where invokes would not behave
// as nnsight's: a value the trace body computes (IVC407), a loop the plan
// cannot name (IVC408, else the plan's `loop`), a container each invoke
// changes a copy of (IVC409), an invoke without inputs (IVC410). In-place
// updates (IVC401) and weight reads (IVC403) are remarks: legitimate, and
// recorded so a runtime can honor them.
//
//===----------------------------------------------------------------------===//
#include "InvokeLoop.h"
#include "ivc/passes/Pass.h"

namespace ivc {

using namespace ir;

namespace {

// The activation a value is (or is a view of), if any.
const Value *activationOf(const ValueSet &vs) {
  for (const Value &v : vs)
    if (v.kind == ValueKind::Activation)
      return &v;
  return nullptr;
}

std::string accessKind(const Value &activation) {
  // The Activation's op is the `.output` / `.input` / `.inputs` attribute.
  std::string_view a = activation.op ? activation.op->text : std::string_view("output");
  return a == "inputs" ? "input" : std::string(a);
}

std::string pathOf(const Value &v) { return v.text.empty() ? std::string("<model>") : std::string(v.text); }

bool isSaveCall(const Op *op) {
  return op->is(OpKind::Call) && op->operand(0) && op->operand(0)->is(OpKind::Attribute) &&
         op->operand(0)->text == "save";
}

/// Which values keep a saved value (keepsSave), with what each function of
/// the file returns worked out once (a function that calls itself a dozen
/// times would be walked 12^n times otherwise).
struct SaveFlow {
  explicit SaveFlow(ValueAnalysis &values) : values(values) {}
  ValueAnalysis &values;
  llvm::DenseMap<const Op *, bool> returns; // false while being worked out

  /// Whether what `e` makes keeps a saved value: the save itself, a display
  /// or comprehension holding one (`[b.output[0].save() for b in
  /// model.transformer.h]`), an instance of the file's classes made from
  /// one (`Record(0, h.save())`), or what a function of the file returns
  /// when it returns one (`def grab(b): return b.output[0].save()`).
  bool keepsSave(const Op *e, int depth = 0) {
    if (!e || depth > 16)
      return false;
    if (isSaveCall(e))
      return true;
    auto keeps = [&](const Op *o) { return keepsSave(o, depth + 1); };
    switch (e->kind) {
    case OpKind::List: case OpKind::Tuple: case OpKind::Set: case OpKind::Dict:
    case OpKind::IfExp: case OpKind::NamedExpr: case OpKind::BoolOp: case OpKind::Starred:
    case OpKind::CompYield: case OpKind::Keyword:
      return llvm::any_of(e->operands, keeps);
    case OpKind::ListComp: case OpKind::SetComp: case OpKind::DictComp:
      for (const Region &r : e->regions)
        if (!r.ops.empty() && r.ops.back()->is(OpKind::CompYield))
          return keeps(r.ops.back());
      return false;
    case OpKind::Call:
      for (const Value &v : values.valuesOf(e->operand(0))) {
        if (v.kind == ValueKind::UserClass && llvm::any_of(e->operands.subspan(1), keeps))
          return true;
        if (v.kind == ValueKind::UserFunction && v.op && returnsSave(*v.op))
          return true;
      }
      return false;
    default:
      return false;
    }
  }

  /// Whether a function returns what keeps a saved value, or a name of its
  /// own that holds one (`x = b.output.save()` or `x.save()`, then `return
  /// x`).
  bool returnsSave(const Op &def) {
    auto [it, fresh] = returns.try_emplace(&def, false);
    if (!fresh)
      return it->second;
    llvm::SmallVector<std::string_view, 4> saved;
    llvm::SmallVector<const Op *, 4> returned;
    auto walk = [&](const Region &r, auto &self) -> void {
      for (const Op *op : r.ops) {
        if (op->is(OpKind::Return) && op->operand(0))
          returned.push_back(op->operand(0));
        if (op->is(OpKind::Assign) && keepsSave(op->operands.back()))
          for (size_t i = 0; i + 1 < op->operands.size(); ++i)
            if (op->operand(i) && op->operand(i)->is(OpKind::Name))
              saved.push_back(op->operand(i)->text);
        if (isSaveCall(op) && op->operand(0)->operand(0)->is(OpKind::Name))
          saved.push_back(op->operand(0)->operand(0)->text);
        if (!op->is(OpKind::FunctionDef) && !op->is(OpKind::ClassDef) &&
            !op->is(OpKind::Lambda))
          for (const Region &inner : op->regions)
            self(inner, self);
      }
    };
    for (const Region &r : def.regions)
      walk(r, walk);
    bool found = llvm::any_of(returned, [&](const Op *v) {
      return (v->is(OpKind::Name) && llvm::is_contained(saved, v->text)) || keepsSave(v);
    });
    returns[&def] = found;
    return found;
  }
};

/// The name a store into `target` changes: `x`, `x[k]`, `x[i][j]`,
/// `x.setdefault(k, [])` or `x.get(k)` (what they return is x's); `nested`:
/// whether the way down took an element of x.
const Op *storedName(const Op *target, bool *nested = nullptr) {
  auto element = [](const Op *call) {
    const Op *method = call->is(OpKind::Call) ? call->operand(0) : nullptr;
    return method && method->is(OpKind::Attribute) &&
           (method->text == "setdefault" || method->text == "get");
  };
  if (nested)
    *nested = false;
  while (target && (target->is(OpKind::Subscript) || element(target))) {
    target = target->is(OpKind::Call) ? target->operand(0)->operand(0) : target->operand(0);
    if (nested)
      *nested = true;
  }
  return target && target->is(OpKind::Name) ? target : nullptr;
}

/// The `weight` or `bias` attribute a write into `target` lands in (`W[:]`,
/// `model.lm_head.weight.T[0]`, through a name bound once to one), or null.
const Op *weightWritten(const Op *target, ValueAnalysis &values, const ScopeTree &scopes,
                        int depth = 0) {
  while (target && depth++ < 16) {
    if (target->is(OpKind::Subscript) ||
        (target->is(OpKind::Attribute) &&
         (target->text == "T" || target->text == "mT" || target->text == "data"))) {
      target = target->operand(0);
    } else if (target->is(OpKind::Attribute) &&
               (target->text == "weight" || target->text == "bias")) {
      const ValueSet &base = values.valuesOf(target->operand(0));
      return !base.empty() && llvm::all_of(base, [](const Value &v) {
               return v.kind == ValueKind::Envoy;
             })
                 ? target
                 : nullptr;
    } else if (target->is(OpKind::Name)) {
      const Symbol *s = scopes.resolve(target).symbol;
      if (!s || s->bindings.size() != 1 || s->bindings[0].kind != Binding::Kind::Assign ||
          !s->bindings[0].path.empty())
        return nullptr;
      target = s->bindings[0].value;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool isBarrierCall(const Op *op, ValueAnalysis &values) {
  if (!op->is(OpKind::Call))
    return false;
  for (const Value &v : values.valuesOf(op->operand(0)))
    if ((v.kind == ValueKind::Method && v.receiver == ValueKind::Tracer && v.text == "barrier") ||
        v.kind == ValueKind::Tracer)
      return true;
  return false;
}

class BoundaryPass : public Pass {
public:
  std::string_view name() const override { return "boundary"; }

  void run(MediatorContext &ctx) override {
    flows_.clear();
    for (const CodeUnit &unit : ctx.code.units) {
      ValueAnalysis &values = *unit.context->values;
      ctx.code.forEachOp(unit, [&](Op *op) { visit(ctx, unit, values, op); });
    }
    if (ctx.mediator.kind == MediatorKind::Invoke) {
      bool inLoop = invokeInLoop(ctx.trace, ctx.mediator);
      size_t invokes = llvm::count_if(ctx.trace.mediators, [](const Mediator &m) {
        return m.kind == MediatorKind::Invoke;
      });
      crossInvoke(ctx);
      if (invokes > 1 || inLoop) // other invokes, or turns, hold copies
        changesCopy(ctx, inLoop);
      if (ctx.mediator.call && ctx.mediator.call->operands.size() == 1 && invokes > 1)
        ctx.report(Tier::Fast, ctx.code.units[0], ctx.mediator.call->range, DiagId::EmptyInvoke,
                   {std::to_string(ctx.mediator.index)});
      ValueAnalysis &values = *ctx.code.units[0].context->values;
      if (const Op *loop = expandableLoop(ctx.trace, ctx.mediator, values)) {
        auto text = [&](const Op *op) { return std::string(ctx.mainFile.slice(op->range)); };
        ctx.facts.loop = MediatorFacts::Loop{text(loop->operand(0)), text(loop->operand(1)),
                                             loop->range, loopNames(loop->operand(0))};
      } else if (inLoop) {
        ctx.report(Tier::Fast, ctx.code.units[0], ctx.mediator.call->range, DiagId::InvokeInLoop,
                   {std::to_string(ctx.mediator.index)});
      }
    } else {
      editedReceiver(ctx);
    }
  }

private:
  std::map<ValueAnalysis *, SaveFlow> flows_; // per module, for one mediator

  SaveFlow &flowOf(ValueAnalysis &values) {
    return flows_.try_emplace(&values, values).first->second;
  }

  void access(MediatorContext &ctx, const Value &activation, const std::string &kind) {
    ctx.facts.modules[pathOf(activation)].insert(accessKind(activation) + "." + kind);
  }

  void inPlace(MediatorContext &ctx, const CodeUnit &unit, const Op &at, const Value &activation) {
    access(ctx, activation, "in_place");
    ctx.report(Tier::Fast, unit, at, DiagId::InPlaceActivation,
               {ctx.subject(unit), accessKind(activation), pathOf(activation)});
  }

  void visit(MediatorContext &ctx, const CodeUnit &unit, ValueAnalysis &values, Op *op) {
    switch (op->kind) {
    case OpKind::Attribute: {
      if (isActivationAttribute(op->text)) {
        for (const Value &base : values.valuesOf(op->operand(0)))
          if (base.kind == ValueKind::Envoy) {
            Value act;
            act.kind = ValueKind::Activation;
            act.text = base.text;
            act.op = op;
            access(ctx, act, op->ctx == Ctx::Load ? "read" : "write");
          }
      } else if (op->text == "grad" && op->ctx == Ctx::Load) {
        if (const Value *a = activationOf(values.valuesOf(op->operand(0))))
          access(ctx, *a, "grad");
      } else if ((op->text == "weight" || op->text == "bias") && op->ctx == Ctx::Load) {
        for (const Value &base : values.valuesOf(op->operand(0)))
          if (base.kind == ValueKind::Envoy)
            weights(ctx, unit, *op, base);
      }
      return;
    }
    case OpKind::AugAssign: {
      savedInto(ctx, unit, values, op->operand(0), op->operand(1)); // `hs += [h.save()]`
      if (op->operand(0) && op->operand(0)->is(OpKind::Subscript)) // (a module's attribute: IVC309)
        weightWrite(ctx, unit, values, *op, op->operand(0));
      // h[:, -1] += d and h += d both mutate the delivered tensor.
      const Op *target = op->operand(0);
      const Op *base = target && target->is(OpKind::Subscript) ? target->operand(0) : target;
      if (base && base->ctx == Ctx::Store && base->is(OpKind::Name)) {
        NameResolution r = unit.context->scopes->resolve(base);
        if (r.symbol)
          for (const Binding &b : r.symbol->bindings)
            if (b.value)
              if (const Value *a = activationOf(values.valuesOf(b.value))) {
                inPlace(ctx, unit, *op, *a);
                return;
              }
        return;
      }
      if (base)
        if (const Value *a = activationOf(values.valuesOf(base)))
          inPlace(ctx, unit, *op, *a);
      return;
    }
    case OpKind::Assign:
      // model.x.output[0][:] = y writes into the delivered value.
      for (size_t i = 0; i + 1 < op->operands.size(); ++i) {
        const Op *t = op->operands[i];
        if (t && t->is(OpKind::Subscript))
          if (const Value *a = activationOf(values.valuesOf(t->operand(0))))
            inPlace(ctx, unit, *op, *a);
      }
      for (size_t i = 0; i + 1 < op->operands.size(); ++i) {
        savedInto(ctx, unit, values, op->operands[i], op->operands.back());
        if (op->operands[i] && op->operands[i]->is(OpKind::Subscript))
          weightWrite(ctx, unit, values, *op, op->operands[i]);
      }
      return;
    case OpKind::AnnAssign: // `h: Tensor = ....save()`
      savedInto(ctx, unit, values, op->operand(0), op->operand(2));
      return;
    case OpKind::Call:
      call(ctx, unit, values, op);
      return;
    default:
      return;
    }
  }

  static bool isActivationAttribute(std::string_view a) {
    return a == "output" || a == "input" || a == "inputs";
  }

  void weights(MediatorContext &ctx, const CodeUnit &unit, const Op &at, const Value &envoy) {
    ctx.facts.touchesWeights = true;
    ctx.report(Tier::Fast, unit, at, DiagId::WeightAccess, {ctx.subject(unit), pathOf(envoy)});
  }

  void call(MediatorContext &ctx, const CodeUnit &unit, ValueAnalysis &values, Op *op) {
    const Op *callee = op->operand(0);
    if (!callee)
      return;
    inPlaceFunction(ctx, unit, values, op);
    if (!callee->is(OpKind::Attribute))
      return;
    std::string_view method = callee->text;
    // `hs.append(h.save())`, `d.update({k: h.save()})`
    static constexpr std::string_view Keeps[] = {"append", "extend",     "insert",    "add",
                                                 "update", "setdefault", "appendleft", "extendleft"};
    if (llvm::is_contained(Keeps, method))
      for (size_t i = 1; i < op->operands.size(); ++i)
        savedInto(ctx, unit, values, callee->operand(0), op->operands[i]);
    const ValueSet &receivers = values.valuesOf(callee->operand(0));
    for (const Value &r : receivers) {
      if (method == "save" && r.kind == ValueKind::Qualified && r.text == "nnsight") {
        // nnsight.save(x) saves x, as x.save() does.
        const Op *saved = op->operands.size() > 1 ? op->operand(1) : nullptr;
        if (saved && !saved->is(OpKind::Keyword) && !saved->is(OpKind::Starred) &&
            !saved->is(OpKind::KwSplat))
          for (const Value &v : values.valuesOf(saved))
            save(ctx, unit, *op, v);
        if (saved)
          savedName(ctx, unit, saved);
      } else if (method == "save" && !moduleFunction(ctx, r, method)) { // not torch.save / numpy.save
        save(ctx, unit, *op, r);
        if (op->operands.size() == 1)
          savedName(ctx, unit, callee->operand(0));
      } else if (r.kind == ValueKind::Envoy && method == "skip") {
        ctx.facts.modules[pathOf(r)].insert("skip");
      } else if (r.kind == ValueKind::Envoy &&
                 (method == "parameters" || method == "named_parameters")) {
        weights(ctx, unit, *op, r);
      } else if (r.kind == ValueKind::Activation) {
        const OpCatalog::Entry *e = ctx.catalog.tensorMethod(method);
        if (e && e->inplace)
          inPlace(ctx, unit, *op, r);
      } else if (const OpCatalog::Entry *e = ctx.catalog.tensorMethod(method);
                 e && e->inplace) { // `model.lm_head.weight.zero_()`
        weightWrite(ctx, unit, values, *op, callee->operand(0));
      }
    }
  }

  // `torch.save(...)` calls a module's function; `F.gelu.save()` saves a function.
  static bool moduleFunction(MediatorContext &ctx, const Value &receiver, std::string_view m) {
    if (receiver.kind != ValueKind::Qualified)
      return false;
    std::string q = std::string(receiver.text) + "." + std::string(m);
    return ctx.catalog.function(q) || ctx.catalog.unsafeCategory(q);
  }

  // torch.relu_(h), torch.add(h, 1, out=h), F.relu(h, inplace=True): a
  // catalogued function that writes its first argument, or an `out=` target.
  void inPlaceFunction(MediatorContext &ctx, const CodeUnit &unit, ValueAnalysis &values,
                       const Op *call) {
    bool writesFirst = false;
    for (const Value &v : values.valuesOf(call->operand(0)))
      if (v.kind == ValueKind::Qualified)
        if (const OpCatalog::Entry *e = ctx.catalog.function(v.text); e && e->inplace)
          writesFirst = true;
    const Op *first = nullptr;
    for (size_t i = 1; i < call->operands.size(); ++i) {
      const Op *arg = call->operands[i];
      if (!arg)
        continue;
      if (arg->is(OpKind::Keyword)) {
        if (arg->text == "inplace" && arg->operand(0) && arg->operand(0)->is(OpKind::True))
          writesFirst = true;
        if (arg->text == "out")
          if (const Value *a = activationOf(values.valuesOf(arg->operand(0)))) {
            inPlace(ctx, unit, *call, *a);
            return;
          }
      } else if (!first && !arg->is(OpKind::Starred) && !arg->is(OpKind::KwSplat)) {
        first = arg;
      }
    }
    if (writesFirst && first)
      if (const Value *a = activationOf(values.valuesOf(first)))
        inPlace(ctx, unit, *call, *a);
  }

  // `with model.edit() as ablated:` then `with ablated.trace(...)`: the
  // runtime runs each trace alone, on the model as it is.
  void editedReceiver(MediatorContext &ctx) {
    const Op *receiver = ctx.trace.receiverOp;
    const CodeUnit &unit = ctx.code.units[0];
    if (!receiver || !receiver->is(OpKind::Name))
      return;
    const Symbol *s = unit.context->scopes->resolve(receiver).symbol;
    for (const Binding &b : s ? s->bindings : llvm::SmallVector<Binding, 1>{}) {
      const Op *call = b.kind == Binding::Kind::WithAs ? b.value : nullptr;
      if (call && call->is(OpKind::WithItem))
        call = call->operand(0);
      const Op *callee = call && call->is(OpKind::Call) ? call->operand(0) : nullptr;
      if (callee && callee->is(OpKind::Attribute) && callee->text == "edit") {
        ctx.report(Tier::Fast, unit, ctx.trace.headerRange, DiagId::EditedModel,
                   {ctx.subject(unit), receiver->text, std::to_string(call->range.begin.line + 1)});
        return;
      }
    }
  }

  // A write into a weight: the trace's copy of it, so a warning.
  void weightWrite(MediatorContext &ctx, const CodeUnit &unit, ValueAnalysis &values,
                   const Op &at, const Op *target) {
    if (const Op *w = weightWritten(target, values, *unit.context->scopes)) {
      std::string path;
      for (const Value &v : values.valuesOf(w->operand(0)))
        path = pathOf(v);
      ctx.report(Tier::Fast, unit, at, DiagId::WeightCopyWrite,
                 {ctx.subject(unit), path + "." + std::string(w->text)});
    }
  }

  // A saved value: an activation's save access, or a warning if it cannot cross.
  void save(MediatorContext &ctx, const CodeUnit &unit, const Op &at, const Value &v) {
    if (v.kind == ValueKind::Activation)
      access(ctx, v, "save");
    unserializableSave(ctx, unit, at, v);
  }

  void unserializableSave(MediatorContext &ctx, const CodeUnit &unit, const Op &at,
                          const Value &r) {
    std::string what;
    switch (r.kind) {
    case ValueKind::UserFunction: what = "function '" + std::string(r.text) + "'"; break;
    case ValueKind::Lambda: what = "a lambda"; break;
    case ValueKind::Qualified: what = "'" + std::string(r.text) + "'"; break;
    case ValueKind::Instance: what = "an instance of class '" + std::string(r.text) + "'"; break;
    case ValueKind::Container:
      if (r.op && r.op->is(OpKind::GeneratorExp))
        what = "a generator";
      break;
    default: break;
    }
    if (!what.empty())
      ctx.report(Tier::Fast, unit, at, DiagId::UnserializableSave, {ctx.subject(unit), what});
  }

  // `x = <...>.save()` saves x, and so does keeping a saved value in x (`x
  // = [h.save()]`, `x[k] = h.save()`, `x.append(h.save())`): a runtime
  // hands back the names it saves.
  void savedInto(MediatorContext &ctx, const CodeUnit &unit, ValueAnalysis &values,
                 const Op *target, const Op *value) {
    if (unit.kind != CodeUnit::Kind::Mediator)
      return; // (a helper's local is not the mediator's name)
    // `a, b = h.save(), g.save()`
    if (target && value && (target->is(OpKind::Tuple) || target->is(OpKind::List)) &&
        (value->is(OpKind::Tuple) || value->is(OpKind::List)) &&
        target->operands.size() == value->operands.size()) {
      for (size_t i = 0; i < target->operands.size(); ++i)
        savedInto(ctx, unit, values, target->operand(i), value->operand(i));
      return;
    }
    const Op *name = storedName(target);
    if (!name || !(flowOf(values).keepsSave(value) || fillsSharedContainer(unit, values, name)))
      return;
    std::string n(name->text);
    if (!llvm::is_contained(ctx.facts.saves, n))
      ctx.facts.saves.push_back(n);
  }

  // A list or dict the plan makes empty for every mediator (`acts = []`
  // before the trace or its invokes), changed here: in nnsight the trace
  // fills one object, so what this mediator puts in its copy is handed back
  // (a runtime joins the copies), saved or not.
  static bool fillsSharedContainer(const CodeUnit &unit, ValueAnalysis &values, const Op *name) {
    const Symbol *s = unit.context->scopes->resolve(name).symbol;
    return s && joinedContainer(values, *s);
  }

  // Whether the plan pins `s` to an empty list or dict, whose copies a
  // runtime joins.
  static bool joinedContainer(ValueAnalysis &values, const Symbol &s) {
    const Op *value = values.pinnedConstant(s);
    return value && values.emptyContainer(value);
  }

  // Whether one of `s`'s plain assignments binds it to what `holds`.
  template <typename Pred> static bool assignedTo(const Symbol &s, Pred holds) {
    return llvm::any_of(s.bindings, [&](const Binding &b) {
      return b.kind == Binding::Kind::Assign && b.path.empty() && holds(b.value);
    });
  }

  // `stats.save()` as a statement saves the object stats holds, as
  // nnsight marks it: the name is handed back.
  void savedName(MediatorContext &ctx, const CodeUnit &unit, const Op *saved) {
    if (unit.kind != CodeUnit::Kind::Mediator || !saved->is(OpKind::Name) ||
        saved->ctx != Ctx::Load)
      return; // (a helper's local is not the mediator's name)
    std::string n(saved->text);
    if (!llvm::is_contained(ctx.facts.saves, n))
      ctx.facts.saves.push_back(n);
  }

  // A name the trace's body binds outside the invokes to what the plan does
  // not carry (a computed value): the invoke does not see it.
  static bool computedInTraceBody(MediatorContext &ctx, ValueAnalysis &values, const Symbol &s) {
    auto body = llvm::find_if(ctx.trace.mediators,
                              [](const Mediator &m) { return m.kind == MediatorKind::Body; });
    if (body == ctx.trace.mediators.end())
      return false;
    // A loop's target is the invoke's own when the loop holds the invoke
    // (a runtime binds it per turn); an invoke after the loop does not see
    // it, and one before the loop reads no value of it.
    auto ownLoop = [&](uint32_t at) {
      return anyLoop(ctx.trace, [&](const Op &loop) {
        return loop.is(OpKind::For) && loop.range.contains(at) &&
               loop.range.contains(ctx.mediator.range.begin.offset);
      });
    };
    auto loopTarget = [](const Binding &b) { return b.site && b.kind == Binding::Kind::Loop; };
    if (llvm::any_of(s.bindings, [&](const Binding &b) {
          return loopTarget(b) && ownLoop(b.site->range.begin.offset);
        }))
      return false;
    bool bound = llvm::any_of(s.bindings, [&](const Binding &b) {
      uint32_t at = b.site ? b.site->range.begin.offset : 0;
      return b.site && !(loopTarget(b) && at > ctx.mediator.range.begin.offset) &&
             body->bodyRange.contains(at) &&
             llvm::none_of(ctx.trace.mediators, [&](const Mediator &m) {
               return m.kind == MediatorKind::Invoke && m.range.contains(at);
             });
    });
    return bound && !values.pinnedConstant(s) && !values.preludeBarrier(s) &&
           !values.boundByRuntime(s) && !values.modelAlias(s);
  }

  // A name the invoke binds itself.
  static bool boundInInvoke(const MediatorContext &ctx, const Symbol &s) {
    return llvm::any_of(s.bindings, [&](const Binding &b) {
      return b.site && ctx.mediator.bodyRange.contains(b.site->range.begin.offset);
    });
  }

  // `[...]`, `{...}`, their comprehensions, `[None] * n`: a new list,
  // dict or set.
  static bool mutableDisplay(const Op *v) {
    if (v && v->is(OpKind::BinaryOp) && v->text == "*")
      return mutableDisplay(v->operand(0)) || mutableDisplay(v->operand(1));
    return makesContainer(v);
  }

  // The names a loop's target (names in tuples and lists) binds.
  static std::vector<std::string> loopNames(const Op *target) {
    if (target->is(OpKind::Name))
      return {std::string(target->text)};
    std::vector<std::string> names;
    for (const Op *part : target->operands)
      for (std::string &n : loopNames(part))
        names.push_back(std::move(n));
    return names;
  }

  // A list, dict or set from outside the invoke that it changes in place
  // (`results[i] = h.save()`, `counts["n"] += 1`, `acts[l].append(h)`),
  // where other invokes, or other turns of its loop, hold copies of their
  // own: one copy comes back. A pinned empty list or dict the invoke adds
  // to is the exception a runtime joins (`acts = []`, `acts.append(...)`).
  void changesCopy(MediatorContext &ctx, bool inLoop) {
    const CodeUnit &unit = ctx.code.units[0];
    ValueAnalysis &values = *unit.context->values;
    std::string each = inLoop ? "each invoke (and each turn of its loop)" : "each invoke";
    static constexpr std::string_view Changes[] = {
        "append", "extend",  "insert", "pop",        "remove",     "clear",  "update",
        "setdefault", "add", "discard", "sort",      "reverse",    "popitem", "appendleft",
        "extendleft"};
    std::set<std::string_view> reported;
    ctx.code.forEachOp(unit, [&](Op *op) {
      const Op *root = nullptr;
      bool nested = false;
      if (op->is(OpKind::Subscript) && op->ctx != Ctx::Load)
        root = storedName(op->operand(0), &nested);
      else if (op->is(OpKind::Call) && op->operand(0) && op->operand(0)->is(OpKind::Attribute) &&
               llvm::is_contained(Changes, op->operand(0)->text))
        root = storedName(op->operand(0)->operand(0), &nested);
      if (!root || reported.count(root->text))
        return;
      NameResolution r = unit.context->scopes->resolve(root);
      if (!r.symbol || boundInInvoke(ctx, *r.symbol))
        return;
      bool container = llvm::any_of(values.valuesOf(root), [](const Value &v) {
        return v.kind == ValueKind::Container && v.text != "range" && v.text != "tuple";
      }) || assignedTo(*r.symbol, mutableDisplay);
      // (The join adds up what the copies put in the container itself, not
      // what they put in its elements.)
      bool joined = joinedContainer(values, *r.symbol);
      if (!container || (joined && !nested) || computedInTraceBody(ctx, values, *r.symbol))
        return;
      reported.insert(root->text);
      // An empty one the plan could not pin (outer code may change it, or
      // the trace is in a function, which may run it again) is the caller's.
      auto empty = [&](const Op *v) { return values.emptyContainer(v); };
      bool unpinnedEmpty = !values.pinnedConstant(*r.symbol) && assignedTo(*r.symbol, empty);
      ctx.report(Tier::Fast, unit, *op, DiagId::InvokeChangesCopy,
                 {std::to_string(ctx.mediator.index),
                  "changes '" + std::string(root->text) + "' in place, but " + each +
                      " changes a copy of its own, and one copy comes back: " +
                      (unpinnedEmpty
                           ? "ivc joins the copies only of an empty list or dict bound once "
                             "outside any function and changed by no code outside the traces "
                             "before them; save what each invoke makes under a name of its own"
                           : "start it empty before the trace and append to it, or save what "
                             "each invoke makes under a name of its own")});
    });
    readsJoined(ctx, each, reported);
  }

  // A pinned empty list or dict (`acts = []`) that the runtime joins after
  // the trace, used here other than by adding to it: each invoke's copy
  // holds only what that invoke added (`len(acts)`, `counts.get(k, 0)`), and
  // the join puts each copy's items after the last's (`acts.insert(0, h)`).
  void readsJoined(MediatorContext &ctx, const std::string &each,
                   std::set<std::string_view> &reported) {
    const CodeUnit &unit = ctx.code.units[0];
    ValueAnalysis &values = *unit.context->values;
    static constexpr std::string_view Adds[] = {"append", "extend", "update", "save"};
    llvm::DenseSet<const Op *> adding;
    ctx.code.forEachOp(unit, [&](Op *op) {
      const Op *base = op->operand(0);
      if ((op->is(OpKind::Attribute) && llvm::is_contained(Adds, op->text)) ||
          (op->is(OpKind::Subscript) && op->ctx == Ctx::Store))
        adding.insert(base);
      // nnsight.save(acts)
      if (op->is(OpKind::Call) && base && base->is(OpKind::Attribute) && base->text == "save" &&
          op->operands.size() == 2)
        adding.insert(op->operand(1));
    });
    ctx.code.forEachOp(unit, [&](Op *op) {
      if (!op->is(OpKind::Name) || op->ctx != Ctx::Load || adding.contains(op) ||
          reported.count(op->text))
        return;
      NameResolution r = unit.context->scopes->resolve(op);
      if (!r.symbol || !joinedContainer(values, *r.symbol) || boundInInvoke(ctx, *r.symbol))
        return;
      reported.insert(op->text);
      ctx.report(Tier::Fast, unit, *op, DiagId::InvokeChangesCopy,
                 {std::to_string(ctx.mediator.index),
                  "uses '" + std::string(op->text) + "' other than by adding to it, but " +
                      each + " fills a copy of its own, which holds only what that invoke "
                      "added, and the runtime joins the copies after the trace, each one's "
                      "items after the last's: add to it only with append, extend, update or "
                      "item assignment, and read it after the trace"});
    });
  }

  void crossInvoke(MediatorContext &ctx) {
    const CodeUnit &unit = ctx.code.units[0];
    ValueAnalysis &values = *unit.context->values;
    auto hasBarrier = [&](const Mediator &m) {
      bool found = false;
      EffectiveCode code;
      code.mediator = &m;
      CodeUnit u;
      u.context = unit.context;
      code.collectOps(u);
      code.forEachOp(u, [&](Op *op) { found |= isBarrierCall(op, values); });
      return found;
    };
    bool selfBarrier = hasBarrier(ctx.mediator);
    llvm::DenseMap<const Symbol *, bool> computed; // a walk of the trace's loops each
    ctx.code.forEachOp(unit, [&](Op *op) {
      if (!op->is(OpKind::Name) || op->ctx != Ctx::Load)
        return;
      NameResolution r = unit.context->scopes->resolve(op);
      if (!r.symbol)
        return;
      if (boundInInvoke(ctx, *r.symbol))
        return; // its own value, not another's
      for (const Mediator &other : ctx.trace.mediators) {
        if (&other == &ctx.mediator || other.kind != MediatorKind::Invoke)
          continue;
        for (const Binding &b : r.symbol->bindings) {
          if (!b.site || !other.bodyRange.contains(b.site->range.begin.offset))
            continue;
          if (selfBarrier || hasBarrier(other))
            return;
          ctx.report(Tier::Fast, unit, *op, DiagId::CrossInvokeValue,
                     {op->text, std::to_string(other.index), std::to_string(ctx.mediator.index)});
          return;
        }
      }
      auto known = computed.try_emplace(r.symbol, false);
      if (known.second)
        known.first->second = computedInTraceBody(ctx, values, *r.symbol);
      if (known.first->second)
        ctx.report(Tier::Fast, unit, *op, DiagId::TraceBodyValue,
                   {op->text, std::to_string(ctx.mediator.index)});
    });
  }
};

} // namespace

std::unique_ptr<Pass> createBoundaryPass() { return std::make_unique<BoundaryPass>(); }

} // namespace ivc
