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

namespace gpurace::storage {

v1::UploadAnalysisResponse
storeAnalysis(sql::Connection &db, const v1::UploadAnalysisRequest &request,
              int64_t now);

RuntimeIngestResult storeRuntimeReport(sql::Connection &db,
                                       const v1::ReportRuntimeRequest &request,
                                       int64_t now);

} // namespace gpurace::storage

#endif
