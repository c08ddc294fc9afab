#include "storage/tests/PostgresCluster.h"

#include <libpq-fe.h>

#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace gpurace::testing {

namespace {

std::string &reason() {
  static std::string why;
  return why;
}

// The directory holding initdb and pg_ctl: PATH's, else Debian's
// versioned one.
std::string findBinDir() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (const char *path = getenv("PATH")) {
    std::string all = path;
    for (size_t start = 0; start <= all.size();) {
      size_t end = all.find(':', start);
      if (end == std::string::npos)
        end = all.size();
      candidates.emplace_back(all.substr(start, end - start));
      start = end + 1;
    }
  }
  std::error_code ec;
  for (const auto &entry :
       fs::directory_iterator("/usr/lib/postgresql", ec))
    candidates.push_back(entry.path() / "bin");
  for (const fs::path &dir : candidates)
    if (fs::exists(dir / "initdb", ec) && fs::exists(dir / "pg_ctl", ec))
      return dir.string();
  return "";
}

// Runs a program to completion, as `user` when one is given; true when it
// exits 0. Its output goes to `log`.
bool runAs(const passwd *user, const std::vector<std::string> &args,
           const std::string &log) {
  // Built before fork: the child of a threaded process only execs.
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  uid_t uid = user ? user->pw_uid : 0;
  gid_t gid = user ? user->pw_gid : 0;
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    if (user && (setgid(gid) != 0 || setuid(uid) != 0))
      _exit(126);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

const passwd *serverUser() {
  return geteuid() == 0 ? getpwnam("postgres") : nullptr;
}

} // namespace

const std::string &PostgresCluster::unavailableReason() { return reason(); }

PostgresCluster *PostgresCluster::instance(bool durable) {
  static std::unique_ptr<PostgresCluster> cluster = [durable] {
    std::unique_ptr<PostgresCluster> c(new PostgresCluster());
    if (!c->start(durable, reason()))
      c.reset();
    return c;
  }();
  return cluster.get();
}

bool PostgresCluster::start(bool durable, std::string &why) {
  bin_ = findBinDir();
  if (bin_.empty()) {
    why = "PostgreSQL's initdb and pg_ctl not found (Debian package "
          "'postgresql')";
    return false;
  }
  const passwd *user = serverUser();
  if (geteuid() == 0 && !user) {
    why = "running as root and there is no 'postgres' user to run the "
          "server as";
    return false;
  }
  char pattern[] = "/tmp/gpurace-pg-XXXXXX";
  if (!mkdtemp(pattern)) {
    why = "cannot create a temporary directory";
    return false;
  }
  dir_ = pattern;
  if (user && chown(dir_.c_str(), user->pw_uid, user->pw_gid) != 0) {
    why = "cannot hand " + dir_ + " to the postgres user";
    return false;
  }
  std::string log = dir_ + "/setup.log";
  if (!runAs(user,
             {bin_ + "/initdb", "-D", dir_ + "/data", "-A", "trust", "-U",
              "gpurace", "--no-sync", "-E", "UTF8", "--locale=C"},
             log)) {
    why = "initdb failed (see " + log + ")";
    return false;
  }
  // Durability is not under test in the tests: no fsync there, for speed.
  std::string options = "-k " + dir_ + " -c listen_addresses=''";
  if (!durable)
    options += " -F";
  running_ = runAs(user,
                   {bin_ + "/pg_ctl", "-D", dir_ + "/data", "-l",
                    dir_ + "/server.log", "-w", "-o", options, "start"},
                   log);
  if (!running_)
    why = "pg_ctl start failed (see " + log + ")";
  return running_;
}

std::string PostgresCluster::createDatabase() {
  std::string name = "test" + std::to_string(++databases_);
  std::string admin = "postgresql://gpurace@/postgres?host=" + dir_;
  PGconn *conn = PQconnectdb(admin.c_str());
  PQclear(PQexec(conn, ("CREATE DATABASE " + name).c_str()));
  PQfinish(conn);
  return "postgresql://gpurace@/" + name + "?host=" + dir_;
}

PostgresCluster::~PostgresCluster() {
  if (running_)
    runAs(serverUser(),
          {bin_ + "/pg_ctl", "-D", dir_ + "/data", "-m", "immediate", "-w",
           "stop"},
          "/dev/null");
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

} // namespace gpurace::testing
