//===- ScopeBuilder.cpp - Building the scope tree in one walk -------------===//
#include "ivc/resolve/Scopes.h"

#include <algorithm>

namespace ivc {

using namespace ir;

Symbol *Scope::lookupLocal(std::string_view name) {
  auto it = symbols.find(llvm::StringRef(name.data(), name.size()));
  return it == symbols.end() ? nullptr : &it->second;
}

namespace {
bool ownsScope(const Op *op) {
  switch (op->kind) {
  case OpKind::FunctionDef: case OpKind::Lambda: case OpKind::ClassDef: case OpKind::ListComp:
  case OpKind::SetComp: case OpKind::DictComp: case OpKind::GeneratorExp:
    return true;
  default:
    return false;
  }
}
} // namespace

class ScopeBuilder {
public:
  explicit ScopeBuilder(const ScopeTree &tree) : tree_(tree) {}

  void start(const Module &m) {
    tree_.opScope_.assign(m.numOps(), nullptr);
    Scope *module = newScope(ScopeKind::Module, nullptr, m.root());
    build(module);
    // A `global`/`nonlocal` anywhere moves bindings between scopes: build the
    // scopes that declare one (and so their ancestors) now.
    for (Op *decl : m.scopeDeclarations())
      tree_.enclosingScope(decl);
  }

  /// Walks the scope's own code: nested scopes get a Scope object (and their
  /// name a binding here) but are walked only when they are built.
  void build(Scope *s) {
    s->built = true;
    Op *owner = s->owner;
    if (owner->is(OpKind::FunctionDef) || owner->is(OpKind::Lambda))
      for (Op *p : owner->operands)
        if (p && p->is(OpKind::Param))
          bind(s, p->text, Binding{Binding::Kind::Param, p, nullptr, {}});
    bool comprehension = s->kind == ScopeKind::Comprehension;
    for (Region &r : owner->regions)
      for (Op *child : r.ops) {
        visit(child, s);
        if (comprehension && child->is(OpKind::CompFor)) // the first clause iterates the op's operand
          bindTarget(s, child->operand(0), Binding::Kind::Loop,
                     child->operand(1) ? child->operand(1) : owner->operand(0));
      }
    relocateDeclarations(s);
  }

private:
  Scope *newScope(ScopeKind kind, Scope *parent, Op *owner) {
    tree_.scopes_.push_back(std::make_unique<Scope>());
    Scope *s = tree_.scopes_.back().get();
    s->kind = kind;
    s->parent = parent;
    s->owner = owner;
    tree_.ownerScope_[owner] = s;
    return s;
  }

  void bind(Scope *s, std::string_view name, Binding b) {
    if (name.empty())
      return;
    Symbol &sym = s->symbols[llvm::StringRef(name.data(), name.size())];
    sym.name = name;
    sym.scope = s;
    sym.bindings.push_back(std::move(b));
  }

  // Binds every name in an assignment target; `value` is what the whole target
  // receives, matched element-wise against a tuple or list display when possible.
  void bindTarget(Scope *s, Op *target, Binding::Kind kind, Op *value,
                  llvm::SmallVector<uint8_t, 2> path = {}) {
    if (!target)
      return;
    switch (target->kind) {
    case OpKind::Name:
      bind(s, target->text, Binding{kind, target, value, path});
      return;
    case OpKind::Starred:
      bindTarget(s, target->operand(0), kind, nullptr);
      return;
    case OpKind::Tuple:
    case OpKind::List: {
      bool displayMatches = kind == Binding::Kind::Assign && value &&
                            (value->is(OpKind::Tuple) || value->is(OpKind::List)) &&
                            value->operands.size() == target->operands.size();
      // After a starred target, positions no longer line up with the value's.
      bool starred = std::any_of(target->operands.begin(), target->operands.end(),
                                 [](Op *e) { return e && e->is(OpKind::Starred); });
      for (size_t i = 0; i < target->operands.size(); ++i) {
        Op *elt = target->operands[i];
        if (starred) {
          bindTarget(s, elt, kind, nullptr);
        } else if (displayMatches) {
          Op *v = value->operands[i];
          bindTarget(s, elt, kind, v && !v->is(OpKind::Starred) ? v : nullptr);
        } else {
          auto sub = path;
          sub.push_back(uint8_t(std::min<size_t>(i, 255)));
          bindTarget(s, elt, kind, value, sub);
        }
      }
      return;
    }
    default:
      return; // attributes and subscripts bind nothing
    }
  }

