//===- TextEmitter.cpp ----------------------------------------------------===//
#include "ivc/diag/TextEmitter.h"

#include "ivc/frontend/Unicode.h"

#include <utf8proc.h>

#include <cstdio>

namespace ivc {

namespace {

constexpr unsigned TabStop = 8;

// Characters a terminal would act on rather than show: C0 and C1 controls
// (an escape sequence in a source line or a file name could rewrite the
// screen) and bidirectional overrides (they reorder what the reader sees).
// They are shown as <U+XXXX>.
bool hidden(char32_t cp) {
  return (cp < 0x20 && cp != '\t') || (cp >= 0x7f && cp <= 0x9f) ||
         (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

std::string shown(char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "<U+%04X>", unsigned(cp));
  return buf;
}

/// `text` with hidden characters shown (messages, paths, fix-it text).
std::string printable(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t start = i;
    char32_t cp = decodeUtf8(text, i);
    if (hidden(cp))
      out += shown(cp);
    else
      out.append(text.substr(start, i - start));
  }
  return out;
}

// Display columns of each byte of `line`, with tabs expanded, wide
// characters counted twice and hidden ones shown, so carets line up.
struct DisplayLine {
  std::string text;             // tabs expanded
  std::vector<unsigned> column; // display column of each byte offset (size + 1)
};

DisplayLine layout(std::string_view line) {
  DisplayLine out;
  out.column.resize(line.size() + 1);
  unsigned col = 0;
  for (size_t i = 0; i < line.size();) {
    size_t start = i;
    char32_t cp = decodeUtf8(line, i);
    for (size_t k = start; k < i; ++k)
      out.column[k] = col;
    if (cp == '\t') {
      unsigned next = (col / TabStop + 1) * TabStop;
      out.text.append(next - col, ' ');
      col = next;
      continue;
    }
    if (hidden(cp)) {
      std::string s = shown(cp);
      out.text += s;
      col += unsigned(s.size());
      continue;
    }
    out.text.append(line.substr(start, i - start));
    int w = utf8proc_charwidth(utf8proc_int32_t(cp));
    col += w < 0 ? 1 : unsigned(w);
  }
  out.column[line.size()] = col;
  return out;
}

void location(llvm::raw_ostream &os, const SourceFile &file, const SourceRange &r, bool color) {
  if (color)
    os.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  os << printable(file.path()) << ':' << r.begin.line + 1 << ':' << r.begin.column + 1 << ": ";
  if (color)
    os.resetColor();
}

void severityLabel(llvm::raw_ostream &os, Severity s, bool color) {
  if (color) {
    auto c = s == Severity::Error     ? llvm::raw_ostream::RED
             : s == Severity::Warning ? llvm::raw_ostream::MAGENTA
                                      : llvm::raw_ostream::CYAN;
    os.changeColor(c, true);
  }
  os << severityName(s) << ": ";
  if (color)
    os.resetColor();
}

void snippet(llvm::raw_ostream &os, const SourceFile &file, const SourceRange &r,
             const std::vector<FixIt> &fixIts, bool color) {
  if (r.begin.line >= file.lineCount())
    return;
  std::string_view line = file.lineText(r.begin.line);
  DisplayLine dl = layout(line);
  os << dl.text << '\n';
  auto col = [&](uint32_t byteCol) { return dl.column[std::min<size_t>(byteCol, line.size())]; };
  unsigned begin = col(r.begin.column);
  unsigned end = r.end.line == r.begin.line ? col(r.end.column) : col(uint32_t(line.size()));
  std::string marker(begin, ' ');
  marker += '^';
  if (end > begin + 1)
    marker.append(end - begin - 1, '~');
  if (color)
    os.changeColor(llvm::raw_ostream::GREEN, true);
  os << marker << '\n';
  if (color)
    os.resetColor();
  // Fix-its on this line print their replacement text under the place it goes.
  for (const FixIt &f : fixIts) {
    if (f.range.begin.line != r.begin.line || f.replacement.empty() ||
        f.replacement.find('\n') != std::string::npos)
      continue; // deletions and multi-line edits show in JSON, SARIF and the editor
    if (color)
      os.changeColor(llvm::raw_ostream::GREEN);
    os << std::string(col(f.range.begin.column), ' ') << printable(f.replacement) << '\n';
    if (color)
      os.resetColor();
  }
}

} // namespace

void emitText(llvm::raw_ostream &os, const SourceFile &mainFile, const Diagnostic &d,
              const TextEmitterOptions &opts) {
  const SourceFile &file = d.file ? *d.file : mainFile;
  location(os, file, d.range, opts.color);
  severityLabel(os, d.severity, opts.color);
  if (opts.color)
    os.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  os << printable(d.message);
  if (opts.showCode)
    os << " [" << d.info().code << ']';
  if (opts.color)
    os.resetColor();
  os << '\n';
  snippet(os, file, d.range, d.fixIts, opts.color);
  for (const DiagNote &n : d.notes) {
    const SourceFile &noteFile = n.file ? *n.file : file;
    location(os, noteFile, n.range, opts.color);
    severityLabel(os, Severity::Note, opts.color);
    os << printable(n.message) << '\n';
    snippet(os, noteFile, n.range, {}, opts.color);
  }
}

} // namespace ivc
