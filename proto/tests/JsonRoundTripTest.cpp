// Every message of the data model survives proto3 JSON and back, with every
// field set, and malformed JSON is rejected with a message naming the field.
#include "proto/JsonCodec.h"

#include "gpurace/v1/analysis.pb.h"
#include "gpurace/v1/common.pb.h"
#include "gpurace/v1/runtime.pb.h"
#include "gpurace/v1/service.pb.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <memory>

namespace gpurace {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;
using google::protobuf::Message;
using google::protobuf::MessageFactory;

// Sets every field of `message` to a distinct, non-default value, recursing
// into sub-messages down to `depth`.
void fillAllFields(Message &message, int depth, int &seed) {
  const Descriptor *descriptor = message.GetDescriptor();
  const auto *reflection = message.GetReflection();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor *field = descriptor->field(i);
    ++seed;
    if (field->is_map()) {
      Message *entry = reflection->AddMessage(&message, field);
      fillAllFields(*entry, depth - 1, seed);
      continue;
    }
    bool repeated = field->is_repeated();
    switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string value = field->name() + "-" + std::to_string(seed);
      repeated ? reflection->AddString(&message, field, value)
               : reflection->SetString(&message, field, value);
      break;
    }
    case FieldDescriptor::CPPTYPE_INT32:
      repeated ? reflection->AddInt32(&message, field, -seed)
               : reflection->SetInt32(&message, field, -seed);
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      repeated ? reflection->AddInt64(&message, field, -seed * 1000003LL)
               : reflection->SetInt64(&message, field, -seed * 1000003LL);
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      repeated ? reflection->AddUInt32(&message, field, seed)
               : reflection->SetUInt32(&message, field, seed);
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      repeated ? reflection->AddUInt64(&message, field, seed * 7919ULL)
               : reflection->SetUInt64(&message, field, seed * 7919ULL);
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      repeated ? reflection->AddDouble(&message, field, seed / 8.0)
               : reflection->SetDouble(&message, field, seed / 8.0);
      break;
    case FieldDescriptor::CPPTYPE_FLOAT:
      repeated ? reflection->AddFloat(&message, field, seed / 4.0f)
               : reflection->SetFloat(&message, field, seed / 4.0f);
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      repeated ? reflection->AddBool(&message, field, true)
               : reflection->SetBool(&message, field, true);
      break;
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto *type = field->enum_type();
      const auto *value = type->value(type->value_count() - 1);
      repeated ? reflection->AddEnum(&message, field, value)
               : reflection->SetEnum(&message, field, value);
      break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE: {
      if (depth <= 0)
        break;
      if (field->message_type()->full_name() == "google.protobuf.Timestamp") {
        Message *ts = repeated ? reflection->AddMessage(&message, field)
                               : reflection->MutableMessage(&message, field);
        const auto *tsr = ts->GetReflection();
        tsr->SetInt64(ts, ts->GetDescriptor()->FindFieldByName("seconds"),
                      1700000000 + seed);
        tsr->SetInt32(ts, ts->GetDescriptor()->FindFieldByName("nanos"),
                      seed * 1000);
        break;
      }
      Message *child = repeated ? reflection->AddMessage(&message, field)
                                : reflection->MutableMessage(&message, field);
      fillAllFields(*child, depth - 1, seed);
      break;
    }
    }
  }
}

std::vector<const Descriptor *> allGpuraceMessages() {
  std::vector<const Descriptor *> out;
  for (const FileDescriptor *file :
       {gpurace::v1::SourceLocation::descriptor()->file(),
        gpurace::v1::AnalysisResult::descriptor()->file(),
        gpurace::v1::RuntimeReport::descriptor()->file(),
        gpurace::v1::Race::descriptor()->file()}) {
    for (int i = 0; i < file->message_type_count(); ++i)
      out.push_back(file->message_type(i));
  }
  return out;
}

TEST(JsonRoundTrip, EveryMessageWithEveryFieldSurvives) {
  auto messages = allGpuraceMessages();
  ASSERT_GT(messages.size(), 30u);
  for (const Descriptor *descriptor : messages) {
    SCOPED_TRACE(descriptor->full_name());
    const Message *prototype =
        MessageFactory::generated_factory()->GetPrototype(descriptor);
    std::unique_ptr<Message> original(prototype->New());
    int seed = 0;
    fillAllFields(*original, 4, seed);
    if (descriptor->field_count() > 0) {
      ASSERT_GT(original->ByteSizeLong(), 0u);
    }

    std::string json = toJson(*original);
    ASSERT_FALSE(json.empty());
    std::unique_ptr<Message> parsed(prototype->New());
    std::string error;
    ASSERT_TRUE(fromJson(json, *parsed, error)) << error << "\n" << json;
    EXPECT_TRUE(
        google::protobuf::util::MessageDifferencer::Equals(*original, *parsed))
        << json;
  }
}

TEST(JsonRoundTrip, EnumsAreWrittenAsNames) {
  v1::RaceCandidate candidate;
  candidate.set_race_class(v1::RACE_CLASS_INTER_BLOCK);
  std::string json = toJson(candidate);
  EXPECT_NE(json.find("\"RACE_CLASS_INTER_BLOCK\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"raceClass\""), std::string::npos) << json;
}

TEST(JsonRoundTrip, UnknownFieldIsRejectedWithItsName) {
  v1::AnalysisResult result;
  std::string error;
  EXPECT_FALSE(fromJson(R"({"toolVersion": "1", "candidatez": []})", result, error));
  EXPECT_NE(error.find("candidatez"), std::string::npos) << error;
}

TEST(JsonRoundTrip, WrongTypeIsRejected) {
  v1::SourceLocation location;
  std::string error;
  EXPECT_FALSE(fromJson(R"({"line": "twelve"})", location, error));
  EXPECT_FALSE(error.empty());
}

TEST(JsonRoundTrip, TruncatedJsonIsRejected) {
  v1::RuntimeReport report;
  std::string error;
  EXPECT_FALSE(fromJson(R"({"reportId": "a", "launch": {)", report, error));
  EXPECT_FALSE(error.empty());
}

} // namespace
} // namespace gpurace
