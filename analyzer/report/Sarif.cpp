#include "analyzer/report/Sarif.h"

#include "analyzer/Analyzer.h"
#include "analyzer/report/PerfReport.h"
#include "analyzer/report/Ranking.h"
#include "proto/JsonCodec.h"

#include <nlohmann/json.hpp>

namespace gpurace::analyzer {

namespace {

using nlohmann::json;

json physicalLocation(const v1::SourceLocation &l) {
  json region = {{"startLine", l.line()}, {"startColumn", l.column()}};
  if (l.end_line())
    region["endLine"] = l.end_line();
  if (l.end_column())
    region["endColumn"] = l.end_column() + 1; // SARIF's end is exclusive
  return {{"artifactLocation", {{"uri", l.file()}}}, {"region", region}};
}

json location(const v1::AccessSite &site, int id, const std::string &text) {
  json out = {{"physicalLocation", physicalLocation(site.location())},
              {"message", {{"text", text}}}};
  if (id >= 0)
    out["id"] = id;
  if (!site.location().function().empty())
    out["logicalLocations"] = json::array(
        {{{"fullyQualifiedName", site.location().function()}, {"kind", "function"}}});
  return out;
}

std::string threadName(const v1::ThreadCoord &t) {
  return "thread (" + std::to_string(t.thread_idx().x()) + "," +
         std::to_string(t.thread_idx().y()) + "," + std::to_string(t.thread_idx().z()) +
         ") block (" + std::to_string(t.block_idx().x()) + "," +
         std::to_string(t.block_idx().y()) + "," + std::to_string(t.block_idx().z()) + ")";
}

// The thread's way to the access: each call from the kernel down to the
// device function that holds it, then the access itself.
json threadFlow(const v1::AccessSite &site, const v1::ThreadCoord &thread,
                bool has_witness, const char *fallback) {
  std::string name = has_witness ? threadName(thread) : fallback;
  json steps = json::array();
  for (const v1::CallFrame &frame : site.call_stack()) {
    json call = {{"physicalLocation", physicalLocation(frame.call_site())},
                 {"message", {{"text", "calls '" + frame.callee() + "'"}}}};
    if (!frame.call_site().function().empty())
      call["logicalLocations"] = json::array(
          {{{"fullyQualifiedName", frame.call_site().function()}, {"kind", "function"}}});
    steps.push_back({{"location", call}});
  }
  steps.push_back({{"location", location(site, -1, site.expression())}});
  return {{"id", name}, {"message", {{"text", name}}}, {"locations", steps}};
}

json rule(v1::RaceClass race_class) {
  std::string name = raceClassName(race_class);
  static const std::map<std::string, std::string> kHelp = {
      {"intra-warp", "Two lanes of one warp access the same location, one writes, and no __syncwarp() orders them."},
      {"intra-block", "Two threads of one block access the same location, one writes, and no __syncthreads() orders them."},
      {"inter-block", "Threads of different blocks access the same location, one writes, and nothing orders them."},
      {"scoped", "Synchronization exists but its scope does not include both threads."},
      {"barrier-divergence", "A barrier that some threads of the block may not reach."},
  };
  return {{"id", "gpurace-" + name},
          {"name", name},
          {"shortDescription", {{"text", name + " data race"}}},
          {"fullDescription", {{"text", kHelp.at(name)}}},
          {"defaultConfiguration", {{"level", "warning"}}},
          {"properties", {{"tags", json::array({"concurrency", "cuda"})}}}};
}

json perfRule(v1::PerfKind kind) {
  std::string name = perfKindName(kind);
  std::string help =
      kind == v1::PERF_KIND_BANK_CONFLICT
          ? "Lanes of one warp access distinct words of the same shared-memory bank, so the "
            "access is served once per word."
          : "One warp's global access touches more 32-byte sectors than its bytes need.";
  return {{"id", "gpurace-perf-" + name},
          {"name", name},
          {"shortDescription", {{"text", name == "bank-conflict" ? "shared-memory bank conflict"
                                                               : "uncoalesced global access"}}},
          {"fullDescription", {{"text", help}}},
          {"defaultConfiguration", {{"level", "note"}}},
          {"properties", {{"tags", json::array({"performance", "cuda"})}}}};
}

json perfResult(const v1::PerfFinding &f, int rule_index) {
  return {{"ruleId", "gpurace-perf-" + perfKindName(f.kind())},
          {"ruleIndex", rule_index},
          {"level", isPerfFinding(f) ? "warning" : f.proved() ? "none" : "note"},
          {"message", {{"text", f.message()}}},
          {"locations", json::array({location(f.site(), -1, f.site().expression())})},
          {"partialFingerprints", {{"gpuracePerfFingerprint/v1", f.fingerprint()}}},
          {"properties",
           {{"kernel", f.kernel()}, {"cost", f.cost()}, {"best", f.best()},
            {"proved", f.proved()}, {"inLoop", f.in_loop()}}}};
}

// A verified repair as SARIF's fix: code-scanning UIs offer its
// replacements as a suggested change. SARIF's end column is exclusive, as
// a replacement's end is.
json fixOf(const v1::Repair &repair) {
  std::map<std::string, json> replacements;
  for (const v1::TextReplacement &edit : repair.edits()) {
    const v1::SourceLocation &at = edit.location();
    json region = {{"startLine", at.line()},
                   {"startColumn", at.column()},
                   {"endLine", at.end_line()},
                   {"endColumn", at.end_column()}};
    replacements[at.file()].push_back(
        {{"deletedRegion", region}, {"insertedContent", {{"text", edit.new_text()}}}});
  }
  json changes = json::array();
  for (auto &[file, file_replacements] : replacements)
    changes.push_back(
        {{"artifactLocation", {{"uri", file}}}, {"replacements", file_replacements}});
  return {{"description", {{"text", repair.summary()}}}, {"artifactChanges", changes}};
}

// Relative URIs are resolved against SRCROOT, the project root, which the
// run records as an absolute file URI.
void anchorAtRoot(json &node) {
  if (node.is_array()) {
    for (json &item : node)
      anchorAtRoot(item);
    return;
  }
  if (!node.is_object())
    return;
  for (auto &[key, value] : node.items()) {
    if (key == "artifactLocation" && value.is_object() &&
        value.contains("uri") && value["uri"].is_string() &&
        value["uri"].get<std::string>().rfind('/', 0) != 0)
      value["uriBaseId"] = "SRCROOT";
    else
      anchorAtRoot(value);
  }
}

bool hasFix(const v1::RaceCandidate &c) {
  return c.has_repair() && c.repair().verified() && c.repair().edits_size() > 0 &&
         !c.repair().builds_on_earlier();
}

} // namespace

std::string toSarif(const v1::AnalysisResult &result, double min_score,
                    bool include_below_threshold,
                    const std::string &source_root) {
  json rules = json::array();
  std::map<v1::RaceClass, int> rule_index;
  for (v1::RaceClass c : {v1::RACE_CLASS_INTRA_WARP, v1::RACE_CLASS_INTRA_BLOCK,
                          v1::RACE_CLASS_INTER_BLOCK, v1::RACE_CLASS_SCOPED,
                          v1::RACE_CLASS_BARRIER_DIVERGENCE}) {
    rule_index[c] = static_cast<int>(rules.size());
    rules.push_back(rule(c));
  }
  std::map<v1::PerfKind, int> perf_rule_index;
  if (result.options().perf())
    for (v1::PerfKind kind : {v1::PERF_KIND_BANK_CONFLICT, v1::PERF_KIND_UNCOALESCED}) {
      perf_rule_index[kind] = static_cast<int>(rules.size());
      rules.push_back(perfRule(kind));
    }
  json results = json::array();
  for (const v1::RaceCandidate &c : result.candidates()) {
    bool finding = isFinding(c, min_score);
    if (!finding && !include_below_threshold)
      continue;
    json r = {{"ruleId", "gpurace-" + raceClassName(c.race_class())},
              {"ruleIndex", rule_index[c.race_class()]},
              {"level", finding ? "warning" : "note"},
              {"message", {{"text", c.message() + ". " + defectText(c.defect())}}},
              {"locations", json::array({location(c.first(), -1, c.first().expression())})},
              {"partialFingerprints", {{"gpuraceFingerprint/v1", c.fingerprint()}}},
              {"properties", {{"score", c.score()}, {"kernel", c.kernel()}}}};
    if (hasFix(c))
      r["fixes"] = json::array({fixOf(c.repair())});
    // The whole repair, so that `gpurace upload` of this file keeps it.
    if (c.has_repair())
      r["properties"]["repair"] = json::parse(toJson(c.repair(), {false}));
    if (c.has_suppression())
      r["suppressions"] = json::array(
          {{{"kind", "inSource"}, {"justification", c.suppression().reason()}}});
    if (c.race_class() != v1::RACE_CLASS_BARRIER_DIVERGENCE) {
      r["relatedLocations"] = json::array(
          {location(c.second(), 1, "conflicting access: " + c.second().expression())});
      bool w = c.has_witness();
      r["codeFlows"] = json::array(
          {{{"threadFlows",
             json::array({threadFlow(c.first(), c.witness().first(), w, "first thread"),
                          threadFlow(c.second(), c.witness().second(), w, "second thread")})}}});
    }
    results.push_back(std::move(r));
  }
  for (const v1::PerfFinding &f : result.perf_findings())
    if (isPerfFinding(f) || include_below_threshold)
      results.push_back(perfResult(f, perf_rule_index[f.kind()]));
  json invocation = {{"executionSuccessful", result.errors_size() == 0}};
  json notifications = json::array();
  for (const v1::FileError &e : result.errors()) {
    v1::SourceLocation where;
    where.set_file(e.file());
    where.set_line(std::max<uint32_t>(e.line(), 1));
    where.set_column(std::max<uint32_t>(e.column(), 1));
    notifications.push_back({{"level", "error"},
                             {"message", {{"text", e.message()}}},
                             {"locations", json::array({{{"physicalLocation", physicalLocation(where)}}})}});
  }
  if (!notifications.empty())
    invocation["toolExecutionNotifications"] = notifications;
  json sarif = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::array({{{"tool", {{"driver", {{"name", "gpurace"},
                                                   {"version", result.tool_version()},
                                                   {"rules", rules}}}}},
                             {"invocations", json::array({invocation})},
                             {"results", results}}})}};
  if (!source_root.empty()) {
    json &run = sarif["runs"][0];
    anchorAtRoot(run["results"]);
    anchorAtRoot(run["invocations"]);
    run["originalUriBaseIds"] = {
        {"SRCROOT", {{"uri", "file://" + source_root + "/"}}}};
  }
  return sarif.dump(2) + "\n";
}

} // namespace gpurace::analyzer
