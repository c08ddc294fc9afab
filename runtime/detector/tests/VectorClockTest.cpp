#include "runtime/detector/VectorClock.h"

#include <gtest/gtest.h>

namespace gpurace::rt {
namespace {

const LaunchLayout kLayout({4, 1, 1}, {64, 1, 1});

TEST(VectorClockTest, EmptyClockKnowsNothing) {
  VectorClock c;
  EXPECT_EQ(c.get(kLayout.thread(0, 0, 0)), 0u);
  EXPECT_TRUE(c.empty());
}

TEST(VectorClockTest, BlockEntryCoversEveryThreadOfThatBlockOnly) {
  VectorClock c;
  c.raiseBlock(1, 7, kLayout);
  EXPECT_EQ(c.get(kLayout.thread(1, 0, 0)), 7u);
  EXPECT_EQ(c.get(kLayout.thread(1, 1, 31)), 7u);
  EXPECT_EQ(c.get(kLayout.thread(0, 1, 31)), 0u);
  EXPECT_EQ(c.get(kLayout.thread(2, 0, 0)), 0u);
}

TEST(VectorClockTest, ComponentIsTheLargestEntryOfAnyEnclosingGroup) {
  VectorClock c;
  c.raiseBlock(0, 3, kLayout);
  c.raiseThread(kLayout.thread(0, 1, 5), 9);
  c.raiseWarp(0, 5, kLayout);
  EXPECT_EQ(c.get(kLayout.thread(0, 1, 5)), 9u);
  EXPECT_EQ(c.get(kLayout.thread(0, 1, 6)), 3u);
  EXPECT_EQ(c.get(kLayout.thread(0, 0, 6)), 5u);
}

TEST(VectorClockTest, RaisingAGroupDropsTheEntriesItCovers) {
  VectorClock c;
  for (uint32_t l = 0; l < 32; ++l)
    c.raiseThread(kLayout.thread(2, 0, l), 4);
  size_t before = c.heapBytes();
  c.raiseBlock(2, 4, kLayout);
  VectorClock fresh;
  fresh.raiseBlock(2, 4, kLayout);
  EXPECT_EQ(c.get(kLayout.thread(2, 0, 17)), 4u);
  // Only the block entry is left.
  VectorClock joined;
  joined.join(c);
  EXPECT_LT(joined.heapBytes(), before);
  EXPECT_EQ(joined.heapBytes(), fresh.heapBytes());
}

TEST(VectorClockTest, JoinIsPointwiseMaximum) {
  VectorClock a, b;
  a.raiseBlock(0, 2, kLayout);
  a.raiseThread(kLayout.thread(3, 0, 0), 8);
  b.raiseBlock(0, 5, kLayout);
  b.raiseWarp(kLayout.thread(1, 1, 0).warp, 6, kLayout);
  a.join(b);
  EXPECT_EQ(a.get(kLayout.thread(0, 1, 3)), 5u);
  EXPECT_EQ(a.get(kLayout.thread(3, 0, 0)), 8u);
  EXPECT_EQ(a.get(kLayout.thread(1, 1, 9)), 6u);
  EXPECT_EQ(a.get(kLayout.thread(1, 0, 9)), 0u);
}

TEST(VectorClockTest, GridEntryCoversEveryThread) {
  VectorClock c;
  c.raiseThread(kLayout.thread(3, 1, 31), 2);
  c.raiseGrid(4);
  EXPECT_EQ(c.get(kLayout.thread(3, 1, 31)), 4u);
  EXPECT_EQ(c.get(kLayout.thread(0, 0, 0)), 4u);
}

} // namespace
} // namespace gpurace::rt
