//===- Ingest.h - storing analysis uploads and runtime reports --*- C++ -*-===//
//
// The race lifecycle lives here. Per branch, an analysis that finds a race
// makes it new (first time on the branch), reopened (it had been resolved)
// or unresolved (seen before); a full analysis that no longer finds it
// resolves it. A runtime report with the same fingerprint confirms it.
// Callers hold a transaction around each call.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_INGEST_H
#define GPURACE_STORAGE_INGEST_H

#include "storage/RaceStore.h"
#include "storage/SqlConnection.h"

#include <vector>

namespace gpurace::storage {

v1::UploadAnalysisResponse
storeAnalysis(sql::Connection &db, const v1::UploadAnalysisRequest &request,
              int64_t now);

// Stores a batch of runtime reports as if one after the other, each upload
// id once: a report sent before, or earlier in the batch, is a duplicate.
std::vector<RuntimeIngestResult> storeRuntimeReports(
    sql::Connection &db,
    const std::vector<const v1::ReportRuntimeRequest *> &requests,
    int64_t now);

// What a sighting on a branch does to the race's state there.
v1::DetectionState afterSighting(v1::DetectionState before);

} // namespace gpurace::storage

#endif
