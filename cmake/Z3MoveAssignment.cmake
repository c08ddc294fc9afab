# Z3 4.8.12's C++ API (Debian 12's libz3-dev) drops a reference in
# `ast::operator=(ast &&)`: the expression the target held is never
# released, so every `e = a + b;` on an existing z3::expr keeps `e`'s old
# term alive until its context is deleted. The terms pile up (memory), and
# Z3 frees such leftovers at context deletion far more slowly than it frees
# released terms: a kernel's context took 16 ms to delete, 23 % of
# cuda-samples' reduction_kernel.cu. Later Z3 releases release the old
# term first. Where the installed header still has the leaking body, the
# build uses a copy of it in which the assignment releases the old term as
# the copy assignment does; every other line is the installed header's.

find_file(GPURACE_Z3_CXX_HEADER z3++.h PATHS ${Z3_INCLUDE_DIRS} /usr/include NO_DEFAULT_PATH)
if(NOT GPURACE_Z3_CXX_HEADER)
  message(FATAL_ERROR "z3++.h not found: run scripts/install-deps.sh")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${GPURACE_Z3_CXX_HEADER})
file(READ ${GPURACE_Z3_CXX_HEADER} gpurace_z3_header)
set(gpurace_leaking_move
"        ast & operator=(ast && s) noexcept {
            if (this != &s) {
                object::operator=(std::forward<object>(s));")
set(gpurace_releasing_move
"        ast & operator=(ast && s) noexcept {
            if (this != &s) {
                if (m_ast)
                    Z3_dec_ref(ctx(), m_ast);
                object::operator=(std::forward<object>(s));")
string(FIND "${gpurace_z3_header}" "${gpurace_leaking_move}" gpurace_leak_at)
if(NOT gpurace_leak_at EQUAL -1)
  string(REPLACE "${gpurace_leaking_move}" "${gpurace_releasing_move}"
         gpurace_z3_header "${gpurace_z3_header}")
  set(GPURACE_Z3_FIXED_INCLUDE_DIR ${CMAKE_BINARY_DIR}/z3-move-assignment)
  # Written where it changes only when its text does, so that a configure
  # run rebuilds nothing that includes it.
  file(WRITE ${CMAKE_BINARY_DIR}/z3-move-assignment.h.in "${gpurace_z3_header}")
  configure_file(${CMAKE_BINARY_DIR}/z3-move-assignment.h.in
                 ${GPURACE_Z3_FIXED_INCLUDE_DIR}/z3++.h COPYONLY)
  # Searched before the system directories that hold the installed header.
  set_property(TARGET PkgConfig::Z3 PROPERTY INTERFACE_INCLUDE_DIRECTORIES
               ${GPURACE_Z3_FIXED_INCLUDE_DIR} ${Z3_INCLUDE_DIRS})
  message(STATUS "Z3 C++ API: releasing move assignment (${GPURACE_Z3_FIXED_INCLUDE_DIR})")
endif()
