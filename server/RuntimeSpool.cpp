#include "server/RuntimeSpool.h"

#include "proto/JsonCodec.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpurace {

namespace fs = std::filesystem;

namespace {

constexpr const char *kSuffix = ".runtime.json";

// Upload ids are the agent's own ("<hex>-<n>"), but a file name must not
// depend on that.
std::string fileNameFor(const std::string &upload_id) {
  std::string name;
  for (char c : upload_id)
    name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return name + kSuffix;
}

} // namespace

std::string defaultSpoolDirectory() {
  if (const char *cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
    return std::string(cache) + "/gpurace/spool";
  const char *home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/gpurace/spool";
}

std::string spoolFileText(const v1::ReportRuntimeRequest &request) {
  JsonWriteOptions compact;
  compact.pretty = false;
  return toJson(request, compact) + "\n";
}

bool parseSpoolFile(const std::string &text, v1::ReportRuntimeRequest &request,
                    std::string &error) {
  return fromJson(text, request, error);
}

Status spoolReport(const std::string &dir,
                   const v1::ReportRuntimeRequest &request) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Status::internal(dir + ": cannot create the spool directory: " +
                            ec.message());
  fs::path target = fs::path(dir) / fileNameFor(request.upload_id());
  fs::path partial = target.string() + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(partial);
    out << spoolFileText(request);
    if (!out.flush())
      return Status::internal(partial.string() + ": cannot write");
  }
  fs::rename(partial, target, ec);
  if (ec)
    return Status::internal(target.string() + ": cannot write: " + ec.message());
  return {};
}

std::vector<SpooledReport> readSpool(const std::string &dir,
                                     std::vector<std::string> &problems) {
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > std::string(kSuffix).size() &&
        name.compare(name.size() - std::string(kSuffix).size(),
                     std::string::npos, kSuffix) == 0)
      files.emplace_back(entry.last_write_time(), entry.path());
  }
  if (ec)
    problems.push_back(dir + ": cannot list the spool directory: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<SpooledReport> reports;
  for (const auto &[time, path] : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    SpooledReport report{path.string(), {}};
    std::string error;
    if (parseSpoolFile(text.str(), report.request, error))
      reports.push_back(std::move(report));
    else
      problems.push_back(path.string() + ": not a runtime report: " + error);
  }
  return reports;
}

} // namespace gpurace
