//===- FixedArgumentsTool.h - A ClangTool for one command line --*- C++ -*-===//
#ifndef GPURACE_ANALYZER_FRONTEND_FIXEDARGUMENTSTOOL_H
#define GPURACE_ANALYZER_FRONTEND_FIXEDARGUMENTSTOOL_H

#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <string>
#include <vector>

namespace gpurace::analyzer {

// A ClangTool that parses `file` with exactly `argv` (the program name
// first, the file last, as the parse arguments are built): no argument
// adjusters add to them.
class FixedArgumentsTool {
public:
  FixedArgumentsTool(const std::vector<std::string> &argv, const std::string &file)
      : database_(".", std::vector<std::string>(argv.begin() + 1, argv.end() - 1)),
        tool_(database_, {file}) {
    tool_.clearArgumentsAdjusters();
  }

  clang::tooling::ClangTool &tool() { return tool_; }

private:
  // The database adds the program name and the file itself.
  clang::tooling::FixedCompilationDatabase database_;
  clang::tooling::ClangTool tool_;
};

} // namespace gpurace::analyzer

#endif
