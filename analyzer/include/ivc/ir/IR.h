//===- IR.h - ivc's region-structured Python IR -------------------------===//
//
// A module lowers to one Op tree. Every op lives in exactly one Region; a
// region is an ordered list of ops. Expressions are flattened in evaluation
// order: an op's operands are ops that appear earlier (in the same region or
// an enclosing one), so a pass that only needs "every op of this mediator"
// walks the regions and never recurses through operands. Ops are allocated in
// the module's arena and never freed individually. See docs/ir.md.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_IR_IR_H
#define IVC_IR_IR_H

#include "ivc/frontend/SourceFile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Allocator.h"

#include <cstdint>
#include <span>
#include <vector>
#include <string_view>
#include <utility>

namespace ivc::ir {

enum class OpKind : uint8_t {
#define IVC_OP(Name, Mnemonic, Class) Name,
#include "ivc/ir/Ops.def"
};

enum class OpClass : uint8_t { Stmt, Expr, Pattern, Part };

std::string_view mnemonic(OpKind kind);
OpClass opClass(OpKind kind);

/// Expression context, as in CPython's ast: a name or attribute read, assigned or deleted.
enum class Ctx : uint8_t { Load, Store, Del };

enum class ParamKind : uint8_t { PositionalOnly, Normal, VarArgs, KeywordOnly, VarKeywords };

enum class RegionKind : uint8_t { Body, Then, Else, Except, Finally, Case, Clauses };
std::string_view regionName(RegionKind kind);

/// What a `with` op opens, as the frontend recognized it.
enum class WithRole : uint8_t { Plain, Trace, Invoke };

struct Op;

struct Region {
  RegionKind kind = RegionKind::Body;
  std::span<Op *> ops;
  Op *parent = nullptr;
};

struct Op {
  OpKind kind = OpKind::Opaque;
  Ctx ctx = Ctx::Load;
  bool isAsync = false;  // async for/with/def/comprehension; except* on Try
  uint8_t small = 0;     // ParamKind for Param; WithRole for With
  uint32_t number = 0;   // import level for ImportFrom; trace/mediator index for With
  uint32_t id = 0;       // value number %id, unique in the module (expressions only)
  uint32_t index = 0;    // dense index of every op, for analyses' side tables
  SourceRange range;
  std::string_view text;  // the op's main string (see Ops.def)
  std::string_view text2; // the module of ImportFrom
  std::string_view alias; // the as-name of Import and ImportFrom
  std::span<Op *> operands;
  std::span<Region> regions;
  Region *parentRegion = nullptr;

  OpClass cls() const { return opClass(kind); }
  bool is(OpKind k) const { return kind == k; }
  Op *operand(size_t i) const { return i < operands.size() ? operands[i] : nullptr; }
  Region *region(RegionKind k);
  Op *parentOp() const { return parentRegion ? parentRegion->parent : nullptr; }

  ParamKind paramKind() const { return ParamKind(small); }
  WithRole withRole() const { return WithRole(small); }
  bool isConstant() const;
};

/// The expression ops a statement evaluates before it runs: the run of
/// non-statement ops right before it in its region (see docs/ir.md).
std::span<Op *> statementHeader(const Op *stmt);

/// The return ops of a def or lambda, not those of the functions and
/// classes nested in it (a lambda's body is one).
std::vector<const Op *> returnsOf(const Op &function);

/// Whether `op` is a display or comprehension that makes a new list, dict or
/// set (`[]`, `{k: v}`, `{x for x in xs}`).
bool makesContainer(const Op *op);

/// The value of a call's keyword argument `name`, or null.
const Op *keywordArgument(const Op &call, std::string_view name);
/// A call's positional argument `i`, or null (also past a `*args`).
const Op *positionalArgument(const Op &call, size_t i);
/// A call's argument `i` by position, or its keyword argument `name`.
const Op *argument(const Op &call, size_t i, std::string_view name);

/// A lowered module. Owns every op and region of its IR. Strings point either
/// into the module's arena or into the SourceFile it was lowered from, which
/// must outlive it (frontend::ParsedFile keeps the two together).
class Module {
public:
  Module() = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  Op *root() const { return root_; }
  void setRoot(Op *op) { root_ = op; }
  uint32_t numValues() const { return nextId_; }
  uint32_t numOps() const { return nextIndex_; }

  Op *create(OpKind kind, SourceRange range);
  /// `n` ops in one block, not numbered yet, for copying lowered ops from an
  /// earlier module: the copier numbers them within claimNumbers(...)'s ranges.
  std::span<Op> allocateOps(size_t n) {
    Op *mem = arena_.Allocate<Op>(n);
    for (size_t i = 0; i < n; ++i)
      new (&mem[i]) Op();
    return {mem, n};
  }
  /// Room for `n` operand pointers, to be filled in.
  std::span<Op *> allocateOperands(size_t n) {
    return n ? std::span<Op *>(arena_.Allocate<Op *>(n), n) : std::span<Op *>();
  }
  /// Reserves `ops` indices and `values` value numbers; returns the first of each.
  std::pair<uint32_t, uint32_t> claimNumbers(uint32_t ops, uint32_t values) {
    std::pair<uint32_t, uint32_t> first{nextIndex_, nextId_};
    nextIndex_ += ops;
    nextId_ += values;
    return first;
  }
  std::string_view save(std::string_view s);
  template <typename T> std::span<T> copy(llvm::ArrayRef<T> items) {
    if (items.empty())
      return {};
    T *mem = arena_.Allocate<T>(items.size());
    std::uninitialized_copy(items.begin(), items.end(), mem);
    return {mem, items.size()};
  }
  std::span<Region> allocateRegions(size_t n);

  /// The `global` and `nonlocal` ops, wherever they are: they change which
  /// scope owns a name, so scope analysis looks at them first.
  const std::vector<Op *> &scopeDeclarations() const { return declarations_; }
  void noteScopeDeclaration(Op *op) { declarations_.push_back(op); }

private:
  llvm::BumpPtrAllocator arena_;
  Op *root_ = nullptr;
  std::vector<Op *> declarations_;
  uint32_t nextId_ = 0;
  uint32_t nextIndex_ = 0;
};

} // namespace ivc::ir

#endif
