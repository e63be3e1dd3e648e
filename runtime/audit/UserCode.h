//===- UserCode.h - Compile a mediator's code trusted, run it as the user's ===//
//
// Both tiers run a mediator's code the same way: every (source, filename)
// item is compiled first, while the caller's hook is still inactive, and
// only then evaluated, with the hook active, in one globals dict. An item
// may also be a code object the trusted runner compiled itself.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_AUDIT_USERCODE_H
#define IVC_RUNTIME_AUDIT_USERCODE_H

#include <Python.h>

namespace ivc::runtime::audit {

/// A new list of code objects, one per item of `items` ((source, filename),
/// or a code object kept as it is), or nullptr with the exception set.
PyObject *compileUserItems(PyObject *items);

/// Evaluates `codes` in order in `globals` (given the builtins if it has
/// none), stopping at the first exception. A new reference to None, or
/// nullptr with the exception set.
PyObject *evalUserCodes(PyObject *codes, PyObject *globals);

} // namespace ivc::runtime::audit

#endif
