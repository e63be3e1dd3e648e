# lit configuration for ivc: one folder per area, one feature per test file.
import os

import lit.formats

config.name = "ivc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py", ".test", ".toml", ".json"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ivc_build_dir, "lit-tests")

# Tools come from this build first, then from LLVM 16 (FileCheck, not, count).
config.environment["PATH"] = os.pathsep.join(
    [config.ivc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# Deterministic output: no color, no terminal progress line.
config.environment["NO_COLOR"] = "1"
config.environment["TERM"] = "dumb"
if config.ivc_sanitized:
    config.available_features.add("asan")
    config.environment["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

config.substitutions.append(("%ivc", os.path.join(config.ivc_tools_dir, "ivc")))
config.substitutions.append(("%python", config.python3))
config.substitutions.append(("%srcroot", config.ivc_source_dir))
