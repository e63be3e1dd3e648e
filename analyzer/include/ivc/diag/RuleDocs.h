//===- RuleDocs.h - The documentation page of each rule -----------------===//
#ifndef IVC_DIAG_RULEDOCS_H
#define IVC_DIAG_RULEDOCS_H

#include <string_view>

namespace ivc {

/// The Markdown page docs/diagnostics/<code>.md, compiled into ivc; empty if none.
std::string_view ruleDoc(std::string_view code);

/// The text of one "## Heading" section of a rule's page, without the heading.
std::string_view ruleDocSection(std::string_view code, std::string_view heading);

/// Where the page is published, for SARIF helpUri and editors.
std::string ruleHelpUri(std::string_view code);

} // namespace ivc

#endif
