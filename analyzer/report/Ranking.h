//===- Ranking.h - scores, fingerprints and messages ------------*- C++ -*-===//
//
// The score of a candidate is 1.0 when its witness rests only on exact
// facts. Each source of imprecision in its addresses multiplies it by the
// penalty of its kind, once however many sites share the source; the
// imprecisions that reach only the guards multiply it once, by the
// heaviest of their penalties (penaltyOf and README's "Ranking"). Fingerprints
// and site ids hash what is accessed and how, never line numbers, thread
// ids or addresses, so they survive edits elsewhere in the file and file
// renames.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPORT_RANKING_H
#define GPURACE_ANALYZER_REPORT_RANKING_H

#include "gpurace/v1/analysis.pb.h"

#include <string>

namespace gpurace::analyzer {

double penaltyOf(v1::ImprecisionKind kind);
// The key under which imprecisions count once: kind and source, or kind,
// detail and location where no source is named.
std::string imprecisionSource(const v1::Imprecision &imprecision);
double scoreOf(const v1::RaceCandidate &candidate);

// "s-" + 16 hex digits of a hash of the site key the model built.
// The first `digits` hex digits of the SHA-256 of `text`: ids that stay
// the same across runs and machines.
std::string hexHash(const std::string &text, size_t digits);
std::string hashSiteId(const std::string &key);
// "v1:" + 32 hex digits over the unordered pair of site ids and the class.
std::string fingerprintOf(const v1::RaceCandidate &candidate);

// Short names used in diagnostics, check names and query strings.
std::string raceClassName(v1::RaceClass race_class);
std::string defectText(v1::SyncDefect defect);
std::string messageOf(const v1::RaceCandidate &candidate);

// Sets the hashed site ids, score, fingerprint, message and suppression.
void finalizeCandidate(v1::RaceCandidate &candidate);

} // namespace gpurace::analyzer

#endif
