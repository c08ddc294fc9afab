//===- CorpusAnnotations.cpp - expected verdicts of a corpus file ---------===//
#include "bench/corpus/CorpusAnnotations.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace gpurace::corpus {

namespace {

// The annotations are exactly these comment shapes; anything else that
// starts like an annotation is reported rather than silently ignored.
const std::regex kCategory(R"(//\s*category:\s*([A-Za-z0-9_-]+)\s*$)");
const std::regex kExpect(R"(//\s*expect:\s*(\S+)\s*$)");
const std::regex kNeeds(R"(//\s*needs:\s*(\S+)\s*$)");
const std::regex kSource(R"(//\s*source:\s*(.*\S)\s*$)");
const std::regex kWith(R"(//\s*with:\s*(\S+)\s*$)");
const std::regex kRace(R"(//\s*expect-race\(([A-Za-z0-9_]+)\):\s*(\S+)\s*$)");
const std::regex kDivergence(R"(//\s*expect-divergence:\s*(\S+)\s*$)");
const std::regex kPerf(R"(//\s*expect-perf:\s*(.*\S)\s*$)");
const std::regex kFreeWhen(R"(^\s*(\S+)\s*=\s*(-?\d+)\s*$)");
const std::regex kPerfCost(R"(^\s*(banks)\s+(\d+)\s*$|^\s*(sectors)\s+(\d+)/(\d+)\s*$)");
const std::regex kAnyAnnotation(
    R"(//\s*(?:(?:category|expect|needs|source|expect-race|expect-divergence|expect-perf)\b|with:))");

struct Parser {
  const std::string &path;
  std::vector<AnnotationError> &errors;
  CorpusFile file;
  std::map<std::string, ExpectedRace> races;
  std::vector<std::string> race_order;

  void error(unsigned line, const std::string &message) {
    errors.push_back({path, line, message});
  }

