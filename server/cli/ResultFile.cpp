#include "server/cli/ResultFile.h"

#include "proto/JsonCodec.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace gpurace {

namespace {

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

v1::RaceClass classOfRule(const std::string &rule) {
  const std::string prefix = "gpurace-";
  std::string name = rule.compare(0, prefix.size(), prefix) == 0
                         ? rule.substr(prefix.size())
                         : rule;
  for (int v = 1; v <= v1::RaceClass_MAX; ++v) {
    std::string full = v1::RaceClass_Name(v).substr(sizeof("RACE_CLASS_") - 1);
    std::string shortName;
    for (char c : full)
      shortName += c == '_' ? '-' : static_cast<char>(std::tolower(c));
    if (shortName == name)
      return static_cast<v1::RaceClass>(v);
  }
  return v1::RACE_CLASS_UNSPECIFIED;
}

void readLocation(const nlohmann::json &location, v1::AccessSite &site) {
  const auto &physical = location.value("physicalLocation", nlohmann::json::object());
  v1::SourceLocation *loc = site.mutable_location();
  loc->set_file(physical.value("artifactLocation", nlohmann::json::object())
                    .value("uri", std::string()));
  const auto &region = physical.value("region", nlohmann::json::object());
  loc->set_line(region.value("startLine", 0u));
  loc->set_column(region.value("startColumn", 0u));
  std::string snippet = region.value("snippet", nlohmann::json::object())
                            .value("text", std::string());
  if (!snippet.empty()) {
    site.mutable_excerpt()->set_first_line(loc->line());
    std::stringstream lines(snippet);
    for (std::string line; std::getline(lines, line);)
      site.mutable_excerpt()->add_lines(line);
  }
}

std::string fingerprintOf(const nlohmann::json &result) {
  for (const char *key : {"partialFingerprints", "fingerprints"}) {
    // value() returns a copy: it must outlive the loop over its items.
    const nlohmann::json fingerprints = result.value(key, nlohmann::json::object());
    for (const auto &[name, value] : fingerprints.items())
      if (value.is_string() && value.get<std::string>().rfind("v1:", 0) == 0)
        return value.get<std::string>();
  }
  return std::string();
}

Status candidateFromSarif(const nlohmann::json &result, const std::string &field,
                          v1::RaceCandidate &c) {
  c.set_fingerprint(fingerprintOf(result));
  if (c.fingerprint().empty())
    return Status::invalid(field + ".partialFingerprints: no \"v1:\" "
                                   "fingerprint");
  c.set_race_class(classOfRule(result.value("ruleId", std::string())));
  if (c.race_class() == v1::RACE_CLASS_UNSPECIFIED)
    return Status::invalid(field + ".ruleId: not a gpurace race class");
  c.set_message(result.value("message", nlohmann::json::object())
                    .value("text", std::string()));
  const auto &locations = result.value("locations", nlohmann::json::array());
  const auto &related = result.value("relatedLocations", nlohmann::json::array());
  if (locations.empty())
    return Status::invalid(field + ".locations: empty");
  readLocation(locations[0], *c.mutable_first());
  readLocation(related.empty() ? locations[0] : related[0], *c.mutable_second());
  const auto &properties = result.value("properties", nlohmann::json::object());
  c.set_kernel(properties.value("kernel", std::string()));
  c.set_score(properties.value("score", 1.0));
  if (properties.contains("repair")) {
    std::string error;
    if (!fromJson(properties["repair"].dump(), *c.mutable_repair(), error))
      return Status::invalid(field + ".properties.repair: " + error);
  }
  return {};
}

} // namespace

Status analysisFromSarif(const std::string &text, const std::string &path,
                         v1::AnalysisResult &out) {
  try {
    nlohmann::json sarif = nlohmann::json::parse(text);
    const auto &runs = sarif.at("runs");
    for (size_t r = 0; r < runs.size(); ++r) {
      const nlohmann::json &run = runs.at(r);
      // A missing member is read through value() or at(): a const
      // operator[] would read past the end of the object's map.
      out.set_tool_version(run.value(
          nlohmann::json::json_pointer("/tool/driver/version"), std::string()));
      const auto &results = run.value("results", nlohmann::json::array());
      for (size_t i = 0; i < results.size(); ++i) {
        std::string field = "runs[" + std::to_string(r) + "].results[" +
                            std::to_string(i) + "]";
        if (Status s = candidateFromSarif(results.at(i), field,
                                          *out.add_candidates());
            !s.ok())
          return Status::invalid(path + ": " + s.message);
      }
    }
  } catch (const nlohmann::json::exception &e) {
    return Status::invalid(path + ": not a SARIF 2.1.0 log: " + e.what());
  }
  return {};
}

Status readAnalysisResult(const std::string &path, v1::AnalysisResult &result,
                          std::string &contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::invalid(path + ": cannot read the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  contents = buffer.str();
  return decodeAnalysisResult(contents, path, result);
}

Status decodeAnalysisResult(const std::string &contents,
                            const std::string &path,
                            v1::AnalysisResult &result) {
  if (endsWith(path, ".sarif") || endsWith(path, ".sarif.json"))
    return analysisFromSarif(contents, path, result);
  std::string error;
  if (!fromJson(contents, result, error))
    return Status::invalid(path + ": not an AnalysisResult (the JSON of "
                                  "'gpurace analyze --format=json'): " +
                           error);
  return {};
}

} // namespace gpurace
