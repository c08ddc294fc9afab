//===- SameMessage.h - equality of decoded messages -------------*- C++ -*-===//
#ifndef GPURACE_FUZZ_SAMEMESSAGE_H
#define GPURACE_FUZZ_SAMEMESSAGE_H

#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>

namespace gpurace::fuzz {

// Field by field, maps as maps. JSON spells NaN as "NaN", which reads back
// as a NaN and equals nothing, so NaN equals NaN here.
inline bool sameMessage(const google::protobuf::Message &a,
                        const google::protobuf::Message &b) {
  google::protobuf::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);
  google::protobuf::util::MessageDifferencer differencer;
  differencer.set_field_comparator(&comparator);
  return differencer.Compare(a, b);
}

} // namespace gpurace::fuzz

#endif
