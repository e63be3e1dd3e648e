//===- Pass.cpp - Reporting from passes -----------------------------------===//
#include "ivc/passes/Pass.h"

#include "ivc/frontend/Frontend.h"

namespace ivc {

std::string_view tierName(Tier t) {
  switch (t) {
  case Tier::Fast: return "fast";
  case Tier::Isolate: return "isolate";
  case Tier::Reject: return "reject";
  }
  return "?";
}

size_t DiagnosticSink::KeyHash::operator()(
    const std::tuple<uint16_t, const void *, uint32_t, uint32_t> &k) const {
  size_t h = std::hash<const void *>()(std::get<1>(k));
  h ^= (size_t(std::get<0>(k)) << 48) ^ (size_t(std::get<2>(k)) << 20) ^ std::get<3>(k);
  return h * 0x9E3779B97F4A7C15ull;
}

bool DiagnosticSink::add(Diagnostic d) {
  auto key = std::make_tuple(uint16_t(d.id), static_cast<const void *>(d.file),
                             d.range.begin.offset, d.range.end.offset);
  if (!seen_.insert(key).second)
    return false;
  diags_.push_back(std::move(d));
  return true;
}

std::string MediatorContext::subject(const CodeUnit &unit) const {
  switch (unit.kind) {
  case CodeUnit::Kind::Mediator:
    return mediator.kind == MediatorKind::Invoke ? "Invoke body" : "Trace body";
  case CodeUnit::Kind::Function:
    return "Function '" + std::string(unit.op->text) + "'";
  case CodeUnit::Kind::Class:
    return "Class '" + std::string(unit.op->text) + "'";
  case CodeUnit::Kind::Lambda:
    return "Lambda";
  }
  return "Code";
}

const SourceFile &MediatorContext::fileOf(const CodeUnit &unit) const {
  return *parsedOf(unit).source;
}

const ParsedFile &MediatorContext::parsedOf(const CodeUnit &unit) const {
  if (unit.context && unit.context->file)
    return *unit.context->file;
  return main;
}

Diagnostic *MediatorContext::report(Tier tier, const CodeUnit &unit, SourceRange range, DiagId id,
                                    std::initializer_list<std::string_view> args) {
  const SourceFile &file = fileOf(unit);
  Diagnostic d = makeDiagnostic(id, range, args);
  d.file = &file == &mainFile ? nullptr : &file;

  Reason r;
  r.tier = tier;
  r.id = id;
  r.message = d.message;
  r.range = range;
  r.file = &file;
  for (const ViaStep &step : unit.via) {
    r.via.push_back(step.unit + " L" + std::to_string(step.line));
    r.viaAt.push_back(step.range.begin.offset);
  }
  if (unit.elidedSteps) {
    r.via.push_back("... " + std::to_string(unit.elidedSteps) + " more calls");
    r.viaAt.push_back(Reason::NoOffset);
  }
  r.via.push_back(unit.name + " L" + std::to_string(range.begin.line + 1));
  r.viaAt.push_back(range.begin.offset);
  // The op's source on one line, whitespace collapsed, truncated.
  std::string text;
  for (char c : file.slice(range)) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space && (text.empty() || text.back() == ' '))
      continue;
    text += space ? ' ' : c;
  }
  if (text.size() > 48)
    text = text.substr(0, 45) + "...";
  r.via.push_back(text);
  r.viaAt.push_back(Reason::NoOffset);
  // Warnings and remarks that do not decide the tier are diagnostics only.
  if (tier != Tier::Fast) {
    if (tier > facts.tier)
      facts.tier = tier;
    facts.reasons.push_back(std::move(r));
  }

  for (size_t i = 0; i < unit.via.size(); ++i) {
    const ViaStep &step = unit.via[i];
    std::string target = i + 1 < unit.via.size() ? unit.via[i + 1].unit
                         : unit.elidedSteps       ? std::string("...")
                                                  : unit.name;
    DiagNote note{step.range, "reached through '" + target + "' from " + step.unit, step.file};
    d.notes.push_back(std::move(note));
  }
  if (!sink.add(std::move(d)))
    return nullptr;
  return &sink.diagnostics().back();
}

} // namespace ivc
