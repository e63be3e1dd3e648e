//===- Uri.h - file:// URIs <-> paths -------------------------------------===//
#ifndef IVC_LSP_URI_H
#define IVC_LSP_URI_H

#include <optional>
#include <string>
#include <string_view>

namespace ivc::lsp {

/// The path of a `file://` URI, percent-decoded; nothing for another scheme
/// (an editor's `untitled:` buffer) or a malformed URI.
std::optional<std::string> uriToPath(std::string_view uri);

/// The `file://` URI of an absolute path, percent-encoding what RFC 3986
/// does not allow in a path.
std::string pathToUri(std::string_view path);

} // namespace ivc::lsp

#endif
