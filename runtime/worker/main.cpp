//===- main.cpp - ivc-worker: run mediators in a locked-down process -------===//
//
//   ivc-worker --channel-fd N [--python-path A:B:...] [--seccomp-trace]
//       A worker. Its life (ivc/_worker.py): receive the job (sandbox
//       config, shared-memory segments), import the preload list, lock down
//       (_ivc_worker.lockdown), say READY, then run mediators one at a time.
//   ivc-worker --zygote --channel-fd N [--python-path ...]
//       A zygote: imports the preload list once, then forks fresh workers
//       on request; each child continues as a worker above.
//   ivc-worker --audit [--allow-jit] [--verbose] [--python-path ...]
//       Runs the sandbox canaries (Canaries.cpp) and reports; --allow-jit
//       audits the filter a worker with allow_jit gets.
//
// The network namespace is entered here, first, while the process has one
// thread (a zygote's children enter theirs right after fork).
//
//===----------------------------------------------------------------------===//
#include "WorkerModule.h"

#include "ivc/runtime/worker/Lockdown.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace ivc::runtime::worker;

namespace {

std::vector<std::string> splitPath(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(':', start);
    if (end == std::string::npos)
      end = s.size();
    if (end > start)
      out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

int usage() {
  std::fprintf(stderr, "usage: ivc-worker (--channel-fd N [--zygote] | --audit [--allow-jit] [--verbose]) "
                       "[--python-path A:B] [--seccomp-trace]\n");
  return 2;
}

int runPython(int fd, bool zygote) {
  PyObject *mod = PyImport_ImportModule("ivc._worker");
  PyObject *rc = mod ? PyObject_CallMethod(mod, "main", "ii", fd, zygote ? 1 : 0) : nullptr;
  int status = 1;
  if (!rc) {
    if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
      PyErr_Clear();
      status = 0;
    } else {
      PyErr_Print();
    }
  } else {
    status = PyLong_Check(rc) ? static_cast<int>(PyLong_AsLong(rc)) : 0;
  }
  Py_XDECREF(rc);
  Py_XDECREF(mod);
  return status;
}

} // namespace

int main(int argc, char **argv) {
  int fd = -1;
  bool zygote = false, audit = false, verbose = false, allowJit = false;
  std::vector<std::string> paths = splitPath(IVC_WORKER_DEFAULT_PYTHONPATH);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--channel-fd" && i + 1 < argc)
      fd = std::atoi(argv[++i]);
    else if (a == "--python-path" && i + 1 < argc)
      paths = splitPath(argv[++i]);
    else if (a == "--zygote")
      zygote = true;
    else if (a == "--audit")
      audit = true;
    else if (a == "--verbose")
      verbose = true;
    else if (a == "--allow-jit")
      allowJit = true;
    else if (a == "--seccomp-trace")
      setSeccompTrace(true);
    else
      return usage();
  }
  // A dead host must surface as EPIPE on the channel, not kill us mid-reply.
  std::signal(SIGPIPE, SIG_IGN);
  if (audit)
    return runAudit(paths, verbose, allowJit);
  if (fd < 0)
    return usage();
  if (!zygote)
    setNetnsStatus(enterNetworkNamespace());
  if (!startPython(argv[0], paths))
    return 1;
  int status = runPython(fd, zygote);
  // Skip interpreter finalization: the host has what it needs, and
  // finalizing torch after lockdown only risks refused system calls.
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(status);
}
