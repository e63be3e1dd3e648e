# What ivc uses of LLVM 16 (Support and Demangle, as static archives), for a
# machine without Debian's llvm-16-dev: tools/gpu/pack copies the headers and
# archives next to this file's lib/cmake/llvm folder, and tools/gpu/check
# points LLVM_DIR here. Debian's own LLVMConfig.cmake cannot travel: it names
# every LLVM library by its absolute path under /usr/lib/llvm-16.
get_filename_component(_ivc_llvm_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

set(LLVM_PACKAGE_VERSION 16)
set(LLVM_VERSION_MAJOR 16)
set(LLVM_INCLUDE_DIRS "${_ivc_llvm_prefix}/include")
# The flags Debian's LLVM 16 was built with (llvm-config --cxxflags).
set(LLVM_DEFINITIONS -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS
                     -D__STDC_LIMIT_MACROS)

# Support reads the terminal's capabilities (coloured output) through terminfo;
# the runtime library is on every Debian and Ubuntu system, its dev link may not be.
find_library(IVC_TINFO_LIBRARY NAMES tinfo libtinfo.so.6 REQUIRED)
find_package(Threads REQUIRED)

if(NOT TARGET LLVM)
  add_library(LLVM INTERFACE IMPORTED)
  set_target_properties(LLVM PROPERTIES INTERFACE_LINK_LIBRARIES
    "${_ivc_llvm_prefix}/lib/libLLVMSupport.a;${_ivc_llvm_prefix}/lib/libLLVMDemangle.a;${IVC_TINFO_LIBRARY};Threads::Threads;${CMAKE_DL_LIBS}")
endif()