  Scope *functionScopeFor(Scope *s) {
    // Walrus targets bind in the nearest scope that is not a comprehension.
    while (s->kind == ScopeKind::Comprehension && s->parent)
      s = s->parent;
    return s;
  }

  void walkRegions(Op *op, Scope *s) {
    for (Region &r : op->regions)
      for (Op *child : r.ops)
        visit(child, s);
  }

  void visit(Op *op, Scope *s) {
    tree_.opScope_[op->index] = s;
    switch (op->kind) {
    case OpKind::FunctionDef:
      bind(s, op->text, Binding{Binding::Kind::Function, op, nullptr, {}});
      newScope(ScopeKind::Function, s, op);
      return;
    case OpKind::Lambda:
      newScope(ScopeKind::Lambda, s, op);
      return;
    case OpKind::ClassDef:
      bind(s, op->text, Binding{Binding::Kind::Class, op, nullptr, {}});
      newScope(ScopeKind::Class, s, op);
      return;
    case OpKind::ListComp:
    case OpKind::SetComp:
    case OpKind::DictComp:
    case OpKind::GeneratorExp:
      // A walrus inside binds in this scope's function: build it with us.
      build(newScope(ScopeKind::Comprehension, s, op));
      return;
    case OpKind::Assign:
      for (size_t i = 0; i + 1 < op->operands.size(); ++i)
        bindTarget(s, op->operands[i], Binding::Kind::Assign, op->operands.back());
      return;
    case OpKind::AnnAssign:
      if (op->operand(2))
        bindTarget(s, op->operand(0), Binding::Kind::Assign, op->operand(2));
      return;
    case OpKind::AugAssign:
      bindTarget(s, op->operand(0), Binding::Kind::AugAssign, nullptr);
      return;
    case OpKind::For:
      bindTarget(s, op->operand(0), Binding::Kind::Loop, op->operand(1));
      walkRegions(op, s);
      return;
    case OpKind::With:
      for (Op *item : op->operands)
        if (item && item->operand(1))
          bindTarget(s, item->operand(1), Binding::Kind::WithAs, item->operand(0));
      walkRegions(op, s);
      return;
    case OpKind::Delete:
      for (Op *t : op->operands)
        if (t && t->is(OpKind::Name))
          bind(s, t->text, Binding{Binding::Kind::Delete, t, nullptr, {}});
      return;
    case OpKind::Import: {
      // `import a.b` binds `a`; `import a.b as c` binds `c`.
      std::string_view name = op->alias.empty() ? op->text.substr(0, op->text.find('.'))
                                                : op->alias;
      bind(s, name, Binding{Binding::Kind::Import, op, nullptr, {}});
      return;
    }
    case OpKind::ImportFrom:
      if (op->text == "*")
        s->starImports.push_back(op);
      else
        bind(s, op->alias.empty() ? op->text : op->alias,
             Binding{Binding::Kind::ImportFrom, op, nullptr, {}});
      return;
    case OpKind::ExceptHandler:
      bind(s, op->text, Binding{Binding::Kind::Except, op, nullptr, {}});
      return;
    case OpKind::MatchAs:
    case OpKind::MatchStar:
    case OpKind::MatchMapping:
      bind(s, op->text, Binding{Binding::Kind::Pattern, op, nullptr, {}});
      return;
    case OpKind::NamedExpr:
      bind(functionScopeFor(s), op->text, Binding{Binding::Kind::Walrus, op, op->operand(0), {}});
      return;
    case OpKind::Global:
      s->globals[llvm::StringRef(op->text.data(), op->text.size())] = true;
      return;
    case OpKind::Nonlocal:
      s->nonlocals[llvm::StringRef(op->text.data(), op->text.size())] = true;
      return;
    default:
      walkRegions(op, s);
      return;
    }
  }

