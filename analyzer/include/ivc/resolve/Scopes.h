//===- Scopes.h - Python's scopes and the bindings in each ---------------===//
//
// The scope tree follows CPython's rules:
// module, function, lambda, class and comprehension scopes; `global` and
// `nonlocal`; class scopes invisible to the functions nested in them;
// comprehension targets local to the comprehension, walrus targets in the
// enclosing function. Every name load then resolves to a symbol (with all of
// its bindings, flow-insensitively), a builtin, or nothing.
//
// Scopes are built on demand: the module's at once, a function's, class's or
// comprehension's when something in it is first resolved (so the helpers no
// mediator reaches cost nothing), and at once every scope that declares a
// name global or nonlocal, since that changes who owns the name.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RESOLVE_SCOPES_H
#define IVC_RESOLVE_SCOPES_H

#include "ivc/ir/IR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <memory>
#include <vector>

namespace ivc {

enum class ScopeKind : uint8_t { Module, Function, Lambda, Class, Comprehension };

/// How a name got its value at one binding site.
struct Binding {
  enum class Kind : uint8_t {
    Assign,   // value: the assigned value (or the element of a tuple display)
    AugAssign,
    Param,    // site: the param op
    Import,   // site: the import op; binds the top package or the as-name
    ImportFrom,
    Function, // site: the def op
    Class,    // site: the class op
    Loop,     // value: the iterable; path: the tuple position of the target
    WithAs,   // value: the context expression
    Except,
    Pattern,
    Walrus,   // value: the assigned value
    Delete,
  };
  Kind kind;
  ir::Op *site = nullptr;
  ir::Op *value = nullptr;
  /// For unpacking targets of loops and with: the positions from the value to
  /// this name (`for i, (a, b) in ...` gives b the path {1, 1}).
  llvm::SmallVector<uint8_t, 2> path;
};

struct Scope;

struct Symbol {
  std::string_view name;
  Scope *scope = nullptr;
  llvm::SmallVector<Binding, 1> bindings;
};

struct Scope {
  ScopeKind kind;
  Scope *parent = nullptr;
  ir::Op *owner = nullptr; // def, lambda, class or comprehension op; the module op
  llvm::StringMap<Symbol> symbols;
  llvm::StringMap<bool> globals;   // names declared `global` here
  llvm::StringMap<bool> nonlocals; // names declared `nonlocal` here
  std::vector<ir::Op *> starImports;
  bool built = false;

  Symbol *lookupLocal(std::string_view name);
};

struct NameResolution {
  enum class Kind : uint8_t { Local, Enclosing, Global, Builtin, Undefined };
  Kind kind = Kind::Undefined;
  Symbol *symbol = nullptr; // null for Builtin and Undefined
};

class ScopeTree {
public:
  explicit ScopeTree(const ir::Module &module);

  Scope *moduleScope() const { return scopes_.front().get(); }
  /// The scope a def, lambda, class or comprehension op opens (built on demand).
  Scope *scopeOf(const ir::Op *owner) const;
  /// The scope in which a name op (or any op) appears (built on demand).
  Scope *enclosingScope(const ir::Op *op) const;
  /// How many scopes have been built so far (for tests).
  size_t builtScopes() const;
  /// Resolves a name read at `op` (a Name op) with Python's rules.
  NameResolution resolve(const ir::Op *nameOp) const;
  NameResolution resolve(std::string_view name, Scope *from) const;

private:
  friend class ScopeBuilder;
  void build(Scope *s) const;
  // Built lazily behind a const interface; a tree belongs to one analysis.
  mutable std::vector<std::unique_ptr<Scope>> scopes_;
  mutable std::vector<Scope *> opScope_; // by op index
  mutable llvm::DenseMap<const ir::Op *, Scope *> ownerScope_;
};

/// Python 3.11's builtin names.
bool isBuiltinName(std::string_view name);

} // namespace ivc

#endif
