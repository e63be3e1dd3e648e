//===- AuditPolicy.cpp - Audit events to policy categories ----------------===//
//
// Categories are the policy's block flags (docs/policy.md): file_write,
// file_read, subprocess, network, ctypes, import, exec. A few events are
// refused whatever the policy ("sandbox"): ones that would let user code
// watch or rewrite the trusted code around it (new audit hooks, tracing and
// profiling hooks, heap walking, swapping a function's code or an object's
// class, interactive input). Not refused: restricted attribute reads
// (object.__getattr__: frames, code), which torch itself makes
// (torch.manual_seed formats a stack). Python 3.11 audits neither thread
// creation nor class attribute assignment; docs/threat-model.md says what
// that leaves to the kernel filter.
//
//===----------------------------------------------------------------------===//
#include "audit/AuditPolicy.h"

#include <cstring>
#include <fcntl.h>
#include <string_view>

namespace ivc::runtime::audit {

namespace {

struct Rule {
  const char *event; // exact name, or a prefix when it ends with '.'
  enum Cat { FileWrite, FileRead, Subprocess, Network, Ctypes, Exec, Sandbox } cat;
};

constexpr Rule Rules[] = {
    // file_write
    {"os.remove", Rule::FileWrite}, {"os.rename", Rule::FileWrite},
    {"os.rmdir", Rule::FileWrite}, {"os.mkdir", Rule::FileWrite},
    {"os.symlink", Rule::FileWrite}, {"os.link", Rule::FileWrite},
    {"os.truncate", Rule::FileWrite}, {"os.chmod", Rule::FileWrite},
    {"os.chown", Rule::FileWrite}, {"os.utime", Rule::FileWrite},
    {"os.chflags", Rule::FileWrite}, {"os.lchflags", Rule::FileWrite},
    {"os.setxattr", Rule::FileWrite}, {"os.removexattr", Rule::FileWrite},
    {"os.mkfifo", Rule::FileWrite}, {"os.mknod", Rule::FileWrite},
    {"shutil.", Rule::FileWrite}, {"tempfile.", Rule::FileWrite},
    // file_read
    {"os.listdir", Rule::FileRead}, {"os.scandir", Rule::FileRead},
    {"os.fwalk", Rule::FileRead}, {"os.chdir", Rule::FileRead},
    {"os.getxattr", Rule::FileRead}, {"os.listxattr", Rule::FileRead},
    {"glob.glob", Rule::FileRead}, {"glob.glob/2", Rule::FileRead},
    {"pathlib.Path.glob", Rule::FileRead}, {"pathlib.Path.rglob", Rule::FileRead},
    {"mmap.__new__", Rule::FileRead},
    // subprocess
    {"subprocess.Popen", Rule::Subprocess}, {"os.system", Rule::Subprocess},
    {"os.exec", Rule::Subprocess}, {"os.spawn", Rule::Subprocess},
    {"os.posix_spawn", Rule::Subprocess}, {"os.fork", Rule::Subprocess},
    {"os.forkpty", Rule::Subprocess}, {"os.startfile", Rule::Subprocess},
    {"pty.spawn", Rule::Subprocess}, {"os.kill", Rule::Subprocess},
    {"os.killpg", Rule::Subprocess}, {"signal.pthread_kill", Rule::Subprocess},
    // network
    {"socket.", Rule::Network}, {"urllib.Request", Rule::Network},
    {"http.client.", Rule::Network}, {"ftplib.", Rule::Network}, {"imaplib.", Rule::Network},
    {"nntplib.", Rule::Network}, {"poplib.", Rule::Network}, {"smtplib.", Rule::Network},
    {"telnetlib.", Rule::Network}, {"webbrowser.open", Rule::Network},
    // ctypes (its import is handled with the import event)
    {"ctypes.", Rule::Ctypes},
    // exec: running or building code at run time, deserialising objects
    {"exec", Rule::Exec}, {"compile", Rule::Exec}, {"code.__new__", Rule::Exec},
    {"function.__new__", Rule::Exec}, {"marshal.", Rule::Exec},
    {"pickle.find_class", Rule::Exec}, {"cpython.run_", Rule::Exec},
    {"builtins.exec", Rule::Exec},
    // always refused while user code runs
    {"sys.addaudithook", Rule::Sandbox}, {"sys.settrace", Rule::Sandbox},
    {"sys.setprofile", Rule::Sandbox}, {"sys._current_frames", Rule::Sandbox},
    {"sys._current_exceptions", Rule::Sandbox},
    {"gc.get_objects", Rule::Sandbox},
    {"gc.get_referrers", Rule::Sandbox}, {"gc.get_referents", Rule::Sandbox},
    {"builtins.input", Rule::Sandbox}, {"builtins.breakpoint", Rule::Sandbox},
    {"object.__setattr__", Rule::Sandbox}, {"object.__delattr__", Rule::Sandbox},
    {"sys.unraisablehook", Rule::Sandbox},
    {"cpython.PyInterpreterState_", Rule::Sandbox}, {"os.putenv", Rule::Sandbox},
    {"os.unsetenv", Rule::Sandbox},
};

const char *catName(Rule::Cat c) {
  switch (c) {
  case Rule::FileWrite: return "file_write";
  case Rule::FileRead: return "file_read";
  case Rule::Subprocess: return "subprocess";
  case Rule::Network: return "network";
  case Rule::Ctypes: return "ctypes";
  case Rule::Exec: return "exec";
  case Rule::Sandbox: return "sandbox";
  }
  return "?";
}

bool blocked(const HookPolicy &p, Rule::Cat c) {
  switch (c) {
  case Rule::FileWrite: return p.block.fileWrite;
  case Rule::FileRead: return p.block.fileRead;
  case Rule::Subprocess: return p.block.subprocess;
  case Rule::Network: return p.block.network;
  case Rule::Ctypes: return p.block.ctypes;
  case Rule::Exec: return p.block.exec;
  case Rule::Sandbox: return true;
  }
  return true;
}

bool matches(std::string_view event, std::string_view pattern) {
  if (!pattern.empty() && pattern.back() == '.')
    return event.substr(0, pattern.size()) == pattern;
  return event == pattern;
}

std::string argString(PyObject *args, Py_ssize_t i) {
  if (!args || !PyTuple_Check(args) || PyTuple_GET_SIZE(args) <= i)
    return "";
  PyObject *o = PyTuple_GET_ITEM(args, i);
  if (PyUnicode_Check(o)) {
    const char *s = PyUnicode_AsUTF8(o);
    if (!s) {
      PyErr_Clear();
      return "";
    }
    return s;
  }
  if (PyBytes_Check(o))
    return std::string(PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o));
  if (PyLong_Check(o)) {
    long v = PyLong_AsLong(o);
    if (PyErr_Occurred())
      PyErr_Clear();
    return "fd " + std::to_string(v);
  }
  return "";
}

// open(path, mode, flags): a write if the mode asks for one or the flags do.
bool openIsWrite(PyObject *args) {
  if (!args || !PyTuple_Check(args))
    return true;
  if (PyTuple_GET_SIZE(args) > 1) {
    PyObject *mode = PyTuple_GET_ITEM(args, 1);
    if (PyUnicode_Check(mode)) {
      const char *m = PyUnicode_AsUTF8(mode);
      if (!m) {
        PyErr_Clear();
        return true;
      }
      if (std::strpbrk(m, "wax+"))
        return true;
    }
  }
  if (PyTuple_GET_SIZE(args) > 2) {
    PyObject *flags = PyTuple_GET_ITEM(args, 2);
    if (PyLong_Check(flags)) {
      long f = PyLong_AsLong(flags);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        return true;
      }
      if (f & (O_WRONLY | O_RDWR | O_APPEND | O_CREAT | O_TRUNC))
        return true;
    }
  }
  return false;
}

