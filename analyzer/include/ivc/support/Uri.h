//===- Uri.h - Paths as URI references --------------------------------------===//
#ifndef IVC_SUPPORT_URI_H
#define IVC_SUPPORT_URI_H

#include <string>
#include <string_view>

namespace ivc {

/// `path` as the path of a URI: every byte outside RFC 3986's path
/// characters (space, `#`, `?`, `%`, non-ASCII, ...) percent-encoded, so
/// that a consumer decodes it back to the same bytes.
std::string percentEncodePath(std::string_view path);

} // namespace ivc

#endif
