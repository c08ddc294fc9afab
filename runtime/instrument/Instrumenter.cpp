#include "runtime/instrument/Instrumenter.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace gpurace::rt {

namespace {

bool sameFile(const std::string &planned, const std::string &input) {
  std::error_code ec;
  if (fs::exists(planned, ec) && fs::exists(input, ec))
    return fs::equivalent(planned, input, ec);
  // A plan made elsewhere: compare the trailing path components.
  std::string full = fs::weakly_canonical(input, ec).string();
  std::string tail = fs::path(planned).lexically_normal().string();
  return full.size() >= tail.size() &&
         full.compare(full.size() - tail.size(), tail.size(), tail) == 0 &&
         (full.size() == tail.size() || full[full.size() - tail.size() - 1] == '/');
}

void setRange(PlannedSite &s, const v1::SourceLocation &l) {
  s.line = l.line();
  s.column = l.column();
  s.end_line = l.end_line();
  s.end_column = l.end_column();
}

bool syncKind(v1::SyncKind kind, PlannedSite::Kind &out) {
  switch (kind) {
  case v1::SYNC_KIND_BARRIER:
    out = PlannedSite::Barrier;
    return true;
  case v1::SYNC_KIND_SYNCWARP:
    out = PlannedSite::SyncWarp;
    return true;
  case v1::SYNC_KIND_FENCE:
    out = PlannedSite::Fence;
    return true;
  case v1::SYNC_KIND_GRID_SYNC:
    out = PlannedSite::GridSync;
    return true;
  case v1::SYNC_KIND_ATOMIC:
    out = PlannedSite::Atomic;
    return true;
  default:
    // Tile syncs and warp collectives are not recorded yet.
    return false;
  }
}

std::string readFile(const std::string &path, bool &ok) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  ok = bool(in);
  return text.str();
}

} // namespace

std::vector<PlannedSite> sitesInFile(const SitePlan &plan,
                                     const std::string &file) {
  std::vector<PlannedSite> sites;
  const v1::InstrumentationPlan &p = plan.plan();
  for (int i = 0; i < p.access_sites_size(); ++i) {
    const v1::AccessSite &a = p.access_sites(i);
    if (!sameFile(a.location().file(), file))
      continue;
    PlannedSite s;
    s.id = a.site_id();
    s.index = plan.accessIndex(i);
    s.kind = a.kind() == v1::ACCESS_KIND_READ    ? PlannedSite::Read
             : a.kind() == v1::ACCESS_KIND_WRITE ? PlannedSite::Write
                                                 : PlannedSite::Atomic;
    s.scope = uint8_t(a.scope());
    setRange(s, a.location());
    sites.push_back(s);
  }
  for (int i = 0; i < p.sync_sites_size(); ++i) {
    const v1::SyncSite &y = p.sync_sites(i);
    PlannedSite s;
    if (!sameFile(y.location().file(), file) || !syncKind(y.kind(), s.kind))
      continue;
    s.id = y.site_id();
    s.index = plan.syncIndex(i);
    s.scope = uint8_t(y.scope());
    setRange(s, y.location());
    // An atomic that is both an access site and a sync site is recorded once.
    bool duplicate = false;
    for (const PlannedSite &other : sites)
      duplicate |= s.kind == PlannedSite::Atomic && other.line == s.line &&
                   other.column == s.column && other.kind == PlannedSite::Atomic;
    if (!duplicate)
      sites.push_back(s);
  }
  return sites;
}

InstrumentOutcome instrumentFile(const SitePlan &plan, const std::string &input,
                                 const std::string &output,
                                 const std::vector<std::string> &flags,
                                 const std::string &runtime_header,
                                 bool cpu_harness) {
  InstrumentOutcome outcome;
  bool read_ok = false;
  RewriteRequest request;
  request.file = input;
  request.code = readFile(input, read_ok);
  if (!read_ok) {
    outcome.error = input + ": cannot read the source file";
    return outcome;
  }
  request.flags = flags;
  request.sites = sitesInFile(plan, input);
  request.runtime_header = runtime_header;
  request.cpu_harness = cpu_harness;
  outcome.sites = request.sites.size();
  RewriteResult rewritten = rewriteSource(request);
  if (!rewritten.ok) {
    outcome.error = rewritten.error;
    return outcome;
  }
  // Written to a temporary first so a failure never leaves half a file.
  std::string temporary = output + ".gpurace-tmp";
  {
    std::ofstream out(temporary);
    out << rewritten.output;
    if (!out) {
      outcome.error = output + ": cannot write the instrumented file";
      return outcome;
    }
  }
  std::error_code ec;
  fs::rename(temporary, output, ec);
  if (ec) {
    outcome.error = output + ": " + ec.message();
    return outcome;
  }
  outcome.unmatched = rewritten.unmatched;
  outcome.ok = true;
  return outcome;
}

std::vector<std::string> parseFlagsOf(const std::vector<std::string> &command) {
  static const char *kWithValue[] = {"-I", "-isystem", "-D", "-U", "-include"};
  std::vector<std::string> flags;
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string &arg = command[i];
    for (const char *prefix : kWithValue) {
      if (arg == prefix && i + 1 < command.size()) {
        flags.push_back(arg);
        flags.push_back(command[++i]);
      } else if (arg.rfind(prefix, 0) == 0 && arg.size() > std::strlen(prefix) &&
                 std::string(prefix) != "-include") {
        flags.push_back(arg);
      }
    }
    if (arg.rfind("-std=", 0) == 0)
      flags.push_back(arg);
  }
  return flags;
}

namespace {

int runCommand(const std::vector<std::string> &command) {
  std::vector<char *> argv;
  for (const std::string &a : command)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[0], argv.data());
    std::cerr << "gpurace instrument: cannot run " << command[0] << "\n";
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0)
    return 1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

bool isCudaSource(const std::string &arg) {
  return arg.size() > 3 && arg.compare(arg.size() - 3, 3, ".cu") == 0 &&
         arg[0] != '-';
}

} // namespace

int runAsLauncher(const SitePlan &plan, std::vector<std::string> command,
                  const std::string &runtime_header) {
  if (command.empty()) {
    std::cerr << "gpurace instrument: --launcher needs a compiler command after --\n";
    return 1;
  }
  std::vector<std::string> flags = parseFlagsOf(command);
  char scratch_template[] = "/tmp/gpurace-instrument-XXXXXX";
  if (!mkdtemp(scratch_template)) {
    std::cerr << "gpurace instrument: cannot create a scratch directory\n";
    return 1;
  }
  fs::path scratch(scratch_template);
  int status = 0;
  for (size_t i = 1; i < command.size() && status == 0; ++i) {
    if (!isCudaSource(command[i]) || command[i - 1] == "-o" ||
        sitesInFile(plan, command[i]).empty())
      continue;
    fs::path copy = scratch / (std::to_string(i) + "-" + fs::path(command[i]).filename().string());
    InstrumentOutcome outcome =
        instrumentFile(plan, command[i], copy.string(), flags, runtime_header);
    if (!outcome.ok) {
      std::cerr << "gpurace instrument: " << outcome.error << "\n";
      status = 1;
      break;
    }
    // Quoted includes of the original keep resolving from its directory.
    std::string dir = fs::absolute(command[i]).parent_path().string();
    command[i] = copy.string();
    command.insert(command.begin() + 1, "-I" + dir);
    ++i;
  }
  if (status == 0)
    status = runCommand(command);
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return status;
}

} // namespace gpurace::rt
