#include "analyzer/frontend/CompileFlags.h"

#include <cstdlib>
#include <cstring>

namespace gpurace::analyzer {

std::string cudaIncludeDir() {
  if (const char *dir = std::getenv("GPURACE_CUDA_INCLUDE"))
    return dir;
  return GPURACE_ANALYZER_INCLUDE_DIR;
}

namespace {
bool startsWith(const std::string &s, const char *prefix) {
  return s.rfind(prefix, 0) == 0;
}
} // namespace

std::vector<std::string> parsingFlags(const std::vector<std::string> &command) {
  // Flags whose value may be joined ("-Ifoo") or the next argument ("-I foo").
  static const char *const kWithValue[] = {"-I", "-D", "-U", "-isystem",
                                           "-include", "-iquote"};
  std::vector<std::string> out;
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string &arg = command[i];
    if (startsWith(arg, "-std=") || arg == "-w" || startsWith(arg, "-W")) {
      if (!startsWith(arg, "-Werror") && !startsWith(arg, "-Wno-deprecated-gpu"))
        out.push_back(arg == "-std=c++03" ? "-std=c++11" : arg);
      continue;
    }
    if (arg == "--std" || arg == "-std") { // nvcc: "--std c++17"
      if (i + 1 < command.size())
        out.push_back("-std=" + command[++i]);
      continue;
    }
    for (const char *flag : kWithValue) {
      if (arg == flag && i + 1 < command.size()) {
        out.push_back(arg);
        out.push_back(command[++i]);
        break;
      }
      if (startsWith(arg, flag) && arg.size() > std::strlen(flag)) {
        out.push_back(arg);
        break;
      }
    }
    // nvcc's long forms.
    if ((arg == "--include-path" || arg == "--define-macro") &&
        i + 1 < command.size()) {
      out.push_back(arg == "--include-path" ? "-I" : "-D");
      out.push_back(command[++i]);
    }
  }
  return out;
}

std::vector<std::string> clangArguments(const std::string &file,
                                        const std::vector<std::string> &user_flags) {
  std::vector<std::string> args = {
      "clang++",
      "-fsyntax-only",
      "-x",
      "cuda",
      "--cuda-host-only",
      "-nocudainc",
      "-nocudalib",
      "-std=c++17",
      "-Wno-unknown-cuda-version",
      "-resource-dir",
      GPURACE_CLANG_RESOURCE_DIR,
      "-isystem",
      cudaIncludeDir(),
      "-include",
      "cuda_runtime.h",
  };
  args.insert(args.end(), user_flags.begin(), user_flags.end());
  args.push_back(file);
  return args;
}

} // namespace gpurace::analyzer
