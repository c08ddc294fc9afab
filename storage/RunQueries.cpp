// Projects, runs, one run's changes, trends; and the paging they share with
// the race list.
#include "storage/Queries.h"

#include "storage/RaceRows.h"
#include "storage/SqlFilter.h"

namespace gpurace::storage {

using sql::Connection;
using sql::Statement;
using sql::StatusError;

uint32_t pageSize(uint32_t requested, const PageLimits &limits) {
  if (requested == 0)
    return limits.default_size;
  if (requested > limits.max_size)
    throw StatusError(Status::invalid("page_size: " + std::to_string(requested) +
                                      " is over the limit of " +
                                      std::to_string(limits.max_size)));
  return requested;
}

int64_t pageOffset(const std::string &token) {
  if (token.empty())
    return 0;
  int64_t offset = 0;
  bool valid = token.size() > 1 && token.size() < 19 && token[0] == 'o';
  for (size_t i = 1; valid && i < token.size(); ++i) {
    valid = token[i] >= '0' && token[i] <= '9';
    offset = offset * 10 + (token[i] - '0');
  }
  if (!valid)
    throw StatusError(Status::invalid("page_token: '" + token.substr(0, 40) +
                                      "' is not a token this server issued"));
  return offset;
}

std::string nextPageToken(int64_t offset, size_t returned, uint32_t size,
                          int64_t total) {
  int64_t next = offset + static_cast<int64_t>(returned);
  if (returned < size || next >= total)
    return std::string();
  return "o" + std::to_string(next);
}

v1::ListProjectsResponse listProjects(Connection &db) {
  v1::ListProjectsResponse response;
  Statement s = db.prepare("SELECT name FROM projects ORDER BY name");
  while (s.step())
    response.add_projects(s.text(0));
  return response;
}

namespace {

SqlFilter runFilter(const std::string &project, const std::string &branch) {
  SqlFilter f;
  if (!project.empty())
    f.add("p.name = ?", {project});
  if (!branch.empty())
    f.add("u.branch = ?", {branch});
  return f;
}

const char *const kRunsFrom =
    " FROM runs u JOIN projects p ON p.id = u.project_id";

} // namespace

v1::ListRunsResponse listRuns(Connection &db, const v1::ListRunsRequest &request,
                              const PageLimits &limits) {
  uint32_t size = pageSize(request.page_size(), limits);
  int64_t offset = pageOffset(request.page_token());
  SqlFilter f = runFilter(request.project(), request.branch());
  Statement count = db.prepare(std::string("SELECT COUNT(*)") + kRunsFrom +
                               f.where());
  f.bind(count);
  count.step();
  int64_t total = count.integer(0);

  Statement s = db.prepare(std::string("SELECT ") + kRunColumns + kRunsFrom +
                           f.where() + " ORDER BY u.id DESC LIMIT ? OFFSET ?");
  int next = f.bind(s);
  s.bind(next, static_cast<int64_t>(size)).bind(next + 1, offset);
  v1::ListRunsResponse response;
  while (s.step())
    *response.add_runs() = readRun(s);
  response.set_next_page_token(
      nextPageToken(offset, response.runs_size(), size, total));
  return response;
}

namespace {

// Races a run changed, capped: a run that resolves thousands of races is
// summarized by its counts.
constexpr int64_t kRacesPerRunDetail = 1000;

void addRunRaces(Connection &db, int64_t run, bool resolved,
                 google::protobuf::RepeatedPtrField<v1::Race> &out) {
  Statement s = db.prepare(
      std::string("SELECT ") + kRaceColumns +
      ", x.state FROM " + kRaceTables +
      " JOIN run_races x ON x.race_id = r.id WHERE x.run_id = ? AND "
      "CASE WHEN x.state = ? THEN 1 ELSE 0 END = ? AND x.state != ? ORDER BY r.score DESC, r.id LIMIT ?");
  s.bind(1, run)
      .bind(2, static_cast<int64_t>(v1::DETECTION_STATE_RESOLVED))
      .bind(3, static_cast<int64_t>(resolved))
      .bind(4, static_cast<int64_t>(v1::DETECTION_STATE_UNRESOLVED))
      .bind(5, kRacesPerRunDetail);
  while (s.step()) {
    v1::Race race = readRace(s);
    race.set_detection_state(static_cast<v1::DetectionState>(s.integer(13)));
    *out.Add() = std::move(race);
  }
}

void addRunPerfFindings(Connection &db, int64_t run, v1::PerfKind kind,
                        google::protobuf::RepeatedPtrField<v1::PerfFinding> &out) {
  Statement s = db.prepare("SELECT finding FROM run_perf_findings WHERE run_id = ? AND "
                           "(? = 0 OR kind = ?) ORDER BY ratio DESC, fingerprint LIMIT ?");
  s.bind(1, run)
      .bind(2, static_cast<int64_t>(kind))
      .bind(3, static_cast<int64_t>(kind))
      .bind(4, kRacesPerRunDetail);
  while (s.step())
    *out.Add() = parseBlob<v1::PerfFinding>(s.blob(0), "perf finding");
}

} // namespace

v1::RunDetail getRun(Connection &db, const v1::GetRunRequest &request) {
  auto id = parseRunId(request.run_id());
  Statement s = db.prepare(std::string("SELECT ") + kRunColumns + kRunsFrom +
                           " WHERE u.id = ?");
  if (!id || !s.bind(1, *id).step())
    throw StatusError(
        Status::notFound("run_id: no run '" + request.run_id() + "'"));
  v1::RunDetail detail;
  *detail.mutable_run() = readRun(s);
  addRunRaces(db, *id, false, *detail.mutable_races_added());
  addRunRaces(db, *id, true, *detail.mutable_races_resolved());
  addRunPerfFindings(db, *id, request.perf_kind(), *detail.mutable_perf_findings());
  return detail;
}

v1::GetTrendResponse getTrend(Connection &db, const v1::GetTrendRequest &request) {
  int64_t points = request.max_points() ? request.max_points() : 100;
  if (points > 1000)
    throw StatusError(Status::invalid("max_points: at most 1000"));
  SqlFilter f = runFilter(request.project(), request.branch());
  f.add("u.kind = ?", {std::string("analysis")});
  // The newest runs, returned oldest first for a chart.
  Statement s = db.prepare(
      "SELECT * FROM (SELECT u.id, u.commit_sha, u.uploaded_at, u.races_seen, "
      "u.races_added, u.races_resolved, "
      "(SELECT COUNT(*) FROM run_races x JOIN races r ON r.id = x.race_id "
      " WHERE x.run_id = u.id AND x.state != ? AND r.status = ?)" +
      std::string(kRunsFrom) + f.where() +
      " ORDER BY u.id DESC LIMIT ?) AS recent ORDER BY 1");
  s.bind(1, static_cast<int64_t>(v1::DETECTION_STATE_RESOLVED))
      .bind(2, static_cast<int64_t>(v1::RACE_STATUS_CONFIRMED));
  int next = f.bind(s, 3);
  s.bind(next, points);
  v1::GetTrendResponse response;
  while (s.step()) {
    v1::TrendPoint *p = response.add_points();
    p->set_run_id(publicRunId(s.integer(0)));
    p->set_commit(s.text(1));
    *p->mutable_time() = toTimestamp(s.integer(2));
    p->set_open(static_cast<uint32_t>(s.integer(3)));
    p->set_added(static_cast<uint32_t>(s.integer(4)));
    p->set_resolved(static_cast<uint32_t>(s.integer(5)));
    p->set_confirmed(static_cast<uint32_t>(s.integer(6)));
  }
  return response;
}

} // namespace gpurace::storage
