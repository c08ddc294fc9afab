// Race list, one race, summary counts and a race's history.
#include "storage/Queries.h"

#include "storage/RaceRows.h"
#include "storage/SqlFilter.h"

#include <algorithm>

namespace gpurace::storage {

using sql::Connection;
using sql::Statement;
using sql::StatusError;

namespace {

std::vector<int64_t> enumValues(
    const google::protobuf::RepeatedField<int> &values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

// The run a "new since" filter compares against.
int64_t baselineRun(Connection &db, const v1::RaceFilter &filter) {
  if (!filter.new_since_run().empty()) {
    auto id = parseRunId(filter.new_since_run());
    Statement s = db.prepare("SELECT id FROM runs WHERE id = ?");
    if (!id || !s.bind(1, *id).step())
      throw StatusError(Status::notFound("filter.new_since_run: no run '" +
                                         filter.new_since_run() + "'"));
    return *id;
  }
  // The newest run of that commit (a prefix of the hash is enough) in the
  // project.
  Statement s = db.prepare(
      "SELECT u.id FROM runs u JOIN projects p ON p.id = u.project_id "
      "WHERE (? = '' OR p.name = ?) AND substr(u.commit_sha, 1, length(?)) = ? "
      "ORDER BY u.id DESC LIMIT 1");
  const std::string &commit = filter.new_since_commit();
  s.bind(1, filter.project()).bind(2, filter.project()).bind(3, commit).bind(
      4, commit);
  if (!s.step())
    throw StatusError(Status::notFound(
        "filter.new_since_commit: no run of commit '" + commit + "'"));
  return s.integer(0);
}

struct RaceQuery {
  std::string from;
  SqlFilter filter;
};

// FROM and WHERE for a race filter. With a branch, the detection state is
// the branch's; without one, the latest state on any branch.
RaceQuery raceQuery(Connection &db, const v1::RaceFilter &f) {
  RaceQuery q;
  q.from = " FROM races r";
  std::string state = "r.detection_state";
  if (!f.branch().empty()) {
    q.from += " JOIN race_branches b ON b.race_id = r.id";
    q.filter.add("b.branch = ?", {f.branch()});
    state = "b.state";
  }
  // By id, so that the project's sort index serves the query; ids start
  // at 1, so an unknown project matches nothing.
  if (!f.project().empty())
    q.filter.add("r.project_id = ?",
                 {findProjectId(db, f.project()).value_or(0)});
  q.filter.addIn("r.status", enumValues(f.statuses()));
  q.filter.addIn("r.race_class", enumValues(f.classes()));
  q.filter.addIn("r.review_state",
                 enumValues(f.review_states()));
  q.filter.addIn(state, enumValues(f.detection_states()));
  if (!f.kernel().empty())
    q.filter.add("r.kernel = ?", {f.kernel()});
  if (!f.file().empty())
    q.filter.add("(" + db.containsText("r.first_file", "?") + " OR " +
                     db.containsText("r.second_file", "?") + ")",
                 {f.file(), f.file()});
  if (!f.new_since_run().empty() || !f.new_since_commit().empty()) {
    // Like a diff of two runs: open now, seen after the baseline, absent
    // from it.
    int64_t base = baselineRun(db, f);
    q.filter.add(state + " != ?",
                 {static_cast<int64_t>(v1::DETECTION_STATE_RESOLVED)});
    q.filter.add("NOT EXISTS (SELECT 1 FROM run_races x WHERE x.race_id = r.id "
                 "AND x.run_id = ? AND x.state != ?)",
                 {base, static_cast<int64_t>(v1::DETECTION_STATE_RESOLVED)});
    q.filter.add("EXISTS (SELECT 1 FROM run_races x WHERE x.race_id = r.id "
                 "AND x.run_id > ? AND x.state != ?)",
                 {base, static_cast<int64_t>(v1::DETECTION_STATE_RESOLVED)});
  }
  return q;
}

struct Order {
  std::string column;
  bool descending = true;

  bool onCounters() const { return column.compare(0, 2, "c.") == 0; }
  // Ties are broken by the race id of the sorted table, so that its index
  // on (project, column DESC, id) gives the order by itself.
  std::string tieBreaker() const { return onCounters() ? "c.race_id" : "r.id"; }
  // ORDER BY `key`, then `id` for a stable page order.
  std::string clause(const std::string &key, const std::string &id) const {
    return " ORDER BY " + key + (descending ? " DESC" : " ASC") + ", " + id;
  }
};

Order parseOrder(const std::string &order_by) {
  std::string key = order_by.empty() ? "-score" : order_by;
  bool descending = key[0] == '-';
  if (descending)
    key = key.substr(1);
  std::string column;
  if (key == "score")
    column = "r.score";
  else if (key == "last_seen")
    column = "c.last_seen";
  else if (key == "first_seen")
    column = "r.first_seen";
  else if (key == "occurrences")
    column = "c.occurrence_count";
  else
    throw StatusError(Status::invalid(
        "order_by: unknown key '" + order_by +
        "' (expected score, last_seen, first_seen or occurrences, with an "
        "optional '-' for descending)"));
  return {column, descending};
}

std::string stateColumn(const v1::RaceFilter &f) {
  return f.branch().empty() ? "r.detection_state" : "b.state";
}

// Counts the races `q` matches, at most `limit` of them: a count of the
// whole filter read every matching row on every page. `limit` exceeds the
// page's last row, so that the count alone tells whether a next page
// exists.
void countRaces(Connection &db, const RaceQuery &q, int64_t limit,
                v1::ListRacesResponse &response) {
  Statement count = db.prepare("SELECT COUNT(*) FROM (SELECT 1" + q.from +
                               q.filter.where() + " LIMIT ?) AS matched");
  int next = q.filter.bind(count);
  count.bind(next, limit);
  count.step();
  int64_t total = count.integer(0);
  response.set_total_count(static_cast<uint64_t>(total));
  response.set_total_count_is_lower_bound(total >= limit);
}

void addOccurrences(Connection &db, v1::Race &race) {
  Statement s = db.prepare("SELECT detail FROM occurrences WHERE race_id = ? "
                           "ORDER BY id DESC LIMIT ?");
  s.bind(1, race.id()).bind(2, static_cast<int64_t>(kOccurrencesPerRace));
  while (s.step())
    *race.add_occurrences() = parseBlob<v1::Occurrence>(s.blob(0), "occurrence");
}

} // namespace

v1::ListRacesResponse listRaces(Connection &db,
                                const v1::ListRacesRequest &request,
                                const PageLimits &limits) {
  uint32_t size = pageSize(request.page_size(), limits);
  int64_t offset = pageOffset(request.page_token());
  RaceQuery q = raceQuery(db, request.filter());

  v1::ListRacesResponse response;
  countRaces(db, q, offset + std::max<int64_t>(size + 1, limits.count_limit),
             response);

  // The page's ids are chosen first, from the race rows and at most the
  // counters (an index walk for the score and last_seen); the
  // candidates and the rest are read for the page's rows only, not for
  // every row sorted or skipped.
  Order order = parseOrder(request.order_by());
  std::string page =
      "SELECT r.id AS id, " + stateColumn(request.filter()) + " AS state, " +
      order.column + " AS sort_key" + q.from +
      (order.onCounters() ? " JOIN race_counters c ON c.race_id = r.id AND "
                            "c.project_id = r.project_id"
                          : "") +
      q.filter.where() + order.clause(order.column, order.tieBreaker()) +
      " LIMIT ? OFFSET ?";
  Statement rows = db.prepare(std::string("SELECT ") + kRaceColumns +
                              ", page.state FROM (" + page + ") AS page, " +
                              kRaceTables + " WHERE r.id = page.id" +
                              order.clause("page.sort_key", "page.id"));
  int next = q.filter.bind(rows);
  rows.bind(next, static_cast<int64_t>(size)).bind(next + 1, offset);
  while (rows.step()) {
    v1::Race race = readRace(rows);
    race.set_detection_state(static_cast<v1::DetectionState>(rows.integer(13)));
    *response.add_races() = std::move(race);
  }
  response.set_next_page_token(nextPageToken(
      offset, response.races_size(), size,
      static_cast<int64_t>(response.total_count())));
  return response;
}

v1::Race getRace(Connection &db, const v1::GetRaceRequest &request) {
  std::string sql =
      std::string("SELECT ") + kRaceColumns + " FROM " + kRaceTables + " ";
  std::optional<Statement> s;
  if (request.id() != 0) {
    s.emplace(db.prepare(sql + "WHERE r.id = ?"));
    s->bind(1, request.id());
  } else if (!request.fingerprint().empty()) {
    s.emplace(db.prepare(sql + "WHERE p.name = ? AND r.fingerprint = ?"));
    s->bind(1, request.project()).bind(2, request.fingerprint());
  } else {
    throw StatusError(Status::invalid("id: required (or project and fingerprint)"));
  }
  if (!s->step())
    throw StatusError(Status::notFound(
        request.id() ? "race " + std::to_string(request.id()) + " not found"
                     : "race '" + request.fingerprint() + "' not found"));
  v1::Race race = readRace(*s);
  s.reset();
  addOccurrences(db, race);
  return race;
}

namespace {

template <typename NameOf>
void countBy(Connection &db, const RaceQuery &q, const std::string &column,
             google::protobuf::Map<std::string, uint32_t> &out, NameOf nameOf) {
  Statement s = db.prepare("SELECT " + column + ", COUNT(*)" + q.from +
                           q.filter.where() + " GROUP BY " + column);
  q.filter.bind(s);
  while (s.step())
    out[nameOf(static_cast<int>(s.integer(0)))] =
        static_cast<uint32_t>(s.integer(1));
}

} // namespace

v1::Summary getSummary(Connection &db, const v1::GetSummaryRequest &request) {
  v1::RaceFilter filter;
  filter.set_project(request.project());
  filter.set_branch(request.branch());
  RaceQuery q = raceQuery(db, filter);
  v1::Summary summary;
  summary.set_project(request.project());
  summary.set_branch(request.branch());
  countBy(db, q, "r.status", *summary.mutable_by_status(),
          [](int v) { return v1::RaceStatus_Name(v); });
  countBy(db, q, "r.race_class", *summary.mutable_by_class(),
          [](int v) { return v1::RaceClass_Name(v); });
  countBy(db, q, "r.review_state", *summary.mutable_by_review(),
          [](int v) { return v1::ReviewState_Name(v); });
  countBy(db, q, stateColumn(filter), *summary.mutable_by_detection(),
          [](int v) { return v1::DetectionState_Name(v); });
  uint32_t total = 0;
  for (const auto &entry : summary.by_status())
    total += entry.second;
  summary.set_total(total);
  return summary;
}

v1::GetRaceHistoryResponse
getRaceHistory(Connection &db, const v1::GetRaceHistoryRequest &request) {
  v1::GetRaceRequest which;
  which.set_id(request.id());
  getRace(db, which); // NOT_FOUND for an unknown race.
  v1::GetRaceHistoryResponse response;
  Statement s = db.prepare(std::string("SELECT ") + kRunColumns +
                           ", x.state FROM run_races x "
                           "JOIN runs u ON u.id = x.run_id "
                           "WHERE x.race_id = ? ORDER BY u.id");
  s.bind(1, request.id());
  while (s.step()) {
    v1::RaceHistoryEntry *entry = response.add_entries();
    *entry->mutable_run() = readRun(s);
    auto state = static_cast<v1::DetectionState>(s.integer(8));
    entry->set_detection_state(state);
    entry->set_present(state != v1::DETECTION_STATE_RESOLVED);
  }
  Statement reviews = db.prepare("SELECT state, comment, author, created_at "
                                 "FROM reviews WHERE race_id = ? ORDER BY id");
  reviews.bind(1, request.id());
  while (reviews.step()) {
    v1::Review *review = response.add_reviews();
    review->set_state(static_cast<v1::ReviewState>(reviews.integer(0)));
    review->set_comment(reviews.text(1));
    review->set_author(reviews.text(2));
    *review->mutable_updated_at() = toTimestamp(reviews.integer(3));
  }
  return response;
}

} // namespace gpurace::storage
