#include "proto/JsonCodec.h"

#include <google/protobuf/util/json_util.h>

namespace gpurace {

std::string toJson(const google::protobuf::Message &message,
                   const JsonWriteOptions &options) {
  google::protobuf::util::JsonPrintOptions print;
  print.add_whitespace = options.pretty;
  print.always_print_primitive_fields = options.always_print_primitive_fields;
  print.preserve_proto_field_names = false;
  std::string out;
  auto status = google::protobuf::util::MessageToJsonString(message, &out, print);
  if (!status.ok())
    return std::string();
  return out;
}

bool fromJson(const std::string &json, google::protobuf::Message &message,
              std::string &error) {
  google::protobuf::util::JsonParseOptions parse;
  parse.ignore_unknown_fields = false;
  auto status = google::protobuf::util::JsonStringToMessage(json, &message, parse);
  if (status.ok())
    return true;
  error = std::string(status.message());
  return false;
}

} // namespace gpurace
