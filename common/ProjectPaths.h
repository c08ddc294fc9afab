//===- ProjectPaths.h - source paths relative to the project root -*- C++ -*-===//
//
// Results name source files relative to the project root, so that the same
// race analyzed in two checkouts (/home/ci/build-123/src/k.cu and
// /home/ana/app/src/k.cu) names one file, src/k.cu, on the server and the
// dashboard. The root is --root DIR, else the top level of the git work
// tree around the working directory. Paths outside the root (the CUDA
// toolkit's headers, a file in /tmp) stay as they were given.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_COMMON_PROJECTPATHS_H
#define GPURACE_COMMON_PROJECTPATHS_H

#include <google/protobuf/message.h>

#include <string>

namespace gpurace {

// The absolute, canonical project root: `root_flag` when given (it must be
// a directory; `error` says otherwise and "" is returned), else the nearest
// directory from `start` upwards that holds .git; "" when there is none.
std::string findProjectRoot(const std::string &root_flag,
                            const std::string &start, std::string &error);

// `path` (absolute, or relative to the working directory) relative to
// `root` when it lies inside it; otherwise `path` unchanged.
std::string pathUnderRoot(const std::string &path, const std::string &root);

// Rewrites every source path in `message` and the messages in it: the
// `file` of locations and errors, the lists of files analyzed, and the
// file names in the headers of unified diffs (map keys included).
void relativizeSourcePaths(google::protobuf::Message &message,
                           const std::string &root);

} // namespace gpurace

#endif
