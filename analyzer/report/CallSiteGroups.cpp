#include "analyzer/report/CallSiteGroups.h"

#include <map>
#include <tuple>

namespace gpurace::analyzer {

namespace {

using Position = std::tuple<std::string, unsigned, unsigned>;
using GroupKey = std::tuple<std::string, int, int, Position, Position>;

Position positionOf(const v1::AccessSite &site) {
  return {site.location().file(), site.location().line(), site.location().column()};
}

GroupKey keyOf(const v1::RaceCandidate &c) {
  return {c.kernel(), c.race_class(), c.defect(), positionOf(c.first()), positionOf(c.second())};
}

std::string fileName(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The outermost call on the way to the access: the line of the kernel's body
// that leads to it.
const v1::SourceLocation &entryOf(const v1::AccessSite &site) {
  return site.call_stack().empty() ? site.location() : site.call_stack(0).call_site();
}

} // namespace

std::vector<CallSiteGroup>
groupByCallSites(const google::protobuf::RepeatedPtrField<v1::RaceCandidate> &candidates,
                 const std::function<bool(const v1::RaceCandidate &)> &shown) {
  std::vector<CallSiteGroup> groups;
  std::map<GroupKey, size_t> group_of;
  for (int i = 0; i < candidates.size(); ++i) {
    if (!shown(candidates[i]))
      continue;
    auto [it, inserted] = group_of.emplace(keyOf(candidates[i]), groups.size());
    if (inserted)
      groups.emplace_back();
    groups[it->second].members.push_back(i);
  }
  return groups;
}

std::string callPairText(const v1::RaceCandidate &candidate) {
  auto text = [](const v1::SourceLocation &l) {
    return fileName(l.file()) + ":" + std::to_string(l.line());
  };
  return text(entryOf(candidate.first())) + " and " + text(entryOf(candidate.second()));
}

} // namespace gpurace::analyzer
