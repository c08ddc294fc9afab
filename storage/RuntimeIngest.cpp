//===- RuntimeIngest.cpp - a batch of runtime reports, table by table -----===//
//
// A runtime stream is stored a batch of reports at a time, in one
// transaction. Report by report that was a dozen statements per report,
// each a round trip to PostgreSQL and a statement to plan; here each table
// is read and written once for the whole batch (in chunks of
// kRowsPerStatement rows), with the outcome the reports would have had one
// after the other: confirmations and branch states follow the reports'
// order, and the second report of an upload id is a duplicate of the first.
//
//===----------------------------------------------------------------------===//
#include "storage/Ingest.h"

#include "storage/RaceRows.h"
#include "storage/RowBatches.h"

#include <map>
#include <set>
#include <utility>

namespace gpurace::storage {

using sql::Connection;

namespace {

// The candidate the server keeps for a race first seen at run time.
v1::RaceCandidate observedCandidate(const v1::ObservedRace &observed,
                                    const v1::KernelLaunch &launch) {
  v1::RaceCandidate c;
  c.set_fingerprint(observed.fingerprint());
  c.set_kernel(launch.kernel());
  *c.mutable_first() = observed.first();
  *c.mutable_second() = observed.second();
  c.set_race_class(observed.race_class());
  c.set_defect(observed.defect());
  c.set_status(v1::RACE_STATUS_CONFIRMED);
  c.set_score(1.0);
  *c.mutable_witness() = observed.witness();
  c.set_message("data race observed at run time in kernel '" + launch.kernel() +
                "'");
  return c;
}

v1::Occurrence runtimeOccurrence(const v1::ReportRuntimeRequest &request,
                                 const v1::ObservedRace &observed, int64_t run,
                                 int64_t now) {
  v1::Occurrence o;
  o.set_run_id(publicRunId(run));
  o.set_commit(request.metadata().commit());
  o.set_branch(request.metadata().branch());
  const v1::RuntimeReport &report = request.report();
  int64_t seen_at = report.has_observed_at()
                        ? report.observed_at().seconds() * 1000000 +
                              report.observed_at().nanos() / 1000
                        : now;
  *o.mutable_first_seen() = toTimestamp(seen_at);
  *o.mutable_last_seen() = toTimestamp(seen_at);
  o.set_count(observed.count() ? observed.count() : 1);
  *o.mutable_device() = report.device();
  *o.mutable_grid_dim() = report.launch().grid_dim();
  *o.mutable_block_dim() = report.launch().block_dim();
  *o.mutable_witness() = observed.witness();
  o.set_source("runtime");
  return o;
}

// A report of the batch that is stored (not a duplicate).
struct Fresh {
  size_t index = 0; // in the batch
  int64_t project = 0;
  std::vector<int64_t> race_of; // per observation
  // Its distinct races in the order first observed, and the state the run
  // records for each.
  std::vector<std::pair<int64_t, v1::DetectionState>> races;
  uint32_t added = 0;
  int64_t run = 0;
};

class Batch {
public:
  Batch(Connection &db,
        const std::vector<const v1::ReportRuntimeRequest *> &requests,
        int64_t now)
      : db_(db), requests_(requests), now_(now), results_(requests.size()) {}

  std::vector<RuntimeIngestResult> store() {
    findFresh();
    findOrCreateRaces();
    sight();
    insertRuns();
    writeRows();
    for (auto [duplicate, first] : repeats_)
      results_[duplicate].run_id = results_[first].run_id;
    return std::move(results_);
  }

private:
  const v1::ReportRuntimeRequest &request(const Fresh &f) const {
    return *requests_[f.index];
  }

  // Answers the reports stored before and the repeats of an upload id; the
  // rest are fresh, with their projects found or created.
  void findFresh() {
    std::vector<std::string> ids;
    for (const auto *r : requests_)
      ids.push_back(r->upload_id());
    std::map<std::string, std::string> stored = findUploads(db_, ids);
    std::map<std::string, size_t> first;
    std::map<std::string, int64_t> projects;
    for (size_t i = 0; i < requests_.size(); ++i) {
      const std::string &id = requests_[i]->upload_id();
      if (auto found = stored.find(id); found != stored.end()) {
        auto ack =
            parseBlob<v1::UploadAnalysisResponse>(found->second, "upload");
        results_[i].run_id = ack.run_id();
        results_[i].duplicate = true;
      } else if (auto earlier = first.find(id); earlier != first.end()) {
        results_[i].duplicate = true;
        repeats_.emplace_back(i, earlier->second);
      } else {
        first.emplace(id, i);
        const std::string &name = requests_[i]->metadata().project();
        auto project = projects.find(name);
        if (project == projects.end())
          project = projects.emplace(name, projectIdFor(db_, name)).first;
        Fresh fresh;
        fresh.index = i;
        fresh.project = project->second;
        fresh_.push_back(std::move(fresh));
      }
    }
  }

