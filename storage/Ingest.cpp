#include "storage/Ingest.h"

#include "storage/RaceRows.h"
#include "storage/RowBatches.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpurace::storage {

using sql::Connection;
using sql::Statement;

v1::DetectionState afterSighting(v1::DetectionState before) {
  switch (before) {
  case v1::DETECTION_STATE_UNSPECIFIED:
    return v1::DETECTION_STATE_NEW;
  case v1::DETECTION_STATE_RESOLVED:
    return v1::DETECTION_STATE_REOPENED;
  default:
    return v1::DETECTION_STATE_UNRESOLVED;
  }
}

namespace {

v1::Occurrence analysisOccurrence(const v1::RunMetadata &metadata,
                                  const v1::RaceCandidate &candidate,
                                  int64_t run, int64_t now) {
  v1::Occurrence o;
  o.set_run_id(publicRunId(run));
  o.set_commit(metadata.commit());
  o.set_branch(metadata.branch());
  *o.mutable_first_seen() = toTimestamp(now);
  *o.mutable_last_seen() = toTimestamp(now);
  o.set_count(1);
  const v1::Witness &w = candidate.witness();
  *o.mutable_grid_dim() = w.has_grid_dim() ? w.grid_dim()
                                           : candidate.launch_site().grid_dim();
  *o.mutable_block_dim() = w.has_block_dim()
                               ? w.block_dim()
                               : candidate.launch_site().block_dim();
  *o.mutable_witness() = w;
  o.set_source("analysis");
  return o;
}

struct Tally {
  uint32_t added = 0, reopened = 0, unresolved = 0;
};

// The analysis's findings, potential races until a run confirms them:
// below-threshold candidates are not findings, and two launch sites of one
// race are one sighting, the first.
std::vector<v1::RaceCandidate> findings(const v1::AnalysisResult &result) {
  std::set<std::string> fingerprints;
  std::vector<v1::RaceCandidate> out;
  for (const v1::RaceCandidate &candidate : result.candidates())
    if (!candidate.below_threshold() &&
        fingerprints.insert(candidate.fingerprint()).second) {
      out.push_back(candidate);
      out.back().set_status(v1::RACE_STATUS_POTENTIAL);
    }
  return out;
}

// The findings' races, updated or created; their ids in order.
std::vector<int64_t> storeRaces(Connection &db, int64_t project,
                                std::vector<v1::RaceCandidate> &found,
                                int64_t now) {
  std::vector<std::string> fingerprints;
  for (const v1::RaceCandidate &candidate : found)
    fingerprints.push_back(candidate.fingerprint());
  std::map<std::string, StoredRace> stored =
      findRaces(db, project, fingerprints);
  std::vector<std::pair<int64_t, v1::RaceCandidate>> updated;
  std::vector<v1::RaceCandidate> created;
  std::map<std::string, int64_t> ids;
  for (v1::RaceCandidate &candidate : found) {
    auto existing = stored.find(candidate.fingerprint());
    if (existing == stored.end()) {
      created.push_back(candidate);
      continue;
    }
    // The latest analysis explains the race best; a confirmation stays.
    candidate.set_status(existing->second.status);
    updated.emplace_back(existing->second.id, candidate);
    ids[candidate.fingerprint()] = existing->second.id;
  }
  updateRaceCandidates(db, updated);
  std::vector<int64_t> created_ids = insertRaces(db, project, created, now);
  for (size_t i = 0; i < created.size(); ++i)
    ids[created[i].fingerprint()] = created_ids[i];
  std::vector<int64_t> races;
  for (const v1::RaceCandidate &candidate : found)
    races.push_back(ids.at(candidate.fingerprint()));
  return races;
}

// Records that the analysis run saw its findings; returns their races.
std::set<int64_t> sightRaces(Connection &db, int64_t project, int64_t run,
                             const v1::UploadAnalysisRequest &request,
                             int64_t now, Tally &tally) {
  std::vector<v1::RaceCandidate> found = findings(request.result());
  std::vector<int64_t> races = storeRaces(db, project, found, now);
  const std::string &branch = request.metadata().branch();
  std::map<int64_t, v1::DetectionState> before =
      branchStates(db, branch, races);
  std::vector<std::pair<int64_t, v1::DetectionState>> states;
  std::vector<RunRaceRow> run_races;
  std::vector<OccurrenceRow> occurrences;
  for (size_t i = 0; i < races.size(); ++i) {
    auto known = before.find(races[i]);
    v1::DetectionState next =
        afterSighting(known == before.end() ? v1::DETECTION_STATE_UNSPECIFIED
                                            : known->second);
    states.emplace_back(races[i], next);
    run_races.push_back({run, races[i], next});
    occurrences.push_back(
        {races[i], run,
         analysisOccurrence(request.metadata(), found[i], run, now)});
    if (next == v1::DETECTION_STATE_NEW)
      ++tally.added;
    else if (next == v1::DETECTION_STATE_REOPENED)
      ++tally.reopened;
    else
      ++tally.unresolved;
  }
  setBranchStates(db, branch, states);
  setLatestStates(db, states);
  recordRunRaces(db, run_races);
  addOccurrences(db, now, occurrences);
  return {races.begin(), races.end()};
}

// A full analysis resolves every race of its branch that it did not find.
uint32_t resolveAbsent(Connection &db, int64_t project, int64_t run,
                       const std::string &branch,
                       const std::set<int64_t> &seen) {
  std::vector<std::pair<int64_t, v1::DetectionState>> resolved;
  std::vector<RunRaceRow> run_races;
  Statement s = db.prepare(
      "SELECT b.race_id FROM race_branches b JOIN races r ON r.id = b.race_id "
      "WHERE r.project_id = ? AND b.branch = ? AND b.state != ?");
  s.bind(1, project).bind(2, branch).bind(
      3, static_cast<int64_t>(v1::DETECTION_STATE_RESOLVED));
  while (s.step())
    if (!seen.count(s.integer(0))) {
      resolved.emplace_back(s.integer(0), v1::DETECTION_STATE_RESOLVED);
      run_races.push_back({run, s.integer(0), v1::DETECTION_STATE_RESOLVED});
    }
  setBranchStates(db, branch, resolved);
  setLatestStates(db, resolved);
  recordRunRaces(db, run_races);
  return static_cast<uint32_t>(resolved.size());
}

// The run's perf findings, each fingerprint once. Proofs are left out: a
// run states what costs, not every access that does not.
void storePerfFindings(Connection &db, int64_t run, const v1::AnalysisResult &result) {
  std::set<std::string> stored;
  for (const v1::PerfFinding &finding : result.perf_findings()) {
    if (finding.proved() || !stored.insert(finding.fingerprint()).second)
      continue;
    double ratio = finding.best() ? double(finding.cost()) / finding.best() : finding.cost();
    db.prepare("INSERT INTO run_perf_findings (run_id, fingerprint, kind, ratio, finding) "
               "VALUES (?, ?, ?, ?, ?)")
        .bind(1, run)
        .bind(2, finding.fingerprint())
        .bind(3, static_cast<int64_t>(finding.kind()))
        .bind(4, ratio)
        .bindBlob(5, finding.SerializeAsString())
        .run();
  }
}

} // namespace

