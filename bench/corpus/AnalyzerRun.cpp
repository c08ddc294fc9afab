//===- AnalyzerRun.cpp - run `gpurace analyze` on one corpus file ---------===//
#include "bench/corpus/AnalyzerRun.h"

#include "proto/JsonCodec.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace gpurace::corpus {

namespace {

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string firstLine(const std::string &text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "(no message)" : line;
}

} // namespace

// Only async-signal-safe calls happen between fork and exec, because the
// scorer runs many of these from several threads.
Capture capture(const std::vector<std::string> &argv) {
  char dir_template[] = "/tmp/gpurace-corpus-XXXXXX";
  Capture result;
  if (!mkdtemp(dir_template)) {
    result.err = "cannot create a temporary directory";
    return result;
  }
  std::string dir = dir_template;
  std::string out_path = dir + "/out", err_path = dir + "/err";
  int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out_fd);
  close(err_fd);
  int status = 0;
  if (pid > 0 && waitpid(pid, &status, 0) == pid)
    result.exit_code =
        WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  rmdir(dir.c_str());
  return result;
}

AnalyzerOutcome interpretAnalyzerOutput(int exit_code, const std::string &out,
                                        const std::string &err) {
  AnalyzerOutcome outcome;
  if (exit_code != 0 && exit_code != 2) {
    outcome.error = "analyzer exited with " + std::to_string(exit_code) +
                    ": " + firstLine(err);
    return outcome;
  }
  std::string parse_error;
  if (!fromJson(out, outcome.result, parse_error)) {
    outcome.error = "analyzer output is not an AnalysisResult: " + parse_error;
    return outcome;
  }
  outcome.ok = true;
  return outcome;
}

AnalyzerOutcome runAnalyzer(const std::string &gpurace,
                            const std::vector<std::string> &extra_flags,
                            const std::string &file,
                            const std::vector<std::string> &companions) {
  // One file per run: the scorer runs the files in parallel itself. The
  // wall-clock safety net is three times the default so that a loaded
  // machine (CI runs other tests beside it) scores like an idle one; the
  // deterministic effort limit decides the rest.
  std::vector<std::string> argv = {gpurace, "analyze", "--format=json", "-j1",
                                   "--query-timeout-ms=30000"};
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  argv.push_back(file);
  argv.insert(argv.end(), companions.begin(), companions.end());
  Capture run = capture(argv);
  return interpretAnalyzerOutput(run.exit_code, run.out, run.err);
}

} // namespace gpurace::corpus