std::string topLevel(const std::string &module) { return module.substr(0, module.find('.')); }

bool getBool(PyObject *dict, const char *key, bool fallback) {
  PyObject *v = dict ? PyDict_GetItemString(dict, key) : nullptr;
  return v ? PyObject_IsTrue(v) == 1 : fallback;
}

} // namespace

const char *classifyAuditEvent(const HookPolicy &p, const char *eventC, PyObject *args,
                               std::string &detail) {
  std::string_view event = eventC;
  if (event == "open") {
    bool write = openIsWrite(args);
    detail = std::string(write ? "writing " : "reading ") + argString(args, 0);
    if (write ? p.block.fileWrite : p.block.fileRead)
      return write ? "file_write" : "file_read";
    return nullptr;
  }
  if (event == "import") {
    std::string module = argString(args, 0);
    detail = "import of '" + module + "'";
    std::string top = topLevel(module);
    if (p.block.ctypes && (top == "ctypes" || top == "_ctypes"))
      return "ctypes";
    if (!p.block.import)
      return nullptr;
    for (const std::string &allowed : p.importAllowlist)
      if (top == allowed)
        return nullptr;
    return "import";
  }
  for (const Rule &r : Rules) {
    if (!matches(event, r.event))
      continue;
    if (!blocked(p, r.cat))
      return nullptr;
    std::string arg = argString(args, 0);
    detail = arg.empty() ? std::string(event) : std::string(event) + " on '" + arg + "'";
    return catName(r.cat);
  }
  return nullptr;
}

HookPolicy policyFromConfig(PyObject *config) {
  HookPolicy p;
  PyObject *block = PyDict_GetItemString(config, "block");
  p.block.fileWrite = getBool(block, "file_write", true);
  p.block.fileRead = getBool(block, "file_read", true);
  p.block.subprocess = getBool(block, "subprocess", true);
  p.block.network = getBool(block, "network", true);
  p.block.ctypes = getBool(block, "ctypes", true);
  p.block.import = getBool(block, "import", true);
  p.block.exec = getBool(block, "exec", true);
  PyObject *allow = PyDict_GetItemString(config, "import_allowlist");
  if (allow && PyList_Check(allow)) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(allow); ++i) {
      const char *s = PyUnicode_AsUTF8(PyList_GET_ITEM(allow, i));
      if (!s)
        return p;
      p.importAllowlist.emplace_back(s);
    }
  }
  return p;
}

} // namespace ivc::runtime::audit
