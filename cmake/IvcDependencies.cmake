# Locates ivc's Debian-packaged dependencies (installed by tools/bootstrap).

# LLVM 16 Support: JSON, raw_ostream, command line, thread pool, Unicode names.
find_package(LLVM 16 REQUIRED CONFIG PATHS /usr/lib/llvm-16/lib/cmake/llvm NO_DEFAULT_PATH)
add_library(ivc_llvm INTERFACE)
target_include_directories(ivc_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(ivc_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(ivc_llvm INTERFACE LLVM)

# utf8proc: NFKC normalization of identifiers, as CPython's tokenizer does.
find_path(UTF8PROC_INCLUDE_DIR utf8proc.h REQUIRED)
find_library(UTF8PROC_LIBRARY utf8proc REQUIRED)
add_library(ivc_utf8proc INTERFACE)
target_include_directories(ivc_utf8proc SYSTEM INTERFACE ${UTF8PROC_INCLUDE_DIR})
target_link_libraries(ivc_utf8proc INTERFACE ${UTF8PROC_LIBRARY})

# toml++: [tool.ivc] in pyproject.toml.
find_path(TOMLPP_INCLUDE_DIR toml++/toml.h REQUIRED)
add_library(ivc_tomlpp INTERFACE)
target_include_directories(ivc_tomlpp SYSTEM INTERFACE ${TOMLPP_INCLUDE_DIR})
target_compile_definitions(ivc_tomlpp INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)

find_package(Threads REQUIRED)
