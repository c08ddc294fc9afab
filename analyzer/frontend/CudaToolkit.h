//===- CudaToolkit.h - the CUDA installation a parse uses -------*- C++ -*-===//
//
// Real programs are parsed as nvcc parses them, with the toolkit's own
// headers, when a toolkit is installed. This unit finds it: an explicit
// --cuda-path, then $CUDA_PATH, $CUDA_HOME, the folder of nvcc on $PATH and
// the usual install location, and reads its version from cuda.h.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FRONTEND_CUDATOOLKIT_H
#define GPURACE_ANALYZER_FRONTEND_CUDATOOLKIT_H

#include <optional>
#include <string>

namespace gpurace::analyzer {

struct CudaToolkit {
  // The installation's root: its include/ holds cuda_runtime.h.
  std::string root;
  // CUDA_VERSION from cuda.h, e.g. 13000, and as text, e.g. "13.0".
  int version_number = 0;
  std::string version;
  // How it was found: "--cuda-path", "CUDA_PATH", "CUDA_HOME",
  // "nvcc on PATH" or "/usr/local/cuda".
  std::string found_by;
};

// The toolkit at `root`, or nullopt with `error` saying why it is not one.
std::optional<CudaToolkit> cudaToolkitAt(const std::string &root, std::string &error);

// The toolkit to parse with. `requested` (from --cuda-path) must be a
// toolkit; without it the first valid candidate of the search order wins,
// and nullopt means none is installed.
std::optional<CudaToolkit> findCudaToolkit(const std::string &requested,
                                           std::string &error);

} // namespace gpurace::analyzer

#endif