v1::UploadAnalysisResponse
storeAnalysis(Connection &db, const v1::UploadAnalysisRequest &request,
              int64_t now) {
  if (!request.upload_id().empty())
    if (auto stored = findUpload(db, request.upload_id())) {
      auto response = parseBlob<v1::UploadAnalysisResponse>(*stored, "upload");
      response.set_duplicate(true);
      return response;
    }
  int64_t project = projectIdFor(db, request.metadata().project());
  int64_t run =
      insertRun(db, project, "analysis", request.metadata(),
                request.full_analysis(), request.result().tool_version(), now);
  Tally tally;
  std::set<int64_t> seen = sightRaces(db, project, run, request, now, tally);
  storePerfFindings(db, run, request.result());
  uint32_t resolved = 0;
  if (request.full_analysis())
    resolved = resolveAbsent(db, project, run, request.metadata().branch(), seen);
  setRunCounts(db, run, tally.added + tally.reopened, resolved,
               static_cast<uint32_t>(seen.size()));

  v1::UploadAnalysisResponse response;
  response.set_run_id(publicRunId(run));
  response.set_races_new(tally.added);
  response.set_races_reopened(tally.reopened);
  response.set_races_resolved(resolved);
  response.set_races_unresolved(tally.unresolved);
  if (!request.upload_id().empty())
    recordUpload(db, request.upload_id(), run, response.SerializeAsString());
  return response;
}

} // namespace gpurace::storage
