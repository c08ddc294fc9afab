//===- CompileFlags.h - the Clang command line for a source file -*- C++ -*-===//
//
// Builds the Clang invocations that parse a file as nvcc would: once as the
// host compiler sees it and once as the device compiler sees it
// (`__CUDA_ARCH__` defined), with the CUDA toolkit's own headers when one is
// installed or gpurace's declaration headers otherwise. The user's flags come
// from an nvcc (or host compiler) command in compile_commands.json or from
// the command line; only what matters to parsing is kept.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FRONTEND_COMPILEFLAGS_H
#define GPURACE_ANALYZER_FRONTEND_COMPILEFLAGS_H

#include "analyzer/frontend/CudaToolkit.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpurace::analyzer {

class PrecompiledHeaders;

// The folder of gpurace's CUDA declaration headers: $GPURACE_CUDA_INCLUDE if
// set, else the one this build was configured with.
std::string cudaIncludeDir();

// Which compiler's view of a file a parse takes.
enum class ParseSide { Host, Device };

// The headers and target every parse of a run shares.
struct HeaderSetup {
  // Absent: gpurace's fallback declaration headers.
  std::optional<CudaToolkit> toolkit;
  // Null: no precompiled headers.
  std::shared_ptr<PrecompiledHeaders> precompiled;
};

// The flags of a compiler command that matter to parsing, translated from
// nvcc's spellings where they differ.
struct ParsingFlags {
  std::vector<std::string> flags;
  // The GPU architecture the command compiles for (e.g. "sm_80"), if it says.
  std::string gpu_arch;
  // Flags neither kept nor known to be irrelevant to parsing.
  std::vector<std::string> dropped;
};

// `command` is the argv of a compiler call (argv[0] is the compiler).
ParsingFlags parsingFlags(const std::vector<std::string> &command);

// Flags given after "--" on gpurace's command line: nvcc spellings are
// translated, everything else is passed to Clang as it is.
ParsingFlags commandLineFlags(const std::vector<std::string> &flags);

// Whether `file` is CUDA (.cu, .cuh) rather than a host-only C/C++ file.
bool isCudaFile(const std::string &file);

// The GPU architecture a parse targets: the flags' own, else nvcc's default.
std::string targetArch(const std::string &from_flags);

// The complete argv for a Clang tool parsing `file` on `side`. Host-only C++
// files have only a host side.
std::vector<std::string> clangArguments(const std::string &file,
                                        const ParsingFlags &user_flags,
                                        const HeaderSetup &headers, ParseSide side);

} // namespace gpurace::analyzer

#endif
