//===- Triage.h - review states with their history --------------*- C++ -*-===//
#ifndef GPURACE_STORAGE_TRIAGE_H
#define GPURACE_STORAGE_TRIAGE_H

#include "gpurace/v1/service.pb.h"
#include "storage/SqlConnection.h"

namespace gpurace::storage {

// Sets the race's current review and appends it to the race's review
// history.
void setReview(sql::Connection &db, const v1::SetReviewRequest &request,
               int64_t now);

} // namespace gpurace::storage

#endif
