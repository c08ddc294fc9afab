// Query strings to requests: short enum names, unknown parameters.
#include "server/HttpQuery.h"

#include <gtest/gtest.h>

namespace gpurace {
namespace {

TEST(HttpQuery, ShortEnumNames) {
  EXPECT_EQ(shortEnumName(*v1::RaceClass_descriptor()->FindValueByNumber(
                v1::RACE_CLASS_BARRIER_DIVERGENCE)),
            "barrier-divergence");
  EXPECT_EQ(parseEnumName(*v1::ReviewState_descriptor(), "false-positive"),
            v1::REVIEW_STATE_FALSE_POSITIVE);
  EXPECT_EQ(parseEnumName(*v1::ReviewState_descriptor(),
                          "REVIEW_STATE_INTENTIONAL"),
            v1::REVIEW_STATE_INTENTIONAL);
  EXPECT_EQ(parseEnumName(*v1::DetectionState_descriptor(), "unspecified"), -1);
}

TEST(HttpQuery, RaceListFilters) {
  QueryParams params = {{"project", "demo"},
                        {"status", "confirmed,potential"},
                        {"class", "inter-block"},
                        {"class", "intra-warp"},
                        {"detection", "new"},
                        {"order_by", "-last_seen"},
                        {"page_size", "20"}};
  auto r = listRacesRequest(params);
  ASSERT_TRUE(r.ok()) << r.status().message;
  EXPECT_EQ(r->filter().project(), "demo");
  EXPECT_EQ(r->filter().statuses_size(), 2);
  ASSERT_EQ(r->filter().classes_size(), 2);
  EXPECT_EQ(r->filter().classes(1), v1::RACE_CLASS_INTRA_WARP);
  EXPECT_EQ(r->filter().detection_states(0), v1::DETECTION_STATE_NEW);
  EXPECT_EQ(r->order_by(), "-last_seen");
  EXPECT_EQ(r->page_size(), 20u);
}

TEST(HttpQuery, ErrorsNameTheParameter) {
  auto unknown = listRacesRequest({{"colour", "red"}});
  EXPECT_NE(unknown.status().message.find("'colour'"), std::string::npos);
  auto bad_value = listRacesRequest({{"review", "maybe"}});
  EXPECT_NE(bad_value.status().message.find("review: unknown value 'maybe'"),
            std::string::npos);
  auto bad_size = listRunsRequest({{"page_size", "-3"}});
  EXPECT_NE(bad_size.status().message.find("page_size"), std::string::npos);
}

} // namespace
} // namespace gpurace