  // Every race of the fresh reports, found or created, each confirmed once.
  void findOrCreateRaces() {
    std::map<int64_t, std::set<std::string>> wanted;
    for (const Fresh &f : fresh_)
      for (const auto &o : request(f).report().races())
        wanted[f.project].insert(o.fingerprint());
    for (const auto &[project, fingerprints] : wanted)
      known_[project] =
          findRaces(db_, project, {fingerprints.begin(), fingerprints.end()});

    std::map<int64_t, std::vector<v1::RaceCandidate>> created;
    std::vector<int64_t> confirmed;
    for (const Fresh &f : fresh_) {
      auto &known = known_[f.project];
      RuntimeIngestResult &result = results_[f.index];
      for (const auto &o : request(f).report().races()) {
        auto race = known.find(o.fingerprint());
        if (race == known.end()) {
          created[f.project].push_back(
              observedCandidate(o, request(f).report().launch()));
          known.emplace(o.fingerprint(),
                        StoredRace{0, v1::RACE_STATUS_CONFIRMED});
          ++result.races_confirmed;
        } else if (race->second.status != v1::RACE_STATUS_CONFIRMED) {
          confirmed.push_back(race->second.id);
          race->second.status = v1::RACE_STATUS_CONFIRMED;
          ++result.races_confirmed;
        }
      }
    }
    confirmRaces(db_, confirmed);
    for (const auto &[project, candidates] : created) {
      std::vector<int64_t> ids = insertRaces(db_, project, candidates, now_);
      for (size_t i = 0; i < ids.size(); ++i) {
        known_[project][candidates[i].fingerprint()].id = ids[i];
        created_.insert(ids[i]);
      }
    }
  }

  // Each report's races on its branch, in the reports' order. A runtime
  // report is never a full analysis: it can add or reopen a race on its
  // branch, not resolve one.
  void sight() {
    std::map<std::string, std::set<int64_t>> asked;
    for (Fresh &f : fresh_) {
      std::set<int64_t> seen;
      for (const auto &o : request(f).report().races()) {
        int64_t race = known_[f.project].at(o.fingerprint()).id;
        f.race_of.push_back(race);
        if (seen.insert(race).second) {
          f.races.emplace_back(race, v1::DETECTION_STATE_UNSPECIFIED);
          asked[request(f).metadata().branch()].insert(race);
        }
      }
    }
    std::map<std::string, std::map<int64_t, v1::DetectionState>> states;
    for (const auto &[branch, races] : asked)
      states[branch] = branchStates(db_, branch, {races.begin(), races.end()});
    for (Fresh &f : fresh_) {
      const std::string &branch = request(f).metadata().branch();
      for (auto &[race, state] : f.races) {
        v1::DetectionState &now = states[branch][race];
        if (now == v1::DETECTION_STATE_UNSPECIFIED ||
            now == v1::DETECTION_STATE_RESOLVED) {
          now = afterSighting(now);
          changed_[branch].emplace_back(race, now);
          latest_[race] = now;
          ++f.added;
        }
        state = now;
      }
    }
  }

  void insertRuns() {
    std::vector<RuntimeRunRow> rows;
    for (const Fresh &f : fresh_)
      rows.push_back({f.project, &request(f).metadata(), f.added,
                      static_cast<uint32_t>(f.races.size())});
    std::vector<int64_t> ids = insertRuntimeRuns(db_, rows, now_);
    for (size_t i = 0; i < fresh_.size(); ++i) {
      fresh_[i].run = ids[i];
      RuntimeIngestResult &result = results_[fresh_[i].index];
      result.run_id = publicRunId(ids[i]);
      result.observations =
          static_cast<uint32_t>(request(fresh_[i]).report().races_size());
    }
  }

  void writeRows() {
    for (const auto &[branch, states] : changed_)
      setBranchStates(db_, branch, states);
    // A race this batch created was inserted as new, which is what its
    // sightings make it on every branch: its row needs no second write.
    std::vector<std::pair<int64_t, v1::DetectionState>> latest;
    for (const auto &[race, state] : latest_)
      if (!created_.count(race))
        latest.emplace_back(race, state);
    setLatestStates(db_, latest);
    std::vector<RunRaceRow> run_races;
    std::vector<OccurrenceRow> occurrences;
    std::vector<UploadRow> uploads;
    for (const Fresh &f : fresh_) {
      for (const auto &[race, state] : f.races)
        run_races.push_back({f.run, race, state});
      const auto &observed = request(f).report().races();
      for (int i = 0; i < observed.size(); ++i)
        occurrences.push_back(
            {f.race_of[i], f.run,
             runtimeOccurrence(request(f), observed[i], f.run, now_)});
      v1::UploadAnalysisResponse ack;
      ack.set_run_id(publicRunId(f.run));
      uploads.push_back(
          {request(f).upload_id(), f.run, ack.SerializeAsString()});
    }
    recordRunRaces(db_, run_races);
    addOccurrences(db_, now_, occurrences);
    recordUploads(db_, uploads);
  }

  Connection &db_;
  const std::vector<const v1::ReportRuntimeRequest *> &requests_;
  int64_t now_;
  std::vector<RuntimeIngestResult> results_;
  std::vector<Fresh> fresh_;
  // (duplicate, first): reports repeating an upload id of the batch.
  std::vector<std::pair<size_t, size_t>> repeats_;
  // By project, the races of the fresh reports by fingerprint.
  std::map<int64_t, std::map<std::string, StoredRace>> known_;
  // The branch states the batch changes, by branch, and each changed
  // race's latest state.
  std::map<std::string, std::vector<std::pair<int64_t, v1::DetectionState>>>
      changed_;
  std::map<int64_t, v1::DetectionState> latest_;
  std::set<int64_t> created_;
};

} // namespace

std::vector<RuntimeIngestResult>
storeRuntimeReports(
    Connection &db,
    const std::vector<const v1::ReportRuntimeRequest *> &requests,
    int64_t now) {
  return Batch(db, requests, now).store();
}

} // namespace gpurace::storage
