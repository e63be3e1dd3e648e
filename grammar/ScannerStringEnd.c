/* The pinned grammar's external scanner forgets that it is inside an f-string once a
 * string nested in one ends: `f'''{'a'}{` followed by a line indented less than the
 * enclosing block then reads as a dedent, and valid code gets a false syntax error.
 * The grammar's own scan function is compiled under another name (CMakeLists.txt) and
 * this one calls it, then, after every string end, sets the flag again from the strings
 * still open. The flag is reached through the scanner's serialized state, whose layout is
 * fixed by the pinned version: flag byte, open-string count, one flag byte per string.
 * lit-tests/frontend/fstring-multiline-field.py fails if that layout changes. */
#include "tree_sitter/parser.h"

#include <stdbool.h>

bool ivc_upstream_python_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols);
unsigned tree_sitter_python_external_scanner_serialize(void *payload, char *buffer);
void tree_sitter_python_external_scanner_deserialize(void *payload, const char *buffer,
                                                     unsigned length);

enum { kStringEndToken = 6, kFormatFlag = 1 << 4 };

static void restoreInsideFString(void *payload) {
  char state[TREE_SITTER_SERIALIZATION_BUFFER_SIZE];
  unsigned length = tree_sitter_python_external_scanner_serialize(payload, state);
  if (length < 2)
    return;
  unsigned openStrings = (unsigned char)state[1];
  bool insideFString = false;
  for (unsigned i = 0; i < openStrings && 2 + i < length; ++i)
    insideFString |= (state[2 + i] & kFormatFlag) != 0;
  if ((state[0] != 0) == insideFString)
    return;
  state[0] = insideFString;
  tree_sitter_python_external_scanner_deserialize(payload, state, length);
}

bool tree_sitter_python_external_scanner_scan(void *payload, TSLexer *lexer,
                                              const bool *valid_symbols) {
  if (!ivc_upstream_python_scanner_scan(payload, lexer, valid_symbols))
    return false;
  if (lexer->result_symbol == kStringEndToken)
    restoreInsideFString(payload);
  return true;
}
