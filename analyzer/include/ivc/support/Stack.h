//===- Stack.h - Room for the analysis's recursion -------------------------===//
//
// The lowering accepts code nested as deeply as CPython does (about 3000
// levels; Lowering::MaxNesting), and the lowering and every stage after it
// walk that nesting recursively. That needs more stack than a thread gets by
// default (8 MiB, less in some thread pools, and a sanitizer's frames are
// several times larger), so the analysis runs on a thread of its own with
// room for it. The stack is only reserved: pages the recursion never
// reaches cost nothing. Engine::analyze moves there by itself (a hand-off
// to a parked thread, about 50 us here); the driver, the language server's
// analysis thread and the fuzzers start there once, and so does anything
// that lowers (Frontend) or prints the IR outside an analysis. A debug build
// with ASan needs over 64 MiB for 3000 levels; a release build about 10 MiB.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_SUPPORT_STACK_H
#define IVC_SUPPORT_STACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace ivc {

constexpr size_t AnalysisStackBytes = size_t(256) << 20;

/// Runs `fn` on a thread with AnalysisStackBytes of stack and waits for it.
/// Runs it on this thread when this thread already has that room (it is one
/// of those threads), or when no such thread can be started. Safe to call
/// from any thread, and after fork().
void runWithAnalysisStack(llvm::function_ref<void()> fn);

} // namespace ivc

#endif
