//===- EditedParse.cpp - Parse only the statements an edit changed --------===//
//
// The language server analyzes a document after every keystroke. A top-level
// statement whose text did not change lowers to the same IR, so it is copied
// from the previous parse (UnitCopy.cpp), and tree-sitter is given only the
// others (StatementParse.cpp): typically the one statement being typed in,
// however long the file. tree-sitter's own incremental re-parse is no
// substitute: after an edit that changes a line's indentation tokens, its
// Python scanner re-lexes the rest of the file. When the changed statements
// do not parse on their own without error, Frontend::parse re-parses the
// whole file, incrementally, as before.
//
//===----------------------------------------------------------------------===//
#include "ivc/frontend/Frontend.h"

#include "Lowering.h"
#include "Skeleton.h"

#include "llvm/Support/xxhash.h"

namespace ivc {

std::unique_ptr<ParsedFile> Frontend::parseEdited(std::shared_ptr<const SourceFile> source,
                                                  const ParsedFile &previous) {
  std::string_view text = source->text();
  Skeleton sk = scanSkeleton(text, options_.traceMethods);
  if (!sk.complete)
    return nullptr;
  UnitIndex index;
  for (const LoweredUnit &u : previous.units)
    if (u.reusable && u.column == 0)
      index.emplace(u.hash, &u);

  std::vector<bool> parse(sk.statements.size(), true);
  std::vector<StatementCopy> copies;
  for (size_t i = futureImportPrefix(sk); i < sk.statements.size(); ++i) {
    const SkeletonStatement &s = sk.statements[i];
    std::string_view code = text.substr(s.begin, s.codeEnd - s.begin);
    uint64_t hash = llvm::xxHash64(llvm::StringRef(code.data(), code.size()));
    auto [from, to] = index.equal_range(hash);
    for (auto it = from; it != to; ++it) {
      const LoweredUnit &old = *it->second;
      if (previous.source->text().compare(old.begin, old.end - old.begin, code) != 0)
        continue;
      LoweredUnit at;
      at.begin = s.begin;
      at.end = s.codeEnd;
      at.line = s.row;
      at.hash = hash;
      at.symbol = old.symbol;
      copies.push_back({&old, at});
      parse[i] = false;
      break;
    }
  }
  if (copies.empty())
    return nullptr; // nothing to copy: the whole file's incremental parse is as good
  return parseStatements(std::move(source), sk, parse, &previous, copies);
}

} // namespace ivc
