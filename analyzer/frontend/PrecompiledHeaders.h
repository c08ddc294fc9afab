//===- PrecompiledHeaders.h - the forced includes, parsed once --*- C++ -*-===//
//
// Every CUDA file is parsed after the headers Clang's CUDA mode and the
// analyzer include before the file's first line (the CUDA runtime, the C
// and C++ library headers they pull in, gpurace's nvcc prelude): most of a
// small file's parse. Those headers are precompiled once per set of parse
// arguments into a cache directory, and each parse loads them instead.
//
// A precompiled header is only a shortcut: Clang checks on loading that the
// headers it was built from are unchanged, and a parse whose precompiled
// header cannot be used is done again without it (SourceParser.cpp). Files
// are written under a temporary name and renamed, so processes sharing the
// directory never see half a file.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FRONTEND_PRECOMPILEDHEADERS_H
#define GPURACE_ANALYZER_FRONTEND_PRECOMPILEDHEADERS_H

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace gpurace::analyzer {

class PrecompiledHeaders {
public:
  // Precompiled headers live in `directory`, created when first needed.
  explicit PrecompiledHeaders(std::string directory);

  // The precompiled forced includes of a parse with `argv` (Clang's
  // arguments, the source file last), built when missing; nothing when
  // they cannot be built (the directory is not writable, the headers do
  // not compile on their own).
  std::optional<std::string> forParse(const std::vector<std::string> &argv);
  // A parse could not use `path`: it is removed (the next process builds
  // it again) and not offered again.
  void discard(const std::string &path);

  // At most this many precompiled headers stay in the directory: the least
  // recently built are removed beyond it.
  static constexpr size_t kKept = 24;

private:
  std::optional<std::string> build(const std::vector<std::string> &argv,
                                   const std::string &path);
  void prune();

  std::string directory_;
  std::mutex mutex_;
  // Per path: whether it is usable (false: building it failed in this
  // process, so it is not tried again).
  std::map<std::string, bool> known_;
};

// Limits every traversal of `ast` (and its parent map) to the declarations
// of the parsed file and its own includes, and the functions of the
// precompiled headers they reach: walking all of the headers would read
// them back from disk, and they hold no kernel or launch of the program.
void scopeToFile(clang::ASTContext &ast);

// The default cache directory: $XDG_CACHE_HOME/gpurace, else
// $HOME/.cache/gpurace; empty when neither is set.
std::string defaultCacheDirectory();

} // namespace gpurace::analyzer

#endif
