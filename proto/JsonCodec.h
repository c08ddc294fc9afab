//===- JsonCodec.h - proto3 JSON for every gpurace message ------*- C++ -*-===//
//
// All JSON that gpurace reads or writes is the proto3 JSON mapping of the
// messages in proto/gpurace/v1. These two functions are the only way in and
// out, so files, the wire and storage agree on one schema.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_PROTO_JSONCODEC_H
#define GPURACE_PROTO_JSONCODEC_H

#include <google/protobuf/message.h>

#include <string>

namespace gpurace {

struct JsonWriteOptions {
  bool pretty = true;
  // Enum values as names ("RACE_CLASS_INTER_BLOCK"), never numbers.
  bool always_print_primitive_fields = false;
};

std::string toJson(const google::protobuf::Message &message,
                   const JsonWriteOptions &options = {});

// Parses proto3 JSON into `message`. Unknown fields are an error, so a typo
// in a hand-written file is caught. On failure returns false and sets
// `error` to a message naming the offending field or position.
bool fromJson(const std::string &json, google::protobuf::Message &message,
              std::string &error);

} // namespace gpurace

#endif