  void parseLine(unsigned number, const std::string &line);
  void parseTopLevel(unsigned number, const std::string &comment);
  void addRace(unsigned number, const std::string &id,
               const std::string &class_name);
  void addPerf(unsigned number, const std::string &costs);
  void finish();
};

void Parser::parseLine(unsigned number, const std::string &line) {
  size_t slash = line.find("//");
  if (slash == std::string::npos)
    return;
  std::string comment = line.substr(slash);
  std::smatch match;
  if (!std::regex_search(comment, match, kAnyAnnotation) ||
      match.position(0) != 0)
    return;
  if (std::regex_match(comment, match, kRace))
    return addRace(number, match[1], match[2]);
  if (std::regex_match(comment, match, kPerf))
    return addPerf(number, match[1]);
  if (std::regex_match(comment, match, kDivergence)) {
    if (match[1] != "barrier-divergence")
      return error(number, "expect-divergence must name barrier-divergence, "
                           "not '" + match[1].str() + "'");
    file.divergences.push_back(number);
    return;
  }
  // Annotations other than the per-line ones stand on a line of their own.
  if (slash != line.find_first_not_of(" \t"))
    return error(number, "annotation must be on a line of its own: " + comment);
  parseTopLevel(number, comment);
}

void Parser::parseTopLevel(unsigned number, const std::string &comment) {
  std::smatch match;
  if (std::regex_match(comment, match, kCategory)) {
    if (!file.category.empty())
      return error(number, "second category annotation");
    file.category = match[1];
  } else if (std::regex_match(comment, match, kExpect)) {
    if (match[1] != "race-free")
      return error(number, "expect: must be 'race-free', not '" +
                               match[1].str() + "'");
    file.race_free = true;
  } else if (std::regex_match(comment, match, kNeeds)) {
    if (match[1] == "host-facts")
      file.needs_host_facts = true;
    else if (match[1] == "sync-semantics")
      file.needs_sync_semantics = true;
    else
      error(number, "needs: must be host-facts or sync-semantics, not '" +
                        match[1].str() + "'");
  } else if (std::regex_match(comment, match, kSource)) {
    file.source = match[1];
  } else if (std::regex_match(comment, match, kWith)) {
    std::filesystem::path companion =
        std::filesystem::path(file.path).parent_path() / match[1].str();
    if (!std::filesystem::is_regular_file(companion))
      return error(number, "with: no file '" + companion.string() + "'");
    file.companions.push_back(companion.string());
  } else {
    error(number, "malformed annotation: " + comment);
  }
}

void Parser::addRace(unsigned number, const std::string &id,
                     const std::string &class_name) {
  std::optional<v1::RaceClass> race_class = parseRaceClass(class_name);
  if (!race_class || *race_class == v1::RACE_CLASS_BARRIER_DIVERGENCE)
    return error(number, "expect-race(" + id + ") has invalid class '" +
                             class_name + "'");
  auto [it, inserted] = races.try_emplace(id);
  ExpectedRace &race = it->second;
  if (inserted) {
    race.id = id;
    race.race_class = *race_class;
    race_order.push_back(id);
  } else if (race.race_class != *race_class) {
    return error(number, "expect-race(" + id + ") names class '" +
                             class_name + "', another line of it a different one");
  }
  if (std::find(race.lines.begin(), race.lines.end(), number) !=
      race.lines.end())
    return error(number, "expect-race(" + id + ") twice on one line");
  race.lines.push_back(number);
}

void Parser::addPerf(unsigned number, const std::string &costs) {
  std::stringstream list(costs);
  for (std::string item; std::getline(list, item, ',');) {
    std::string free_when;
    if (size_t at = item.find("free-when"); at != std::string::npos) {
      std::smatch condition;
      std::string text = item.substr(at + std::string("free-when").size());
      if (!std::regex_match(text, condition, kFreeWhen))
        return error(number, "expect-perf: expected 'free-when NAME = V', got 'free-when" +
                                 text + "'");
      free_when = condition[1].str() + " = " + condition[2].str();
      item = item.substr(0, at);
    }
    std::smatch match;
    if (!std::regex_match(item, match, kPerfCost))
      return error(number, "expect-perf: expected 'banks N' or 'sectors N/B', got '" + item +
                               "'");
    ExpectedPerf perf;
    perf.line = number;
    bool banks = match[1].matched;
    perf.kind = banks ? v1::PERF_KIND_BANK_CONFLICT : v1::PERF_KIND_UNCOALESCED;
    perf.cost = std::stoul(banks ? match[2].str() : match[4].str());
    perf.best = banks ? 1 : std::stoul(match[5].str());
    perf.free_when = free_when;
    if (perf.cost == 0 || perf.best == 0 || perf.cost < perf.best)
      return error(number, "expect-perf: a cost is at least 1 and at least its best");
    for (const ExpectedPerf &other : file.perf)
      if (other.line == number && other.kind == perf.kind)
        return error(number, "expect-perf: two costs of one kind on one line");
    file.perf.push_back(perf);
  }
}

void Parser::finish() {
  for (const std::string &id : race_order) {
    ExpectedRace &race = races[id];
    if (race.lines.size() > 2)
      error(race.lines[2], "expect-race(" + id + ") on more than two lines");
    file.races.push_back(race);
  }
  if (file.category.empty())
    error(1, "missing '// category: NAME'");
  bool expects_findings = !file.races.empty() || !file.divergences.empty();
  if (file.race_free && expects_findings)
    error(1, "'expect: race-free' together with expect-race or "
             "expect-divergence annotations");
  if (!file.race_free && !expects_findings)
    error(1, "neither 'expect: race-free' nor any expect-race / "
             "expect-divergence annotation");
}

} // namespace

std::optional<v1::RaceClass> parseRaceClass(const std::string &name) {
  static const std::map<std::string, v1::RaceClass> classes = {
      {"intra-warp", v1::RACE_CLASS_INTRA_WARP},
      {"intra-block", v1::RACE_CLASS_INTRA_BLOCK},
      {"inter-block", v1::RACE_CLASS_INTER_BLOCK},
      {"scoped", v1::RACE_CLASS_SCOPED},
      {"barrier-divergence", v1::RACE_CLASS_BARRIER_DIVERGENCE}};
  auto it = classes.find(name);
  if (it == classes.end())
    return std::nullopt;
  return it->second;
}

CorpusFile parseAnnotations(const std::string &path, const std::string &text,
                            std::vector<AnnotationError> &errors) {
  Parser parser{path, errors, {}, {}, {}};
  parser.file.path = path;
  std::istringstream in(text);
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number)
    parser.parseLine(number, line);
  parser.finish();
  return parser.file;
}

CorpusFile loadCorpusFile(const std::string &path,
                          std::vector<AnnotationError> &errors) {
  std::ifstream in(path);
  if (!in) {
    errors.push_back({path, 0, "cannot read file"});
    CorpusFile file;
    file.path = path;
    return file;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parseAnnotations(path, text.str(), errors);
}

std::vector<std::string> findCorpusFiles(const std::string &root) {
  std::vector<std::string> files;
  for (const auto &entry :
       std::filesystem::recursive_directory_iterator(root)) {
    // Files under parts/ are the other translation units of a program,
    // analyzed with the file that names them in `// with:`.
    if (entry.is_regular_file() && entry.path().extension() == ".cu" &&
        entry.path().parent_path().filename() != "parts")
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace gpurace::corpus
