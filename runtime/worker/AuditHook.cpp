//===- AuditHook.cpp - The worker's audit hook ----------------------------===//
//
// Installed before lockdown, inert until user code runs: then every audit
// event is judged by the policy (audit/AuditPolicy.cpp) and a blocked one
// becomes a PermissionError before the action reaches the kernel filter.
// Garbage collections on the worker's own thread count as user code too:
// their finalizers are user objects' as often as not.
//
//===----------------------------------------------------------------------===//
#include "AuditHook.h"

#include "audit/UserCode.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace ivc::runtime::worker {

namespace {

HookPolicy g_policy;
bool g_installed = false;
int g_userDepth = 0;
// The worker's own (trusted) code runs on this thread only. Python 3.11
// raises no audit event when a thread starts, so user code can start one
// that outlives its job: every other thread counts as user code, always.
unsigned long g_trustedThread = 0;

// A collection on the trusted thread runs finalizers (__del__, weakref
// callbacks) of whatever became garbage, user objects as often as not,
// wherever the collector happens to start: it counts as user code. The
// genuine "stop" comes from the collector with the frame that was current
// at "start"; a finalizer calling this callback itself has its own frame on
// top, and cannot end the collection's user-code status early.
bool g_collecting = false;
PyFrameObject *g_collectionFrame = nullptr; // compared, never dereferenced

PyObject *gcPhase(PyObject *, PyObject *args) {
  const char *phase;
  PyObject *info;
  if (!PyArg_ParseTuple(args, "sO", &phase, &info))
    return nullptr;
  if (PyThread_get_thread_ident() != g_trustedThread)
    Py_RETURN_NONE;
  PyFrameObject *frame = PyEval_GetFrame();
  if (std::string_view(phase) == "start" && !g_collecting) {
    g_collecting = true;
    g_collectionFrame = frame;
    ++g_userDepth;
  } else if (std::string_view(phase) == "stop" && g_collecting && frame == g_collectionFrame) {
    g_collecting = false;
    --g_userDepth;
  }
  Py_RETURN_NONE;
}

PyMethodDef GcPhaseDef = {"ivc_collection_is_user_code", gcPhase, METH_VARARGS,
                          "gc callback: collections on the worker's thread run as user code."};

bool watchCollections() {
  PyObject *gc = PyImport_ImportModule("gc");
  PyObject *callbacks = gc ? PyObject_GetAttrString(gc, "callbacks") : nullptr;
  PyObject *fn = callbacks ? PyCFunction_New(&GcPhaseDef, nullptr) : nullptr;
  bool ok = fn && PyList_Check(callbacks) && PyList_Append(callbacks, fn) == 0;
  Py_XDECREF(fn);
  Py_XDECREF(callbacks);
  Py_XDECREF(gc);
  return ok;
}

// namedtuple, NamedTuple and dataclass build a class by compiling text made
// of identifiers they take from the class statement or check themselves, and
// set a few special attributes of the class they made. The code objects of
// those functions, taken before any user code ran, may do just that: a user
// function of the same name has code of its own, and a rebound module
// attribute changes which function runs, not which code this compares.
// User code can still run in their frame, called back from C (a field-name
// iterable's `map(partial(exec, ...))`): so what they compile must have the
// shape they give it, and what they set must be an attribute of the object
// they made (a local of their frame).
struct Settable {
  std::string_view attribute;
  const char *local; // the frame's local that holds what it made
};

struct Generator {
  const char *module;
  const char *function; // a dotted path in the module
  /// What else must hold for it to compile `source` (the frame is its own);
  /// null: it compiles nothing.
  bool (*compiles)(PyFrameObject *frame, PyObject *source);
  std::vector<Settable> sets;
  PyObject *code = nullptr; // held for the life of the worker
};

bool namedtupleNew(PyFrameObject *frame, PyObject *source);
bool dataclassMethod(PyFrameObject *frame, PyObject *source);

std::vector<Generator> g_generators = {
    {"collections", "namedtuple", namedtupleNew,
     {{"__module__", "result"}, {"__defaults__", "__new__"}}},
    {"dataclasses", "_create_fn", dataclassMethod, {}},
    {"dataclasses", "_process_class", nullptr, {{"__doc__", "cls"}}},
    {"typing", "NamedTupleMeta.__new__", nullptr,
     {{"__bases__", "nm_tpl"}, {"__qualname__", "nm_tpl"}}},
};
constexpr size_t ProcessClass = 2;

// dataclasses.Field, and its `name` slot as the class defined it.
PyObject *g_fieldType = nullptr;
PyObject *g_fieldName = nullptr;

// Only modules already loaded: this imports nothing the policy did not.
PyObject *attributeOf(const char *module, const char *path) {
  PyObject *name = PyUnicode_FromString(module);
  PyObject *at = name ? PyImport_GetModule(name) : nullptr;
  Py_XDECREF(name);
  for (std::string_view rest = path; at && !rest.empty();) {
    std::string part(rest.substr(0, rest.find('.')));
    rest.remove_prefix(std::min(rest.size(), part.size() + 1));
    PyObject *next = PyObject_GetAttrString(at, part.c_str());
    Py_DECREF(at);
    at = next;
  }
  PyErr_Clear();
  return at;
}

PyObject *codeOf(const char *module, const char *path) {
  PyObject *fn = attributeOf(module, path);
  PyObject *code = fn ? PyObject_GetAttrString(fn, "__code__") : nullptr;
  Py_XDECREF(fn);
  PyErr_Clear();
  if (code && !PyCode_Check(code))
    Py_CLEAR(code);
  return code;
}

void rememberGenerators() {
  for (Generator &g : g_generators)
    g.code = codeOf(g.module, g.function);
  g_fieldType = attributeOf("dataclasses", "Field");
  if (g_fieldType && PyType_Check(g_fieldType))
    g_fieldName = PyDict_GetItemString(reinterpret_cast<PyTypeObject *>(g_fieldType)->tp_dict,
                                       "name");
  Py_XINCREF(g_fieldName);
}

// An exact str: a subclass's __format__ would choose what an f-string writes.
bool isIdentifier(PyObject *s) {
  return s && PyUnicode_CheckExact(s) && PyUnicode_IsIdentifier(s) == 1;
}

// A dataclass's methods are compiled from its fields' names, which user code
// may change once a class is made (`dataclasses.fields(C)[0].name = ...`),
// and a subclass then compiles: only while every field of the class being
// made (the `fields` of _process_class, up the calling frames) is a Field
// named by an identifier, read through the slot the class defined.
bool fieldsNamedByIdentifiers(PyFrameObject *frame) {
  PyObject *processClass = g_generators[ProcessClass].code;
  if (!processClass || !g_fieldName || !Py_TYPE(g_fieldName)->tp_descr_get)
    return false;
  PyFrameObject *f = PyFrame_GetBack(frame);
  bool found = false;
  for (int depth = 0; f && !found && depth < 8; ++depth) {
    PyCodeObject *code = PyFrame_GetCode(f);
    found = reinterpret_cast<PyObject *>(code) == processClass;
    Py_DECREF(code);
    if (!found) {
      PyFrameObject *back = PyFrame_GetBack(f);
      Py_DECREF(f);
      f = back;
    }
  }
  if (!found) {
    Py_XDECREF(f);
    return false;
  }
  PyObject *locals = PyFrame_GetLocals(f);
  Py_DECREF(f);
  PyObject *fields = locals ? PyMapping_GetItemString(locals, "fields") : nullptr;
  Py_XDECREF(locals);
  bool ok = fields && PyDict_CheckExact(fields);
  Py_ssize_t at = 0;
  PyObject *key, *field;
  while (ok && PyDict_Next(fields, &at, &key, &field)) {
    ok = isIdentifier(key) && Py_TYPE(field) == reinterpret_cast<PyTypeObject *>(g_fieldType);
    PyObject *name = ok ? Py_TYPE(g_fieldName)->tp_descr_get(g_fieldName, field, g_fieldType)
                        : nullptr;
    ok = ok && isIdentifier(name);
    Py_XDECREF(name);
  }
  Py_XDECREF(fields);
  PyErr_Clear();
  return ok;
}

// The text a compile event compiles: eval and exec of a str pass it as
// UTF-8 bytes, compile() as the str.
std::optional<std::string_view> sourceText(PyObject *source) {
  if (PyBytes_CheckExact(source))
    return std::string_view(PyBytes_AS_STRING(source), size_t(PyBytes_GET_SIZE(source)));
  Py_ssize_t size = 0;
  const char *utf8 =
      PyUnicode_CheckExact(source) ? PyUnicode_AsUTF8AndSize(source, &size) : nullptr;
  PyErr_Clear();
  return utf8 ? std::optional(std::string_view(utf8, size_t(size))) : std::nullopt;
}

// What namedtuple compiles: `lambda _cls, a, b: _tuple_new(_cls, (a, b))`
// (one field: `a,` both times), over identifiers.
bool namedtupleNew(PyFrameObject *, PyObject *source) {
  std::optional<std::string_view> compiled = sourceText(source);
  if (!compiled)
    return false;
  std::string_view text = *compiled;
  constexpr std::string_view head = "lambda _cls, ", middle = ": _tuple_new(_cls, (", tail = "))";
  size_t cut = text.find(middle);
  if (!text.starts_with(head) || cut == std::string_view::npos || !text.ends_with(tail))
    return false;
  std::string_view args = text.substr(head.size(), cut - head.size());
  size_t again = cut + middle.size();
  if (text.size() != again + args.size() + tail.size() || text.substr(again, args.size()) != args)
    return false;
  if (args.ends_with(","))
    args.remove_suffix(1);
  for (std::string_view rest = args;;) {
    size_t comma = rest.find(", ");
    std::string_view name = rest.substr(0, comma);
    PyObject *s = PyUnicode_FromStringAndSize(name.data(), Py_ssize_t(name.size()));
    bool ok = isIdentifier(s);
    Py_XDECREF(s);
    PyErr_Clear();
    if (!ok)
      return false;
    if (comma == std::string_view::npos)
      return true;
    rest.remove_prefix(comma + 2);
  }
}

// What _create_fn compiles: `def __create_fn__(...)` around one method whose
// text comes from the fields' names.
bool dataclassMethod(PyFrameObject *frame, PyObject *source) {
  std::optional<std::string_view> text = sourceText(source);
  return text && text->starts_with("def __create_fn__(") && fieldsNamedByIdentifiers(frame);
}

// Whether `object` is what the frame's local `name` holds.
bool isLocal(PyFrameObject *frame, const char *name, PyObject *object) {
  PyObject *locals = PyFrame_GetLocals(frame);
  PyObject *value = locals ? PyMapping_GetItemString(locals, name) : nullptr;
  bool same = value && value == object;
  Py_XDECREF(value);
  Py_XDECREF(locals);
  PyErr_Clear();
  return same;
}

// The frame whose compile was allowed, until the exec that runs what it
// compiled (eval and exec of text raise both, one after the other).
PyFrameObject *g_compiledIn = nullptr; // compared, never dereferenced

bool builtByGenerator(std::string_view event, PyObject *args) {
  PyFrameObject *compiledIn = std::exchange(g_compiledIn, nullptr);
  bool compiling = event == "compile";
  if (!compiling && event != "exec" && event != "object.__setattr__")
    return false;
  PyFrameObject *frame = PyEval_GetFrame();
  if (!frame || !PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1)
    return false;
  if (event == "exec")
    return frame == compiledIn;
  PyCodeObject *code = PyFrame_GetCode(frame);
  auto g = std::find_if(g_generators.begin(), g_generators.end(), [&](const Generator &g) {
    return g.code == reinterpret_cast<PyObject *>(code);
  });
  Py_DECREF(code);
  if (g == g_generators.end() || PyTuple_GET_SIZE(args) < 2)
    return false;
  if (compiling) {
    if (!g->compiles || !g->compiles(frame, PyTuple_GET_ITEM(args, 0)))
      return false;
    g_compiledIn = frame;
    return true;
  }
  PyObject *attr = PyTuple_GET_ITEM(args, 1);
  const char *name = PyUnicode_Check(attr) ? PyUnicode_AsUTF8(attr) : nullptr;
  if (!name) {
    PyErr_Clear();
    return false;
  }
  auto s = std::find_if(g->sets.begin(), g->sets.end(),
                        [&](const Settable &s) { return s.attribute == name; });
  return s != g->sets.end() && isLocal(frame, s->local, PyTuple_GET_ITEM(args, 0));
}

int hook(const char *event, PyObject *args, void *) {
  if (g_userDepth == 0 && PyThread_get_thread_ident() == g_trustedThread)
    return 0;
  if (builtByGenerator(event, args))
    return 0;
  std::string detail;
  const char *cat = classifyAuditEvent(g_policy, event, args, detail);
  if (!cat)
    return 0;
  PyErr_Format(PyExc_PermissionError,
               "ivc sandbox: %s is blocked by policy (category: %s, audit event: %s)",
               detail.c_str(), cat, event);
  return -1;
}

} // namespace

bool installAuditHook(const HookPolicy &policy) {
  if (g_userDepth > 0)
    return false;
  g_policy = policy;
  g_trustedThread = PyThread_get_thread_ident();
  if (!g_installed) {
    rememberGenerators();
    if (!watchCollections() || PySys_AddAuditHook(hook, nullptr) != 0)
      return false;
    g_installed = true;
  }
  return true;
}

bool userCodeRunning() { return g_userDepth > 0; }

PyObject *runUser(PyObject *items, PyObject *globals) {
  // Compiled with the hook as it is now: inactive for the trusted runner,
  // active for a nested call from user code.
  PyObject *codes = audit::compileUserItems(items);
  if (!codes)
    return nullptr;
  ++g_userDepth;
  PyObject *result = audit::evalUserCodes(codes, globals);
  --g_userDepth;
  Py_DECREF(codes);
  return result;
}

PyObject *callUser(PyObject *fn, PyObject *args) {
  ++g_userDepth;
  PyObject *result = PyObject_Call(fn, args, nullptr);
  --g_userDepth;
  return result;
}

} // namespace ivc::runtime::worker
