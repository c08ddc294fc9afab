//===- Retention.h - pruning old runs ---------------------------*- C++ -*-===//
#ifndef GPURACE_STORAGE_RETENTION_H
#define GPURACE_STORAGE_RETENTION_H

#include "storage/RaceStore.h"
#include "storage/SqlConnection.h"

namespace gpurace::storage {

// Keeps the newest `keep_runs` runs of each project, branch and kind
// (analysis, runtime), so that a flood of runtime reports never pushes out
// the analysis history. Occurrences and upload ids of deleted runs go with
// them; a race no remaining run has seen goes too, its reviews with it.
PruneResult prune(sql::Connection &db, uint32_t keep_runs);

} // namespace gpurace::storage

#endif
