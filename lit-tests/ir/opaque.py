# Constructs ivc does not model lower to `opaque` naming the node kind; the
# expressions inside stay visible.
# RUN: %ivc dump-ir %s | FileCheck %s
type Alias = list[int]
# CHECK: %{{[0-9]+}} = opaque type_alias_statement
