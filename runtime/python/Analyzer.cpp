//===- Analyzer.cpp - ivc.compile and policies, from the analyzer ---------===//
//
// The binding runs the analyzer in-process (the same engine as `ivc plan`)
// and reads policies with the analyzer's own parser, so the worker enforces
// exactly the policy the verdicts were reached under.
//
//===----------------------------------------------------------------------===//
#include "Analyzer.h"
#include "WithoutGil.h"

#include "ivc/plan/Plan.h"
#include "ivc/policy/Policy.h"

#include <pybind11/stl.h>

namespace ivc::runtime::python {

void registerAnalyzer(py::module_ &m) {
  m.def(
      "compile_plan",
      [](std::string source, std::string filename, std::string policy, std::string manifest) {
        CompileOptions o;
        o.policy = std::move(policy);
        o.manifest = std::move(manifest);
        return withoutGil([&] { return compilePlan(source, filename, o); });
      },
      py::arg("source"), py::arg("filename"), py::arg("policy") = "", py::arg("manifest") = "",
      "The plan of `source` as JSON text, or {\"error\": ...} for bad options.");
  m.def(
      "policy_sandbox",
      [](std::string option, std::string filename) {
        std::variant<Policy, PolicyError> found = findPolicy(filename, option);
        if (auto *err = std::get_if<PolicyError>(&found))
          throw py::value_error(err->message);
        const Policy &p = std::get<Policy>(found);
        py::dict block;
        block["file_write"] = p.blocks.fileWrite;
        block["file_read"] = p.blocks.fileRead;
        block["subprocess"] = p.blocks.subprocess;
        block["network"] = p.blocks.network;
        block["ctypes"] = p.blocks.ctypes;
        block["import"] = p.blocks.import;
        block["exec"] = p.blocks.exec;
        py::dict d;
        d["name"] = p.name;
        d["fingerprint"] = p.fingerprint();
        d["allow_isolate"] = p.allowIsolate;
        d["import_allowlist"] = p.importAllowlist;
        d["preload"] = p.preload;
        d["block"] = block;
        return d;
      },
      py::arg("policy"), py::arg("filename") = "",
      "The worker-side part of a policy (preset name or file; empty: found from `filename`).");
}

} // namespace ivc::runtime::python
