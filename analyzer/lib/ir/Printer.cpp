//===- Printer.cpp - Text form of the IR (see docs/ir.md) -----------------===//
#include "ivc/ir/Printer.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

namespace ivc::ir {

void printQuoted(llvm::raw_ostream &os, std::string_view text, bool bytes) {
  // Text prints its UTF-8 as is; bytes and invalid UTF-8 print as \xNN.
  bool escapeHigh = bytes || !llvm::json::isUTF8(llvm::StringRef(text.data(), text.size()));
  os << '"';
  for (unsigned char c : text) {
    switch (c) {
    case '"': os << "\\\""; break;
    case '\\': os << "\\\\"; break;
    case '\n': os << "\\n"; break;
    case '\r': os << "\\r"; break;
    case '\t': os << "\\t"; break;
    default:
      if (c < 0x20 || c == 0x7F || (escapeHigh && c >= 0x80))
        os << llvm::format("\\x%02x", c);
      else
        os << char(c);
    }
  }
  os << '"';
}

void printRange(llvm::raw_ostream &os, const SourceRange &r, const PrintOptions &opts) {
  os << '@' << r.begin.line + 1 << ':' << r.begin.column + 1 << '-' << r.end.line + 1 << ':'
     << r.end.column + 1;
  if (opts.byteOffsets)
    os << '[' << r.begin.offset << ".." << r.end.offset << ')';
}

namespace {

std::string_view ctxSuffix(Ctx c) {
  switch (c) {
  case Ctx::Load: return "";
  case Ctx::Store: return ".store";
  case Ctx::Del: return ".del";
  }
  return "";
}

std::string_view paramKindName(ParamKind k) {
  switch (k) {
  case ParamKind::PositionalOnly: return "posonly";
  case ParamKind::Normal: return "";
  case ParamKind::VarArgs: return "varargs";
  case ParamKind::KeywordOnly: return "kwonly";
  case ParamKind::VarKeywords: return "varkw";
  }
  return "";
}

// Ops whose main text is a name or literal (quoted) rather than an operator.
bool quotesText(const Op &op) {
  switch (op.kind) {
  case OpKind::BinaryOp: case OpKind::UnaryOp: case OpKind::BoolOp: case OpKind::Compare:
  case OpKind::AugAssign: case OpKind::Int: case OpKind::Float: case OpKind::Complex:
  case OpKind::Opaque:
    return false;
  default:
    return true;
  }
}

} // namespace

void printOp(llvm::raw_ostream &os, const Op &op, unsigned indent, const PrintOptions &opts) {
  os.indent(indent);
  if (op.cls() != OpClass::Stmt)
    os << '%' << op.id << " = ";
  os << mnemonic(op.kind) << ctxSuffix(op.ctx);
  if (op.isAsync)
    os << (op.is(OpKind::Try) || op.is(OpKind::ExceptHandler) ? " star" : " async");
  if (op.is(OpKind::Param) && op.paramKind() != ParamKind::Normal)
    os << ' ' << paramKindName(op.paramKind());
  if (op.is(OpKind::With) && op.withRole() == WithRole::Trace)
    os << " trace#" << op.number;
  if (op.is(OpKind::With) && op.withRole() == WithRole::Invoke)
    os << " invoke#" << op.number;
  if (!op.text.empty() || op.is(OpKind::Str) || op.is(OpKind::Bytes)) {
    os << ' ';
    if (quotesText(op))
      printQuoted(os, op.text, op.is(OpKind::Bytes));
    else
      os << op.text;
  }
  if (op.is(OpKind::ImportFrom)) {
    os << " from ";
    os << std::string(op.number, '.');
    printQuoted(os, op.text2);
  }
  if (!op.alias.empty()) {
    os << " as ";
    printQuoted(os, op.alias);
  }
  for (size_t i = 0; i < op.operands.size(); ++i) {
    os << (i ? ", " : " ");
    if (op.operands[i])
      os << '%' << op.operands[i]->id;
    else
      os << '_';
  }
  os << ' ';
  printRange(os, op.range, opts);
  bool first = true;
  for (const Region &r : op.regions) {
    if (r.kind == RegionKind::Else && r.ops.empty())
      continue; // `for`, `while` and `if` without an else
    if (first && (r.kind == RegionKind::Body || r.kind == RegionKind::Then ||
                  r.kind == RegionKind::Clauses))
      os << " {\n";
    else if (first)
      os << ' ' << regionName(r.kind) << " {\n";
    else
      os.indent(indent) << "} " << regionName(r.kind) << " {\n";
    first = false;
    for (const Op *child : r.ops)
      printOp(os, *child, indent + 2, opts);
  }
  if (!first)
    os.indent(indent) << '}';
  os << '\n';
}

void printTraces(llvm::raw_ostream &os, const std::vector<TraceRegion> &traces,
                 const PrintOptions &opts) {
  for (const TraceRegion &t : traces) {
    os << "trace #" << t.index << ' ' << t.method << " receiver=";
    printQuoted(os, t.receiver);
    if (!t.tracerName.empty()) {
      os << " tracer=";
      printQuoted(os, t.tracerName);
    }
    if (t.parent >= 0)
      os << " parent=#" << t.parent;
    os << ' ';
    printRange(os, t.range, opts);
    os << '\n';
    for (const Mediator &m : t.mediators) {
      os << "  mediator #" << t.index << '.' << m.index << ' '
         << (m.kind == MediatorKind::Invoke ? "invoke" : "body") << ' ';
      printRange(os, m.range, opts);
      os << " body=";
      printRange(os, m.bodyRange, opts);
      os << '\n';
    }
  }
}

} // namespace ivc::ir
