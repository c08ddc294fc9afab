#include "tests/support/RunProcess.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace gpurace::testing {

namespace {
std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}
} // namespace

ProcessResult runProcess(const std::vector<std::string> &argv,
                         const std::string &input) {
  char dir_template[] = "/tmp/gpurace-run-XXXXXX";
  std::string dir = mkdtemp(dir_template);
  std::string in_path = dir + "/in", out_path = dir + "/out",
              err_path = dir + "/err";
  std::ofstream(in_path) << input;

  ProcessResult result;
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen(in_path.c_str(), "r", stdin) ||
        !freopen(out_path.c_str(), "w", stdout) ||
        !freopen(err_path.c_str(), "w", stderr))
      _exit(127);
    std::vector<char *> args;
    for (const auto &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  for (const auto &p : {in_path, out_path, err_path})
    std::remove(p.c_str());
  rmdir(dir.c_str());
  return result;
}

std::string gpuraceBinary() {
  if (const char *path = std::getenv("GPURACE_BIN"))
    return path;
  return GPURACE_BIN_DEFAULT;
}

} // namespace gpurace::testing
