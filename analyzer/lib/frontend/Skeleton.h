//===- Skeleton.h - A file's top-level statements, found without parsing -===//
//
// A lexical pass that splits a Python file into its top-level statements and
// tells, for each, the module-level names it may bind and whether it may hold
// a trace region, so that the frontend hands tree-sitter only the statements
// it needs (Frontend::parseReachable, Frontend::parse after an edit). Every
// answer over-approximates: a name written where a binding could be counts
// as bound, and a statement that writes `with` and a trace method's name may
// hold a trace. Strings follow Python 3.12: an f-string's replacement fields
// are code, whose strings may reuse the f-string's quotes. When the layout is
// anything the pass does not follow (a bracket never closed, an unterminated
// string, a form feed or a lone carriage return, a NUL byte, a line that
// starts with a backslash continuation, an indented first line), it gives up
// and the whole file is parsed.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_FRONTEND_SKELETON_H
#define IVC_LIB_FRONTEND_SKELETON_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ivc {

struct SkeletonStatement {
  /// Bytes from the start of its first line (column 0) to the start of the
  /// next statement (its trailing blank and comment lines are its own, as
  /// tree-sitter may put a trailing comment in its block), and the rows and
  /// column of both ends.
  uint32_t begin = 0, end = 0;
  uint32_t row = 0, endRow = 0, endColumn = 0;
  /// Just past its last token: where tree-sitter's node for it ends.
  uint32_t codeEnd = 0;
  bool holdsTrace = false;
  /// A star import, or a dunder name bound: kept always.
  bool alwaysParse = false;
  /// It holds `from __future__ import` (see futureImportPrefix).
  bool futureImport = false;
  /// nameHash() of every module-level name it may bind.
  llvm::SmallVector<uint64_t, 2> binds;
};

struct Skeleton {
  bool complete = false; // false: the scan gave up
  std::vector<SkeletonStatement> statements;
};

Skeleton scanSkeleton(std::string_view text, llvm::ArrayRef<std::string> traceMethods);

/// How many statements, from the first, must be parsed together: up to the
/// last that holds `from __future__ import` (whether it may stand there
/// depends on what precedes it); 0 when none does.
size_t futureImportPrefix(const Skeleton &sk);

/// Appends nameHash() of every name `s` spells, in its f-strings' replacement
/// fields too (a superset of the names it reads).
void namesSpelled(std::string_view text, const SkeletonStatement &s, std::vector<uint64_t> &out);

/// The hash of an identifier, NFKC-normalized as the lowering normalizes it.
uint64_t nameHash(std::string_view identifier);

} // namespace ivc

#endif
