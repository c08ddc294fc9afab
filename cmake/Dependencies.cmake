# Every third-party dependency, found once for the whole tree.
# All of them are Debian 12 packages; scripts/install-deps.sh installs them.

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_package(SQLite3 REQUIRED)
# PostgreSQL client library, for `serve --db postgresql://...`.
pkg_check_modules(LIBPQ REQUIRED IMPORTED_TARGET libpq)
# SHA-256 of API tokens and TLS for the server.
find_package(OpenSSL REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
pkg_check_modules(Z3 REQUIRED IMPORTED_TARGET z3)
include(${CMAKE_CURRENT_LIST_DIR}/Z3MoveAssignment.cmake)

# LLVM/Clang 22 LibTooling, linked as the shared libraries so that the
# analyzer links in seconds.
execute_process(COMMAND llvm-config-22 --cmakedir
  OUTPUT_VARIABLE GPURACE_LLVM_CMAKE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE llvm_config_status)
if(NOT llvm_config_status EQUAL 0)
  message(FATAL_ERROR "llvm-config-22 not found: run scripts/install-deps.sh")
endif()
# LLVMConfigVersion accepts only an exact major.minor, so check the major
# version here instead.
find_package(LLVM REQUIRED CONFIG PATHS ${GPURACE_LLVM_CMAKE_DIR} NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "LLVM 22 is required, found ${LLVM_PACKAGE_VERSION}")
endif()
find_package(Clang REQUIRED CONFIG PATHS ${GPURACE_LLVM_CMAKE_DIR}/../clang NO_DEFAULT_PATH)
set(GPURACE_CLANG_RESOURCE_DIR "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}"
  CACHE PATH "Clang's resource directory (builtin headers)")
add_library(gpurace_llvm INTERFACE)
target_include_directories(gpurace_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
target_compile_definitions(gpurace_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(gpurace_llvm INTERFACE clang-cpp LLVM)

# CUDA is optional: without it the runtime's device-side targets are skipped
# and everything else builds and tests.
set(GPURACE_HAVE_CUDA OFF)
if(GPURACE_WITH_CUDA)
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND AND TARGET CUDA::cupti)
    set(GPURACE_HAVE_CUDA ON)
    message(STATUS "gpurace: CUDA ${CUDAToolkit_VERSION} with CUPTI found; building the CUDA targets")
  endif()
endif()
if(NOT GPURACE_HAVE_CUDA)
  message(STATUS "gpurace: CUDA toolkit with CUPTI not found (or GPURACE_WITH_CUDA=OFF); skipping the CUDA agent and nvcc tests")
endif()

# cpp-httplib (header-only) for the HTTP/JSON side of the server.
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
