//===- CompileFlags.h - the Clang command line for a .cu file ---*- C++ -*-===//
//
// Builds the Clang invocation that parses a CUDA file on the host side with
// gpurace's own CUDA declarations, from the user's flags or from an nvcc
// command in compile_commands.json (only the flags that matter to parsing
// are kept: include paths, macros, language standard, forced includes).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FRONTEND_COMPILEFLAGS_H
#define GPURACE_ANALYZER_FRONTEND_COMPILEFLAGS_H

#include <string>
#include <vector>

namespace gpurace::analyzer {

// The folder of gpurace's CUDA declaration headers: $GPURACE_CUDA_INCLUDE if
// set, else the one this build was configured with.
std::string cudaIncludeDir();

// The flags of `command` (argv of a compiler call) that affect parsing.
std::vector<std::string> parsingFlags(const std::vector<std::string> &command);

// The complete argv for a Clang tool parsing `file` with `user_flags`.
std::vector<std::string> clangArguments(const std::string &file,
                                        const std::vector<std::string> &user_flags);

} // namespace gpurace::analyzer

#endif
