#include "server/HttpQuery.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace gpurace {

using google::protobuf::EnumDescriptor;
using google::protobuf::EnumValueDescriptor;

std::string shortEnumName(const EnumValueDescriptor &value) {
  // The prefix is the enum's own name in upper snake case, which every
  // gpurace enum value starts with.
  const std::string &full = value.name();
  std::string prefix;
  for (char c : value.type()->name()) {
    if (std::isupper(static_cast<unsigned char>(c)) && !prefix.empty())
      prefix += '_';
    prefix += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  prefix += '_';
  std::string rest = full.compare(0, prefix.size(), prefix) == 0
                         ? full.substr(prefix.size())
                         : full;
  std::transform(rest.begin(), rest.end(), rest.begin(), [](char c) {
    return c == '_' ? '-' : static_cast<char>(std::tolower(c));
  });
  return rest;
}

int parseEnumName(const EnumDescriptor &type, const std::string &name) {
  for (int i = 0; i < type.value_count(); ++i) {
    const EnumValueDescriptor *v = type.value(i);
    if (v->number() == 0)
      continue;
    if (name == v->name() || name == shortEnumName(*v))
      return v->number();
  }
  return -1;
}

namespace {

std::string expectedNames(const EnumDescriptor &type) {
  std::string out;
  for (int i = 1; i < type.value_count(); ++i)
    out += (i > 1 ? ", " : "") + shortEnumName(*type.value(i));
  return out;
}

// Splits "a,b" and repeated parameters into enum values.
Status parseEnumList(const QueryParams &params, const std::string &key,
                     const EnumDescriptor &type,
                     google::protobuf::RepeatedField<int> &out) {
  auto range = params.equal_range(key);
  for (auto it = range.first; it != range.second; ++it) {
    std::stringstream items(it->second);
    std::string item;
    while (std::getline(items, item, ',')) {
      if (item.empty())
        continue;
      int value = parseEnumName(type, item);
      if (value < 0)
        return Status::invalid(key + ": unknown value '" + item +
                               "' (expected " + expectedNames(type) + ")");
      out.Add(value);
    }
  }
  return {};
}

std::string single(const QueryParams &params, const std::string &key) {
  auto found = params.find(key);
  return found == params.end() ? std::string() : found->second;
}

Status parseCount(const QueryParams &params, const std::string &key,
                  uint32_t &out) {
  std::string text = single(params, key);
  if (text.empty())
    return {};
  if (text.size() > 9 ||
      !std::all_of(text.begin(), text.end(),
                   [](char c) { return c >= '0' && c <= '9'; }))
    return Status::invalid(key + ": expected a non-negative integer, got '" +
                           text.substr(0, 20) + "'");
  out = static_cast<uint32_t>(std::stoul(text));
  return {};
}

Status checkKnown(const QueryParams &params,
                  const std::set<std::string> &known) {
  for (const auto &entry : params)
    if (!known.count(entry.first))
      return Status::invalid("unknown query parameter '" +
                             entry.first.substr(0, 40) + "'");
  return {};
}

} // namespace

Result<v1::ListRacesRequest> listRacesRequest(const QueryParams &params) {
  if (Status s = checkKnown(params, {"project", "branch", "status", "class",
                                     "kernel", "file", "review", "detection",
                                     "new_since_commit", "new_since_run",
                                     "order_by", "page_size", "page_token"});
      !s.ok())
    return s;
  v1::ListRacesRequest r;
  v1::RaceFilter &f = *r.mutable_filter();
  f.set_project(single(params, "project"));
  f.set_branch(single(params, "branch"));
  f.set_kernel(single(params, "kernel"));
  f.set_file(single(params, "file"));
  f.set_new_since_commit(single(params, "new_since_commit"));
  f.set_new_since_run(single(params, "new_since_run"));
  r.set_order_by(single(params, "order_by"));
  r.set_page_token(single(params, "page_token"));
  uint32_t page_size = 0;
  for (Status s :
       {parseEnumList(params, "status", *v1::RaceStatus_descriptor(),
                      *f.mutable_statuses()),
        parseEnumList(params, "class", *v1::RaceClass_descriptor(),
                      *f.mutable_classes()),
        parseEnumList(params, "review", *v1::ReviewState_descriptor(),
                      *f.mutable_review_states()),
        parseEnumList(params, "detection", *v1::DetectionState_descriptor(),
                      *f.mutable_detection_states()),
        parseCount(params, "page_size", page_size)})
    if (!s.ok())
      return s;
  r.set_page_size(page_size);
  return r;
}

Result<v1::ListRunsRequest> listRunsRequest(const QueryParams &params) {
  if (Status s = checkKnown(params,
                            {"project", "branch", "page_size", "page_token"});
      !s.ok())
    return s;
  v1::ListRunsRequest r;
  r.set_project(single(params, "project"));
  r.set_branch(single(params, "branch"));
  r.set_page_token(single(params, "page_token"));
  uint32_t page_size = 0;
  if (Status s = parseCount(params, "page_size", page_size); !s.ok())
    return s;
  r.set_page_size(page_size);
  return r;
}

Result<v1::GetSummaryRequest> summaryRequest(const QueryParams &params) {
  if (Status s = checkKnown(params, {"project", "branch"}); !s.ok())
    return s;
  v1::GetSummaryRequest r;
  r.set_project(single(params, "project"));
  r.set_branch(single(params, "branch"));
  return r;
}

Result<v1::GetTrendRequest> trendRequest(const QueryParams &params) {
  if (Status s = checkKnown(params, {"project", "branch", "max_points"});
      !s.ok())
    return s;
  v1::GetTrendRequest r;
  r.set_project(single(params, "project"));
  r.set_branch(single(params, "branch"));
  uint32_t points = 0;
  if (Status s = parseCount(params, "max_points", points); !s.ok())
    return s;
  r.set_max_points(points);
  return r;
}

Result<v1::GetRunRequest> getRunRequest(const std::string &run_id, const QueryParams &params) {
  if (Status s = checkKnown(params, {"perf_kind"}); !s.ok())
    return s;
  v1::GetRunRequest r;
  r.set_run_id(run_id);
  std::string kind = single(params, "perf_kind");
  if (!kind.empty()) {
    int value = parseEnumName(*v1::PerfKind_descriptor(), kind);
    if (value <= 0)
      return Status::invalid("perf_kind: unknown value '" + kind + "' (expected " +
                             expectedNames(*v1::PerfKind_descriptor()) + ")");
    r.set_perf_kind(static_cast<v1::PerfKind>(value));
  }
  return r;
}

} // namespace gpurace
