#include "analyzer/frontend/CudaToolkit.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

#include <cstdlib>
#include <regex>
#include <utility>
#include <vector>

namespace gpurace::analyzer {

namespace {

// CUDA_VERSION as cuda.h defines it (1000 * major + 10 * minor), or 0.
int versionFromHeader(const std::string &cuda_h) {
  auto buffer = llvm::MemoryBuffer::getFile(cuda_h);
  if (!buffer)
    return 0;
  static const std::regex kDefine(R"(#\s*define\s+CUDA_VERSION\s+(\d+))");
  std::smatch match;
  std::string text = (*buffer)->getBuffer().str();
  if (!std::regex_search(text, match, kDefine))
    return 0;
  return std::atoi(match[1].str().c_str());
}

std::string realPath(const std::string &path) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real))
    return path;
  return std::string(real);
}

} // namespace

std::optional<CudaToolkit> cudaToolkitAt(const std::string &root, std::string &error) {
  llvm::SmallString<256> runtime(root);
  llvm::sys::path::append(runtime, "include", "cuda_runtime.h");
  if (!llvm::sys::fs::exists(runtime)) {
    error = "'" + root + "' is not a CUDA toolkit (no include/cuda_runtime.h)";
    return std::nullopt;
  }
  llvm::SmallString<256> cuda_h(root);
  llvm::sys::path::append(cuda_h, "include", "cuda.h");
  CudaToolkit toolkit;
  toolkit.root = realPath(root);
  toolkit.version_number = versionFromHeader(std::string(cuda_h));
  if (toolkit.version_number > 0)
    toolkit.version = std::to_string(toolkit.version_number / 1000) + "." +
                      std::to_string(toolkit.version_number % 1000 / 10);
  else
    toolkit.version = "unknown";
  return toolkit;
}

std::optional<CudaToolkit> findCudaToolkit(const std::string &requested,
                                           std::string &error) {
  if (!requested.empty()) {
    auto toolkit = cudaToolkitAt(requested, error);
    if (toolkit)
      toolkit->found_by = "--cuda-path";
    else
      error = "--cuda-path: " + error;
    return toolkit;
  }
  std::vector<std::pair<std::string, std::string>> candidates;
  for (const char *variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *value = std::getenv(variable); value && *value)
      candidates.emplace_back(value, variable);
  if (auto nvcc = llvm::sys::findProgramByName("nvcc")) {
    // <root>/bin/nvcc, through any symbolic links.
    llvm::SmallString<256> root(realPath(*nvcc));
    llvm::sys::path::remove_filename(root);
    llvm::sys::path::remove_filename(root);
    candidates.emplace_back(std::string(root), "nvcc on PATH");
  }
  candidates.emplace_back("/usr/local/cuda", "/usr/local/cuda");
  for (const auto &[root, how] : candidates) {
    std::string ignored;
    if (auto toolkit = cudaToolkitAt(root, ignored)) {
      toolkit->found_by = how;
      return toolkit;
    }
  }
  return std::nullopt;
}

} // namespace gpurace::analyzer
