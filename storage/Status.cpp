#include "storage/Status.h"

namespace gpurace {

const char *statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::kOk:
    return "OK";
  case StatusCode::kInvalidArgument:
    return "INVALID_ARGUMENT";
  case StatusCode::kNotFound:
    return "NOT_FOUND";
  case StatusCode::kUnauthenticated:
    return "UNAUTHENTICATED";
  case StatusCode::kPermissionDenied:
    return "PERMISSION_DENIED";
  case StatusCode::kResourceExhausted:
    return "RESOURCE_EXHAUSTED";
  case StatusCode::kFailedPrecondition:
    return "FAILED_PRECONDITION";
  case StatusCode::kUnavailable:
    return "UNAVAILABLE";
  case StatusCode::kInternal:
    return "INTERNAL";
  }
  return "UNKNOWN";
}

} // namespace gpurace
