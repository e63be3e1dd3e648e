//===- Grammar.cpp --------------------------------------------------------===//
#include "ivc/frontend/Grammar.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace ivc {

std::optional<std::string> Grammar::checkAbi(const TSLanguage *language) {
  uint32_t abi = ts_language_version(language);
  if (abi >= TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION && abi <= TREE_SITTER_LANGUAGE_VERSION)
    return std::nullopt;
  return "the tree-sitter Python grammar has ABI version " + std::to_string(abi) +
         ", but the tree-sitter runtime accepts versions " +
         std::to_string(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION) + " to " +
         std::to_string(TREE_SITTER_LANGUAGE_VERSION) +
         "; rebuild ivc with the grammar pinned in grammar/package-lock.json";
}

const Grammar &Grammar::python() {
  static const Grammar grammar = [] {
    const TSLanguage *lang = tree_sitter_python();
    if (auto err = checkAbi(lang)) {
      std::fprintf(stderr, "ivc: fatal error: %s\n", err->c_str());
      std::exit(2);
    }
    return Grammar(lang);
  }();
  return grammar;
}

Grammar::Grammar(const TSLanguage *language) : language_(language) {
  static constexpr std::pair<std::string_view, Sym> nodeNames[] = {
#define IVC_SYM_NAME(e, name) {name, Sym::e},
      IVC_GRAMMAR_NODES(IVC_SYM_NAME)
#undef IVC_SYM_NAME
  };
  uint32_t count = ts_language_symbol_count(language);
  symbols_.assign(count, Sym::Other);
  for (TSSymbol s = 0; s < count; ++s) {
    if (ts_language_symbol_type(language, s) != TSSymbolTypeRegular)
      continue;
    std::string_view name = ts_language_symbol_name(language, s);
    for (auto &[n, sym] : nodeNames)
      if (n == name)
        symbols_[s] = sym;
  }
  static constexpr std::pair<std::string_view, Field> fieldNames[] = {
#define IVC_FIELD_NAME(e, name) {name, Field::e},
      IVC_GRAMMAR_FIELDS(IVC_FIELD_NAME)
#undef IVC_FIELD_NAME
  };
  uint32_t fieldCount = ts_language_field_count(language);
  fields_.assign(fieldCount + 1, Field::None);
  for (TSFieldId f = 1; f <= fieldCount; ++f) {
    const char *name = ts_language_field_name_for_id(language, f);
    for (auto &[n, field] : fieldNames)
      if (name && n == name)
        fields_[f] = field;
  }
}

bool isExpression(Sym s) {
  switch (s) {
  case Sym::identifier: case Sym::integer: case Sym::float_: case Sym::true_: case Sym::false_:
  case Sym::none: case Sym::ellipsis: case Sym::string: case Sym::concatenated_string:
  case Sym::attribute: case Sym::subscript: case Sym::call: case Sym::binary_operator:
  case Sym::unary_operator: case Sym::not_operator: case Sym::boolean_operator:
  case Sym::comparison_operator: case Sym::conditional_expression: case Sym::named_expression:
  case Sym::lambda: case Sym::list_splat: case Sym::parenthesized_expression: case Sym::list:
  case Sym::tuple: case Sym::set: case Sym::dictionary: case Sym::list_comprehension:
  case Sym::set_comprehension: case Sym::dictionary_comprehension:
  case Sym::generator_expression: case Sym::await: case Sym::yield: case Sym::expression_list:
    return true;
  default:
    return false;
  }
}

} // namespace ivc
