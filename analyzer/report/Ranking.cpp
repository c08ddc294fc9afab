#include "analyzer/report/Ranking.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

#include <algorithm>
#include <set>

namespace gpurace::analyzer {

std::string hexHash(const std::string &text, size_t digits) {
  llvm::SHA256 hasher;
  hasher.update(text);
  std::array<uint8_t, 32> digest = hasher.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(digest), true).substr(0, digits);
}

namespace {

bool isHashed(const std::string &id) { return id.rfind("s-", 0) == 0; }

// `// gpurace: intentional <reason>` on the site's line.
bool findSuppression(const v1::AccessSite &site, v1::Suppression &out) {
  const v1::SourceExcerpt &excerpt = site.excerpt();
  int index = static_cast<int>(site.location().line()) -
              static_cast<int>(excerpt.first_line());
  if (index < 0 || index >= excerpt.lines_size())
    return false;
  const std::string &line = excerpt.lines(index);
  static const std::string kMarker = "gpurace: intentional";
  size_t at = line.find(kMarker);
  if (at == std::string::npos || line.rfind("//", at) == std::string::npos)
    return false;
  std::string reason = line.substr(at + kMarker.size());
  reason.erase(0, reason.find_first_not_of(" \t:-"));
  out.set_kind("intentional");
  out.set_reason(reason);
  *out.mutable_location() = site.location();
  return true;
}

} // namespace

double penaltyOf(v1::ImprecisionKind kind) {
  switch (kind) {
  case v1::IMPRECISION_KIND_LOOP_OVERAPPROXIMATED: return 0.85;
  case v1::IMPRECISION_KIND_LOADED_VALUE: return 0.75;
  case v1::IMPRECISION_KIND_UNKNOWN_ALIASING: return 0.7;
  case v1::IMPRECISION_KIND_NO_LAUNCH_CONTEXT: return 0.8;
  case v1::IMPRECISION_KIND_UNRESOLVED_POINTER: return 0.5;
  case v1::IMPRECISION_KIND_OPAQUE_CALL: return 0.7;
  case v1::IMPRECISION_KIND_UNMODELED_EXPRESSION: return 0.75;
  case v1::IMPRECISION_KIND_UNKNOWN_HOST_VALUE: return 0.85;
  // No witness at all: below the default threshold on its own.
  case v1::IMPRECISION_KIND_SOLVER_UNDECIDED: return 0.45;
  // Only a launch that does not fit the data races: below the threshold.
  case v1::IMPRECISION_KIND_ROW_OVERRUN: return 0.45;
  case v1::IMPRECISION_KIND_TILE_OVERRUN: return 0.45;
  default: return 1.0;
  }
}

std::string imprecisionSource(const v1::Imprecision &imprecision) {
  std::string key = std::to_string(imprecision.kind()) + ":";
  if (!imprecision.source().empty())
    return key + imprecision.source();
  const v1::SourceLocation &at = imprecision.location();
  return key + imprecision.detail() + "@" + at.file() + ":" +
         std::to_string(at.line()) + ":" + std::to_string(at.column());
}

double scoreOf(const v1::RaceCandidate &candidate) {
  double address = 1.0, guard = 1.0;
  std::set<std::string> counted;
  for (const v1::Imprecision &imprecision : candidate.imprecisions()) {
    if (!counted.insert(imprecisionSource(imprecision)).second)
      continue;
    double penalty = penaltyOf(imprecision.kind());
    if (imprecision.guard_only())
      guard = std::min(guard, penalty);
    else
      address *= penalty;
  }
  return address * guard;
}

std::string hashSiteId(const std::string &key) { return "s-" + hexHash(key, 16); }

std::string fingerprintOf(const v1::RaceCandidate &candidate) {
  std::string a = candidate.first().site_id(), b = candidate.second().site_id();
  if (b < a)
    std::swap(a, b);
  return "v1:" + hexHash(a + "|" + b + "|" + raceClassName(candidate.race_class()), 32);
}

std::string raceClassName(v1::RaceClass race_class) {
  switch (race_class) {
  case v1::RACE_CLASS_INTRA_WARP: return "intra-warp";
  case v1::RACE_CLASS_INTRA_BLOCK: return "intra-block";
  case v1::RACE_CLASS_INTER_BLOCK: return "inter-block";
  case v1::RACE_CLASS_SCOPED: return "scoped";
  case v1::RACE_CLASS_BARRIER_DIVERGENCE: return "barrier-divergence";
  default: return "unknown";
  }
}

