//===- PythonInit.cpp - An isolated embedded interpreter ------------------===//
//
// Isolated configuration: no PYTHON* environment variables, no user site,
// no site module (so no .pth files run), no bytecode writing, and a sys.path
// the host chose: Debian's standard library and dist-packages (torch) and
// the directory holding the `ivc` package.
//
//===----------------------------------------------------------------------===//
#include "WorkerModule.h"

#include <cstdio>

namespace ivc::runtime::worker {

namespace {
PyObject *initModule() { return initWorkerModule(); }

bool check(PyStatus status, PyConfig &config, const char *what) {
  if (!PyStatus_Exception(status))
    return true;
  std::fprintf(stderr, "ivc-worker: %s: %s\n", what, status.err_msg ? status.err_msg : "failed");
  PyConfig_Clear(&config);
  return false;
}
} // namespace

bool startPython(const char *argv0, const std::vector<std::string> &paths) {
  if (PyImport_AppendInittab("_ivc_worker", initModule) != 0) {
    std::fprintf(stderr, "ivc-worker: cannot register _ivc_worker\n");
    return false;
  }
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);
  config.site_import = 0;
  config.write_bytecode = 0;
  config.user_site_directory = 0;
  config.install_signal_handlers = 0;
  config.module_search_paths_set = 1;
  if (!check(PyConfig_SetBytesString(&config, &config.program_name, argv0), config,
             "program name"))
    return false;
  for (const std::string &p : paths) {
    wchar_t *w = Py_DecodeLocale(p.c_str(), nullptr);
    if (!w) {
      std::fprintf(stderr, "ivc-worker: bad path %s\n", p.c_str());
      PyConfig_Clear(&config);
      return false;
    }
    PyStatus s = PyWideStringList_Append(&config.module_search_paths, w);
    PyMem_RawFree(w);
    if (!check(s, config, "sys.path"))
      return false;
  }
  if (!check(Py_InitializeFromConfig(&config), config, "Python initialization"))
    return false;
  PyConfig_Clear(&config);
  return true;
}

} // namespace ivc::runtime::worker
