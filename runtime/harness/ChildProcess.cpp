#include "runtime/harness/ChildProcess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

extern char **environ;

namespace gpurace::rt {

namespace {

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> out;
  for (std::string &s : strings)
    out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Waits for `pid`, killing its process group at the deadline.
int waitWithDeadline(pid_t pid, unsigned timeout_s, bool &timed_out) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return status;
}

} // namespace

ChildResult runChild(const std::vector<std::string> &argv,
                     const std::vector<std::string> &env,
                     const std::string &out_path, unsigned timeout_s) {
  ChildResult result;
  std::vector<std::string> args = argv, environment = env;
  for (char **e = environ; *e; ++e)
    environment.push_back(*e);
  std::vector<char *> arg_ptrs = pointers(args), env_ptrs = pointers(environment);
  std::string err_path = out_path + ".stderr";
  int out_fd = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int err_fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (out_fd < 0 || err_fd < 0) {
    result.err = "cannot create " + out_path;
    return result;
  }
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    execve(arg_ptrs[0], arg_ptrs.data(), env_ptrs.data());
    _exit(127);
  }
  close(out_fd);
  close(err_fd);
  if (pid < 0) {
    result.err = "cannot start " + argv[0];
    return result;
  }
  int status = waitWithDeadline(pid, timeout_s, result.timed_out);
  if (WIFEXITED(status))
    result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.signal = WTERMSIG(status);
  std::ifstream err(err_path);
  std::ostringstream text;
  text << err.rdbuf();
  result.err = text.str();
  return result;
}

} // namespace gpurace::rt
