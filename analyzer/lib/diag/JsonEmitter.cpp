//===- JsonEmitter.cpp ----------------------------------------------------===//
#include "ivc/diag/JsonEmitter.h"

namespace ivc {

namespace {
llvm::json::Value pos(const SourcePos &p) {
  return llvm::json::Object{{"line", int64_t(p.line) + 1},
                            {"column", int64_t(p.column) + 1},
                            {"offset", int64_t(p.offset)}};
}
} // namespace

std::string utf8(std::string_view s) {
  llvm::StringRef r(s.data(), s.size());
  return llvm::json::isUTF8(r) ? std::string(s) : llvm::json::fixUTF8(r);
}

llvm::json::Value rangeJson(const SourceRange &r) {
  return llvm::json::Object{{"start", pos(r.begin)}, {"end", pos(r.end)}};
}

llvm::json::Value diagnosticJson(const Diagnostic &d, const SourceFile &main, bool suppressed) {
  const DiagInfo &info = d.info();
  llvm::json::Array notes;
  for (const DiagNote &n : d.notes) {
    llvm::json::Object o{{"message", utf8(n.message)}, {"range", rangeJson(n.range)}};
    if (n.file)
      o["file"] = utf8(n.file->path());
    notes.push_back(std::move(o));
  }
  llvm::json::Array fixits;
  for (const FixIt &f : d.fixIts)
    fixits.push_back(llvm::json::Object{
        {"range", rangeJson(f.range)}, {"replacement", utf8(f.replacement)}, {"title", utf8(f.title)}});
  llvm::json::Object o{{"code", std::string(info.code)},
                       {"name", std::string(info.name)},
                       {"severity", std::string(severityName(d.severity))},
                       {"message", utf8(d.message)},
                       {"range", rangeJson(d.range)},
                       {"notes", std::move(notes)},
                       {"fixits", std::move(fixits)},
                       {"suppressed", suppressed}};
  o["file"] = utf8(d.file ? d.file->path() : main.path());
  return o;
}

} // namespace ivc
