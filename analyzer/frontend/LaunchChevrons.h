//===- LaunchChevrons.h - spaced <<< >>> as nvcc reads them -----*- C++ -*-===//
//
// nvcc takes `k << < grid, block >> > (args)` (as some formatters write a
// launch) for `k<<<grid, block>>>(args)`; Clang's lexer needs each chevron
// triple in one piece. The text is rewritten before parsing, keeping every
// other character on its line and column so that diagnostics and sites
// still point into the user's file.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_FRONTEND_LAUNCHCHEVRONS_H
#define GPURACE_ANALYZER_FRONTEND_LAUNCHCHEVRONS_H

#include <optional>
#include <string>

namespace gpurace::analyzer {

// `text` with each `<<` + blanks + `<` that opens a launch configuration
// turned into `<<<` + the same blanks, and the `>>` + blanks + `>` that
// closes it likewise (outside comments and literals); nullopt when the
// text has none.
std::optional<std::string> joinSpacedLaunchChevrons(const std::string &text);

} // namespace gpurace::analyzer

#endif
