//===- Text.cpp -----------------------------------------------------------===//
#include "ivc/support/Text.h"

namespace ivc {

std::string dedent(std::string_view text, uint32_t column) {
  std::string out;
  bool first = true;
  for (size_t i = 0; i <= text.size();) {
    size_t nl = text.find('\n', i);
    std::string_view line =
        text.substr(i, nl == std::string_view::npos ? std::string_view::npos : nl - i);
    if (!first) {
      size_t strip = 0;
      while (strip < column && strip < line.size() && (line[strip] == ' ' || line[strip] == '\t'))
        ++strip;
      line = line.substr(strip);
    }
    first = false;
    out += line;
    if (nl == std::string_view::npos)
      break;
    out += '\n';
    i = nl + 1;
  }
  if (!out.empty() && out.back() != '\n')
    out += '\n';
  return out;
}

} // namespace ivc
