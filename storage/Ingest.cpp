#include "storage/Ingest.h"

#include "storage/RaceRows.h"
#include "storage/RowBatches.h"

#include <set>
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

// Records that the analysis run saw `candidate`; returns the race id.
int64_t sightRace(Connection &db, int64_t project, int64_t run,
                  const v1::UploadAnalysisRequest &request,
                  const v1::RaceCandidate &input, int64_t now, Tally &tally) {
  v1::RaceCandidate candidate = input;
  candidate.set_status(v1::RACE_STATUS_POTENTIAL);
  int64_t race;
  if (auto existing = findRace(db, project, candidate.fingerprint())) {
    race = existing->id;
    // The latest analysis explains the race best; a confirmation stays.
    candidate.set_status(existing->status);
    updateRaceCandidate(db, race, candidate);
  } else {
    race = insertRaces(db, project, {candidate}, now).front();
  }
  const std::string &branch = request.metadata().branch();
  v1::DetectionState next = afterSighting(branchState(db, race, branch));
  setBranchState(db, race, branch, next);
  recordRunRace(db, run, race, next);
  addOccurrence(db, race, run, now,
                analysisOccurrence(request.metadata(), candidate, run, now));
  if (next == v1::DETECTION_STATE_NEW)
    ++tally.added;
  else if (next == v1::DETECTION_STATE_REOPENED)
    ++tally.reopened;
  else
    ++tally.unresolved;
  return race;
}

// A full analysis resolves every race of its branch that it did not find.
uint32_t resolveAbsent(Connection &db, int64_t project, int64_t run,
                       const std::string &branch,
                       const std::set<int64_t> &seen) {
  std::vector<int64_t> open;
  Statement s = db.prepare(
      "SELECT b.race_id FROM race_branches b JOIN races r ON r.id = b.race_id "
      "WHERE r.project_id = ? AND b.branch = ? AND b.state != ?");
  s.bind(1, project).bind(2, branch).bind(
      3, static_cast<int64_t>(v1::DETECTION_STATE_RESOLVED));
  while (s.step())
    if (!seen.count(s.integer(0)))
      open.push_back(s.integer(0));
  for (int64_t race : open) {
    setBranchState(db, race, branch, v1::DETECTION_STATE_RESOLVED);
    recordRunRace(db, run, race, v1::DETECTION_STATE_RESOLVED);
  }
  return static_cast<uint32_t>(open.size());
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
  std::set<int64_t> seen;
  for (const v1::RaceCandidate &candidate : request.result().candidates()) {
    // Below-threshold candidates are not findings; two launch sites of one
    // race are one sighting.
    if (candidate.below_threshold())
      continue;
    auto existing = findRace(db, project, candidate.fingerprint());
    if (existing && seen.count(existing->id))
      continue;
    seen.insert(sightRace(db, project, run, request, candidate, now, tally));
  }
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