std::string defectText(v1::SyncDefect defect) {
  switch (defect) {
  case v1::SYNC_DEFECT_MISSING_BARRIER: return "no __syncthreads() between the accesses";
  case v1::SYNC_DEFECT_MISSING_SYNCWARP: return "no __syncwarp() between the accesses of the warp's lanes";
  case v1::SYNC_DEFECT_MISSING_GRID_SYNC: return "nothing orders the accesses of different blocks (grid sync or a separate launch needed)";
  case v1::SYNC_DEFECT_MISSING_BLOCK_FENCE: return "missing __threadfence_block(): without a fence the lock or flag does not order these accesses";
  case v1::SYNC_DEFECT_MISSING_DEVICE_FENCE: return "missing __threadfence(): no fence (or only a block-scope one) orders these accesses for a thread of another block";
  case v1::SYNC_DEFECT_INSUFFICIENT_ATOMIC_SCOPE: return "atomic scope too narrow: a block-scope atomic does not order other blocks";
  case v1::SYNC_DEFECT_LOCK_SCOPE_TOO_NARROW: return "lock scope too narrow: a lock taken or released with block scope does not exclude threads of other blocks";
  case v1::SYNC_DEFECT_DIFFERENT_LOCK_ADDRESSES: return "the critical sections may hold different locks (the lock addresses can differ)";
  case v1::SYNC_DEFECT_ATOMIC_VS_PLAIN: return "an atomic and a plain access to the same location";
  case v1::SYNC_DEFECT_DIVERGENT_BARRIER: return "the threads that must meet at the barrier may not all reach it";
  case v1::SYNC_DEFECT_VOLATILE_NOT_SYNCHRONIZING: return "volatile does not synchronize: it keeps each access in memory, but the accesses are not atomic and nothing orders them (use atomics, a barrier or __syncwarp())";
  default: return "";
  }
}

// Who must reach a barrier of this scope together.
static std::string barrierMembers(v1::MemoryScope scope) {
  switch (scope) {
  case v1::MEMORY_SCOPE_WARP: return "lanes of its mask in the warp";
  case v1::MEMORY_SCOPE_DEVICE: return "threads of the grid";
  default: return "threads of the block";
  }
}

std::string messageOf(const v1::RaceCandidate &candidate) {
  if (candidate.race_class() == v1::RACE_CLASS_BARRIER_DIVERGENCE)
    return "barrier divergence: '" + candidate.first().expression() +
           "' may not be reached by all " + barrierMembers(candidate.first().scope());
  std::string first = candidate.first().expression();
  std::string second = candidate.second().expression();
  std::string text = raceClassName(candidate.race_class()) + " data race on '" + first + "'";
  if (second != first)
    text += " and '" + second + "'";
  return text;
}

void finalizeCandidate(v1::RaceCandidate &candidate) {
  for (v1::AccessSite *site : {candidate.mutable_first(), candidate.mutable_second()})
    if (!isHashed(site->site_id()))
      site->set_site_id(hashSiteId(site->site_id()));
  // Candidates list the earlier site first so that output is stable.
  auto position = [](const v1::AccessSite &s) {
    return std::make_tuple(s.location().file(), s.location().line(),
                           s.location().column(), s.site_id());
  };
  if (position(candidate.second()) < position(candidate.first())) {
    std::swap(*candidate.mutable_first(), *candidate.mutable_second());
    if (candidate.has_witness()) {
      v1::Witness *w = candidate.mutable_witness();
      std::swap(*w->mutable_first(), *w->mutable_second());
      std::swap(*w->mutable_first_locals(), *w->mutable_second_locals());
    }
  }
  candidate.set_score(scoreOf(candidate));
  candidate.set_fingerprint(fingerprintOf(candidate));
  candidate.set_message(messageOf(candidate));
  v1::Suppression suppression;
  if (findSuppression(candidate.first(), suppression) ||
      findSuppression(candidate.second(), suppression))
    *candidate.mutable_suppression() = suppression;
}

} // namespace gpurace::analyzer
