//===- Grammar.h - The tree-sitter Python grammar, as ivc sees it -------===//
//
// Maps the grammar's node symbols and field names to small enums once, so the
// lowering switches on integers instead of comparing type strings, and checks
// at start-up that the grammar's ABI matches the tree-sitter runtime.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_FRONTEND_GRAMMAR_H
#define IVC_FRONTEND_GRAMMAR_H

#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <vector>

extern "C" const TSLanguage *tree_sitter_python(void);

namespace ivc {

// Named node kinds of tree-sitter-python 0.23 that the lowering distinguishes;
// C++ keywords get a trailing underscore.
#define IVC_GRAMMAR_NODES(X)                                                                       \
  X(module, "module") X(block, "block") X(comment, "comment") X(ERROR, "ERROR")                    \
  X(expression_statement, "expression_statement") X(assignment, "assignment")                      \
  X(augmented_assignment, "augmented_assignment") X(if_statement, "if_statement")                  \
  X(elif_clause, "elif_clause") X(else_clause, "else_clause") X(for_statement, "for_statement")    \
  X(while_statement, "while_statement") X(with_statement, "with_statement")                        \
  X(with_clause, "with_clause") X(with_item, "with_item") X(try_statement, "try_statement")        \
  X(except_clause, "except_clause") X(except_group_clause, "except_group_clause")                  \
  X(finally_clause, "finally_clause") X(match_statement, "match_statement")                        \
  X(case_clause, "case_clause") X(function_definition, "function_definition")                      \
  X(class_definition, "class_definition") X(decorated_definition, "decorated_definition")          \
  X(decorator, "decorator") X(return_statement, "return_statement")                                \
  X(raise_statement, "raise_statement") X(delete_statement, "delete_statement")                    \
  X(assert_statement, "assert_statement") X(import_statement, "import_statement")                  \
  X(import_from_statement, "import_from_statement")                                                \
  X(future_import_statement, "future_import_statement") X(aliased_import, "aliased_import")        \
  X(dotted_name, "dotted_name") X(relative_import, "relative_import")                              \
  X(import_prefix, "import_prefix") X(wildcard_import, "wildcard_import")                          \
  X(global_statement, "global_statement") X(nonlocal_statement, "nonlocal_statement")              \
  X(pass_statement, "pass_statement") X(break_statement, "break_statement")                        \
  X(continue_statement, "continue_statement") X(print_statement, "print_statement")                \
  X(exec_statement, "exec_statement") X(type_alias_statement, "type_alias_statement")              \
  X(chevron, "chevron") X(generic_type, "generic_type") X(union_type, "union_type")                \
  X(member_type, "member_type") X(constrained_type, "constrained_type")                            \
  X(splat_type, "splat_type")                                                                      \
  X(identifier, "identifier") X(integer, "integer") X(float_, "float") X(true_, "true")            \
  X(false_, "false") X(none, "none") X(ellipsis, "ellipsis") X(string, "string")                   \
  X(concatenated_string, "concatenated_string") X(string_start, "string_start")                    \
  X(string_content, "string_content") X(string_end, "string_end")                                  \
  X(escape_sequence, "escape_sequence") X(escape_interpolation, "escape_interpolation")            \
  X(interpolation, "interpolation") X(type_conversion, "type_conversion")                          \
  X(format_specifier, "format_specifier") X(format_expression, "format_expression")                \
  X(attribute, "attribute") X(subscript, "subscript") X(slice, "slice") X(call, "call")            \
  X(argument_list, "argument_list") X(keyword_argument, "keyword_argument")                        \
  X(list_splat, "list_splat") X(dictionary_splat, "dictionary_splat")                              \
  X(parenthesized_list_splat, "parenthesized_list_splat")                                          \
  X(generator_expression, "generator_expression") X(binary_operator, "binary_operator")            \
  X(unary_operator, "unary_operator") X(not_operator, "not_operator")                              \
  X(boolean_operator, "boolean_operator") X(comparison_operator, "comparison_operator")            \
  X(conditional_expression, "conditional_expression") X(named_expression, "named_expression")      \
  X(lambda, "lambda") X(lambda_parameters, "lambda_parameters") X(parameters, "parameters")        \
  X(default_parameter, "default_parameter") X(typed_parameter, "typed_parameter")                  \
  X(typed_default_parameter, "typed_default_parameter")                                            \
  X(list_splat_pattern, "list_splat_pattern")                                                      \
  X(dictionary_splat_pattern, "dictionary_splat_pattern")                                          \
  X(positional_separator, "positional_separator") X(keyword_separator, "keyword_separator")        \
  X(tuple_pattern, "tuple_pattern") X(list_pattern, "list_pattern")                                \
  X(pattern_list, "pattern_list") X(expression_list, "expression_list")                            \
  X(parenthesized_expression, "parenthesized_expression") X(list, "list") X(tuple, "tuple")        \
  X(set, "set") X(dictionary, "dictionary") X(pair, "pair")                                        \
  X(list_comprehension, "list_comprehension") X(set_comprehension, "set_comprehension")            \
  X(dictionary_comprehension, "dictionary_comprehension") X(for_in_clause, "for_in_clause")        \
  X(if_clause, "if_clause") X(await, "await") X(yield, "yield") X(as_pattern, "as_pattern")        \
  X(as_pattern_target, "as_pattern_target") X(type, "type") X(case_pattern, "case_pattern")        \
  X(class_pattern, "class_pattern") X(keyword_pattern, "keyword_pattern")                          \
  X(complex_pattern, "complex_pattern") X(dict_pattern, "dict_pattern")                            \
  X(splat_pattern, "splat_pattern") X(union_pattern, "union_pattern")                              \
  X(line_continuation, "line_continuation") X(type_parameter, "type_parameter")

enum class Sym : uint8_t {
  Other, // anything the lowering does not distinguish (anonymous tokens too)
#define IVC_SYM_ENUM(e, name) e,
  IVC_GRAMMAR_NODES(IVC_SYM_ENUM)
#undef IVC_SYM_ENUM
};

// Field names; `operator` is a C++ keyword, hence the separate enum names.
#define IVC_GRAMMAR_FIELDS(X)                                                                      \
  X(alias, "alias") X(alternative, "alternative") X(argument, "argument")                         \
  X(arguments, "arguments") X(attribute, "attribute") X(body, "body") X(cause, "cause")           \
  X(condition, "condition") X(consequence, "consequence") X(definition, "definition")             \
  X(expression, "expression") X(format_specifier, "format_specifier") X(function, "function")    \
  X(guard, "guard") X(key, "key") X(left, "left") X(module_name, "module_name") X(name, "name")   \
  X(object, "object") X(operator_, "operator") X(operators, "operators")                          \
  X(parameters, "parameters") X(return_type, "return_type") X(right, "right")                     \
  X(subject, "subject") X(subscript, "subscript") X(superclasses, "superclasses") X(type, "type") \
  X(type_conversion, "type_conversion") X(type_parameters, "type_parameters")                      \
  X(value, "value")

enum class Field : uint8_t {
  None,
#define IVC_FIELD_ENUM(e, name) e,
  IVC_GRAMMAR_FIELDS(IVC_FIELD_ENUM)
#undef IVC_FIELD_ENUM
};

/// Whether a node kind is an expression (CPython's `expr`), as opposed to a
/// statement, a clause or a token.
bool isExpression(Sym s);

class Grammar {
public:
  /// The grammar ivc was built with; aborts with a clear message if its ABI
  /// does not match the tree-sitter runtime (see checkAbi).
  static const Grammar &python();

  /// Why `language` cannot be used with the linked tree-sitter runtime, or
  /// nothing when it can.
  static std::optional<std::string> checkAbi(const TSLanguage *language);

  const TSLanguage *language() const { return language_; }
  Sym sym(TSNode n) const {
    TSSymbol s = ts_node_symbol(n);
    if (s == TSSymbol(-1)) // tree-sitter's builtin error symbol
      return Sym::ERROR;
    return s < symbols_.size() ? symbols_[s] : Sym::Other;
  }
  Field field(TSFieldId id) const { return id < fields_.size() ? fields_[id] : Field::None; }

private:
  explicit Grammar(const TSLanguage *language);
  const TSLanguage *language_;
  std::vector<Sym> symbols_;
  std::vector<Field> fields_;
};

} // namespace ivc

#endif
