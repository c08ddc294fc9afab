//===- Status.h - outcome of a storage or service call ----------*- C++ -*-===//
//
// The codes are the gRPC ones the service layer needs, so that a storage
// error reaches a gRPC or HTTP client unchanged: the message names the field
// or the object at fault.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_STATUS_H
#define GPURACE_STORAGE_STATUS_H

#include <optional>
#include <string>
#include <utility>

namespace gpurace {

enum class StatusCode {
  kOk,
  kInvalidArgument,
  kNotFound,
  kUnauthenticated,
  kPermissionDenied,
  kResourceExhausted,
  kFailedPrecondition,
  // The database cannot be reached; a retry may succeed.
  kUnavailable,
  kInternal,
};

// "INVALID_ARGUMENT", as gRPC spells it; the HTTP API's error code.
const char *statusCodeName(StatusCode code);

struct Status {
  StatusCode code = StatusCode::kOk;
  std::string message;

  bool ok() const { return code == StatusCode::kOk; }
  static Status invalid(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }
  static Status notFound(std::string m) {
    return {StatusCode::kNotFound, std::move(m)};
  }
  static Status internal(std::string m) {
    return {StatusCode::kInternal, std::move(m)};
  }
};

// A value or the status that explains why there is none.
template <typename T> class Result {
public:
  Result(T value) : value_(std::move(value)) {}
  Result(Status status) : status_(std::move(status)) {}

  bool ok() const { return status_.ok(); }
  const Status &status() const { return status_; }
  T &value() { return *value_; }
  const T &value() const { return *value_; }
  T *operator->() { return &*value_; }
  T &operator*() { return *value_; }

private:
  Status status_;
  std::optional<T> value_;
};

} // namespace gpurace

#endif
