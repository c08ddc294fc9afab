// `gpurace races`: list (and gate on) races, show one, review one.
#include "proto/JsonCodec.h"
#include "server/HttpQuery.h"
#include "server/cli/Commands.h"

#include <iostream>
#include <memory>

namespace gpurace {

namespace {

struct RacesFlags {
  ClientOptions client;
  v1::RaceFilter filter;
  std::string status, race_class, review, detection;
  std::string new_since;
  std::string order_by = "-score";
  uint32_t limit = 1000;
  std::string format = "text";
  int64_t id = 0;
  std::string state, comment, author;
};

// Fills the filter's enum lists from the comma-separated flags, with the
// same names the HTTP API takes.
Status parseFilterLists(RacesFlags &flags) {
  QueryParams params;
  for (auto [key, value] : {std::pair{"status", &flags.status},
                            {"class", &flags.race_class},
                            {"review", &flags.review},
                            {"detection", &flags.detection}})
    if (!value->empty())
      params.emplace(key, *value);
  auto request = listRacesRequest(params);
  if (!request.ok())
    return Status::invalid("--" + request.status().message);
  v1::RaceFilter &f = flags.filter;
  *f.mutable_statuses() = request->filter().statuses();
  *f.mutable_classes() = request->filter().classes();
  *f.mutable_review_states() = request->filter().review_states();
  *f.mutable_detection_states() = request->filter().detection_states();
  // A run id names a run; anything else is a commit (or its prefix).
  if (flags.new_since.rfind("run-", 0) == 0)
    f.set_new_since_run(flags.new_since);
  else
    f.set_new_since_commit(flags.new_since);
  return {};
}

std::string enumShort(const google::protobuf::EnumDescriptor *type, int value) {
  const auto *v = type->FindValueByNumber(value);
  return v ? shortEnumName(*v) : "?";
}

std::string site(const v1::AccessSite &s) {
  return s.location().file() + ":" + std::to_string(s.location().line());
}

void printRace(const v1::Race &race) {
  const v1::RaceCandidate &c = race.candidate();
  std::cout << "#" << race.id() << " "
            << enumShort(v1::RaceStatus_descriptor(), race.status()) << " "
            << enumShort(v1::RaceClass_descriptor(), c.race_class()) << " "
            << enumShort(v1::DetectionState_descriptor(),
                         race.detection_state())
            << " "
            << enumShort(v1::ReviewState_descriptor(), race.review().state())
            << " score " << c.score() << " " << site(c.first()) << " <-> "
            << site(c.second()) << " " << c.kernel() << ": " << c.message()
            << "\n";
}

int list(RacesFlags &flags) {
  if (Status s = parseFilterLists(flags); !s.ok())
    return reportError("races", s);
  applyClientEnvironment(flags.client);
  RaceClient client(flags.client);
  v1::ListRacesRequest request;
  *request.mutable_filter() = flags.filter;
  request.set_order_by(flags.order_by);
  request.set_page_size(std::min<uint32_t>(flags.limit, 500));
  v1::ListRacesResponse all;
  // Gating must see every race, so pages are followed up to --limit.
  while (static_cast<uint32_t>(all.races_size()) < flags.limit) {
    auto page = client.listRaces(request);
    if (!page.ok())
      return reportError("races", page.status());
    all.set_total_count(page->total_count());
    all.set_total_count_is_lower_bound(page->total_count_is_lower_bound());
    for (auto &race : *page->mutable_races())
      if (static_cast<uint32_t>(all.races_size()) < flags.limit)
        *all.add_races() = std::move(race);
    if (page->next_page_token().empty())
      break;
    request.set_page_token(page->next_page_token());
  }
  if (flags.format == "json") {
    std::cout << toJson(all) << "\n";
  } else {
    for (const auto &race : all.races())
      printRace(race);
    std::cout << (all.total_count_is_lower_bound() ? "at least " : "")
              << all.total_count() << " race"
              << (all.total_count() == 1 ? "" : "s")
              << (flags.new_since.empty() ? "" : " new since " + flags.new_since)
              << "\n";
  }
  bool gating = !flags.new_since.empty();
  return gating && all.total_count() > 0 ? kExitFindings : kExitOk;
}

int show(RacesFlags &flags) {
  applyClientEnvironment(flags.client);
  RaceClient client(flags.client);
  v1::GetRaceRequest request;
  request.set_id(flags.id);
  auto race = client.getRace(request);
  if (!race.ok())
    return reportError("races show", race.status());
  std::cout << toJson(race.value()) << "\n";
  return kExitOk;
}

int review(RacesFlags &flags) {
  int state = parseEnumName(*v1::ReviewState_descriptor(), flags.state);
  if (state < 0)
    return reportError("races review",
                       Status::invalid("--state: unknown review state '" +
                                       flags.state +
                                       "' (expected unreviewed, confirmed, "
                                       "false-positive or intentional)"));
  applyClientEnvironment(flags.client);
  RaceClient client(flags.client);
  v1::SetReviewRequest request;
  request.set_race_id(flags.id);
  request.set_state(static_cast<v1::ReviewState>(state));
  request.set_comment(flags.comment);
  request.set_author(flags.author.empty() && std::getenv("USER")
                         ? std::getenv("USER")
                         : flags.author);
  auto race = client.setReview(request);
  if (!race.ok())
    return reportError("races review", race.status());
  printRace(race.value());
  return kExitOk;
}

void addListFlags(CLI::App &app, RacesFlags &flags) {
  v1::RaceFilter &f = flags.filter;
  app.add_option_function<std::string>(
      "--project", [&f](const std::string &v) { f.set_project(v); }, "project");
  app.add_option_function<std::string>(
      "--branch", [&f](const std::string &v) { f.set_branch(v); },
      "branch (detection states are per branch)");
  app.add_option("--status", flags.status, "potential,confirmed");
  app.add_option("--class", flags.race_class,
                 "intra-warp,intra-block,inter-block,scoped,barrier-divergence");
  app.add_option("--review", flags.review,
                 "unreviewed,confirmed,false-positive,intentional");
  app.add_option("--detection", flags.detection,
                 "new,unresolved,resolved,reopened");
  app.add_option_function<std::string>(
      "--kernel", [&f](const std::string &v) { f.set_kernel(v); }, "kernel");
  app.add_option_function<std::string>(
      "--file", [&f](const std::string &v) { f.set_file(v); },
      "substring of either site's file");
  app.add_option("--new-since", flags.new_since,
                 "baseline commit (or prefix) or run id (run-N): list the "
                 "open races absent from it, exit 2 if any");
  app.add_option("--order-by", flags.order_by,
                 "score, last_seen, first_seen or occurrences; '-' for "
                 "descending (default: -score)");
  app.add_option("--limit", flags.limit, "at most this many races (1000)");
  app.add_option("--format", flags.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
}

} // namespace

Subcommand racesCommand() {
  Subcommand command;
  command.name = "races";
  command.summary = "List and triage the races a server holds";
  command.setup = [](CLI::App &app, const CommandContext &) {
    auto flags = std::make_shared<RacesFlags>();
    addClientFlags(app, flags->client);
    addListFlags(app, *flags);
    CLI::App *show_app = app.add_subcommand("show", "Print one race as JSON");
    show_app->add_option("ID", flags->id, "race id")->required();
    show_app->fallthrough();
    CLI::App *review_app =
        app.add_subcommand("review", "Set the review state of a race");
    review_app->add_option("ID", flags->id, "race id")->required();
    review_app
        ->add_option("--state", flags->state,
                     "unreviewed, confirmed, false-positive or intentional")
        ->required();
    review_app->add_option("--comment", flags->comment, "why");
    review_app->add_option("--author", flags->author, "who (default: $USER)");
    review_app->fallthrough();
    useActionUsage(app);
    app.require_subcommand(0, 1);
    app.footer("Exit codes: 0 success; 2 with --new-since when any race is "
               "new; 1 error.");
    return [flags, show_app, review_app]() {
      if (show_app->parsed())
        return show(*flags);
      if (review_app->parsed())
        return review(*flags);
      return list(*flags);
    };
  };
  return command;
}

} // namespace gpurace
