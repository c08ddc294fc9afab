//===- Triage.h - review states with their history --------------*- C++ -*-===//
#ifndef GPURACE_STORAGE_TRIAGE_H
#define GPURACE_STORAGE_TRIAGE_H

#include "gpurace/v1/service.pb.h"
#include "storage/Sqlite.h"

namespace gpurace::storage {

// Sets the race's current review and appends it to the race's review
// history.
void setReview(sqlite::Database &db, const v1::SetReviewRequest &request,
               int64_t now);

} // namespace gpurace::storage

#endif