  // `global x` and `nonlocal x` apply to the whole scope whatever their
  // position: move such bindings to the scope that owns the name.
  void relocateDeclarations(Scope *s) {
    Scope *module = tree_.moduleScope();
    auto move = [&](llvm::StringRef name, Scope *to) {
      auto it = s->symbols.find(name);
      if (it == s->symbols.end() || !to || to == s)
        return;
      Symbol &target = to->symbols[name];
      target.name = it->second.name;
      target.scope = to;
      for (Binding &b : it->second.bindings)
        target.bindings.push_back(std::move(b));
      s->symbols.erase(it);
    };
    for (auto &g : s->globals)
      move(g.getKey(), module);
    for (auto &n : s->nonlocals) {
      Scope *owner = s->parent;
      while (owner && (owner->kind == ScopeKind::Class || !owner->lookupLocal(n.getKey())) &&
             owner->kind != ScopeKind::Module)
        owner = owner->parent;
      if (owner && owner->kind != ScopeKind::Module)
        move(n.getKey(), owner);
    }
  }

  const ScopeTree &tree_;
};

ScopeTree::ScopeTree(const Module &module) { ScopeBuilder(*this).start(module); }

void ScopeTree::build(Scope *s) const {
  if (!s->built)
    ScopeBuilder(*this).build(s);
}

Scope *ScopeTree::scopeOf(const Op *owner) const {
  Scope *s = ownerScope_.lookup(owner);
  if (!s && owner->parentRegion) {
    enclosingScope(owner); // builds the parent, which creates this scope
    s = ownerScope_.lookup(owner);
  }
  if (s)
    build(s);
  return s;
}

Scope *ScopeTree::enclosingScope(const Op *op) const {
  if (op->index >= opScope_.size())
    return nullptr;
  if (Scope *s = opScope_[op->index])
    return s;
  // Not built yet: build the innermost scope owner above the op.
  for (const Op *up = op->parentOp(); up; up = up->parentOp())
    if (ownsScope(up)) {
      scopeOf(up);
      return opScope_[op->index];
    }
  return moduleScope();
}

size_t ScopeTree::builtScopes() const {
  size_t n = 0;
  for (auto &s : scopes_)
    n += s->built;
  return n;
}

NameResolution ScopeTree::resolve(const Op *nameOp) const {
  Scope *s = enclosingScope(nameOp);
  return resolve(nameOp->text, s ? s : moduleScope());
}

NameResolution ScopeTree::resolve(std::string_view name, Scope *from) const {
  llvm::StringRef key(name.data(), name.size());
  Scope *module = moduleScope();
  auto global = [&]() -> NameResolution {
    if (Symbol *sym = module->lookupLocal(name))
      return {NameResolution::Kind::Global, sym};
    if (isBuiltinName(name))
      return {NameResolution::Kind::Builtin, nullptr};
    return {NameResolution::Kind::Undefined, nullptr};
  };
  if (from->globals.count(key))
    return global();
  bool first = true;
  for (Scope *s = from; s && s != module; s = s->parent) {
    // A class scope is visible only to code directly in its body.
    if (s->kind == ScopeKind::Class && !first)
      continue;
    if (Symbol *sym = s->lookupLocal(name))
      return {first ? NameResolution::Kind::Local : NameResolution::Kind::Enclosing, sym};
    if (!first && s->globals.count(key))
      return global();
    first = false;
  }
  return global();
}

} // namespace ivc
