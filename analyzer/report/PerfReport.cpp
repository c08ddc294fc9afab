#include "analyzer/report/PerfReport.h"

#include "analyzer/report/Ranking.h"

#include <tuple>

namespace gpurace::analyzer {

namespace {

std::string lanesText(const v1::PerfFinding &finding) {
  std::string text;
  for (int i = 0; i < finding.lanes_size(); ++i) {
    if (i == 8 && finding.lanes_size() > 9) {
      text += ", ... " + std::to_string(finding.lanes(finding.lanes_size() - 1).lane());
      break;
    }
    text += (i ? ", " : "") + std::to_string(finding.lanes(i).lane());
  }
  return text;
}

// "; no conflict whenever 'pitch' = 33 (32 here)": each condition alone
// makes the access free, whatever the other launch values are.
std::string freeText(const v1::PerfFinding &f) {
  std::string text;
  for (const v1::FreeCondition &c : f.free_when()) {
    text += text.empty() ? (f.kind() == v1::PERF_KIND_BANK_CONFLICT ? "; no conflict whenever "
                                                                     : "; coalesced whenever ")
                         : ", or whenever ";
    text += "'" + c.name() + "' = " + std::to_string(c.equals()) + " (" +
            std::to_string(c.witness_value()) + " here)";
  }
  return text;
}

std::string messageOf(const v1::PerfFinding &f) {
  const std::string object = "'" + f.site().base_object() + "'";
  if (f.kind() == v1::PERF_KIND_BANK_CONFLICT) {
    if (f.proved())
      return "no bank conflict on " + object +
             ": no two lanes of a warp reach distinct words of one bank, in any launch the "
             "host facts allow";
    return std::to_string(f.cost()) + "-way bank conflict on " + object + ": lanes " +
           lanesText(f) + " of a warp access " + std::to_string(f.cost()) +
           " distinct words of bank " +
           std::to_string(f.lanes_size() ? f.lanes(0).unit() : 0) +
           ", so shared memory serves the access " + std::to_string(f.cost()) + " times" +
           freeText(f);
  }
  if (f.proved())
    return "coalesced access to " + object +
           ": neighbouring lanes access neighbouring elements, in any launch the host facts "
           "allow";
  return "uncoalesced access to " + object + ": a warp touches " + std::to_string(f.cost()) +
         " sectors of 32 bytes where " + std::to_string(f.best()) +
         " would do; neighbouring lanes are " + std::to_string(f.stride_bytes()) +
         " bytes apart" + freeText(f);
}

} // namespace

std::string perfKindName(v1::PerfKind kind) {
  switch (kind) {
  case v1::PERF_KIND_BANK_CONFLICT: return "bank-conflict";
  case v1::PERF_KIND_UNCOALESCED: return "uncoalesced";
  default: return "unknown";
  }
}

double costRatio(const v1::PerfFinding &finding) {
  return finding.best() ? double(finding.cost()) / finding.best() : double(finding.cost());
}

double perfThreshold(const v1::PerfFinding &finding, double min_ratio) {
  if (min_ratio > 0)
    return min_ratio;
  return finding.in_loop() ? 2 : 4;
}

bool isPerfFinding(const v1::PerfFinding &finding) {
  return !finding.proved() && !finding.below_threshold();
}

void finalizePerfFinding(v1::PerfFinding &finding, double min_ratio) {
  v1::AccessSite &site = *finding.mutable_site();
  if (site.site_id().rfind("s-", 0) != 0)
    site.set_site_id(hashSiteId(site.site_id()));
  finding.set_fingerprint(
      "perf1:" + hexHash(site.site_id() + "|" + perfKindName(finding.kind()) + "|" +
                             finding.launch_site().location().function() + "|" +
                             finding.launch_site().expression(),
                         32));
  finding.set_message(messageOf(finding));
  bool shape_unknown = false;
  for (const v1::Imprecision &imprecision : finding.imprecisions())
    shape_unknown |= imprecision.kind() == v1::IMPRECISION_KIND_NO_LAUNCH_CONTEXT;
  finding.set_below_threshold(finding.proved() || shape_unknown ||
                              costRatio(finding) < perfThreshold(finding, min_ratio));
}

bool perfRanksBefore(const v1::PerfFinding &a, const v1::PerfFinding &b) {
  if (a.proved() != b.proved())
    return b.proved();
  if (costRatio(a) != costRatio(b))
    return costRatio(a) > costRatio(b);
  auto where = [](const v1::PerfFinding &f) {
    return std::make_tuple(f.site().location().file(), f.site().location().line(),
                           f.site().location().column(), f.fingerprint());
  };
  return where(a) < where(b);
}

} // namespace gpurace::analyzer
