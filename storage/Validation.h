//===- Validation.h - what an upload must hold to be stored -----*- C++ -*-===//
//
// Checked before anything is written, so a bad upload stores nothing. Each
// message names the offending field by its path in the request, as a
// client wrote it (camelCase is the JSON spelling; the snake_case path here
// is the proto's, which both forms map to).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_VALIDATION_H
#define GPURACE_STORAGE_VALIDATION_H

#include "gpurace/v1/service.pb.h"
#include "storage/Status.h"

namespace gpurace::storage {

Status validateUpload(const v1::UploadAnalysisRequest &request);
Status validateRuntimeReport(const v1::ReportRuntimeRequest &request);

} // namespace gpurace::storage

#endif
