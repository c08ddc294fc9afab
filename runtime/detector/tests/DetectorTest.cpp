#include "runtime/detector/tests/TraceBuilder.h"

#include <gtest/gtest.h>

namespace gpurace::rt {
namespace {

using testing::kFullWarp;
using testing::lane;
using testing::TraceBuilder;

constexpr uint64_t kData = 0x1000;
constexpr uint64_t kFlag = 0x2000;

// Two blocks of two warps each.
TraceBuilder twoByTwo() { return TraceBuilder({2, 1, 1}, {64, 1, 1}); }

const Race &onlyRace(const Detector &d) {
  EXPECT_EQ(d.races().size(), 1u);
  static Race none;
  return d.races().empty() ? none : d.races().front();
}

TEST(DetectorTest, ProgramOrderOrdersOneThreadsAccesses) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(3), TraceBuilder::same(kData))
               .read(1, 0, 0, lane(3), TraceBuilder::same(kData))
               .write(0, 0, 0, lane(3), TraceBuilder::same(kData))
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, ReadsNeverRaceWithReads) {
  auto d = twoByTwo()
               .read(1, 0, 0, kFullWarp, TraceBuilder::same(kData))
               .read(1, 1, 1, kFullWarp, TraceBuilder::same(kData))
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, WarpsOfABlockRaceWithoutABarrier) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .read(1, 0, 1, lane(0), TraceBuilder::same(kData))
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_INTRA_BLOCK);
  EXPECT_EQ(r.defect, v1::SYNC_DEFECT_MISSING_BARRIER);
  EXPECT_EQ(r.first_site, 0u);
  EXPECT_EQ(r.second_site, 1u);
  EXPECT_EQ(r.first_tid, 0u);
  EXPECT_EQ(r.second_tid, 32u);
  EXPECT_EQ(r.address, kData);
}

TEST(DetectorTest, BlockBarrierOrdersTheWarpsOfItsBlock) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .barrierAll(9, 0)
               .read(1, 0, 1, lane(0), TraceBuilder::same(kData))
               .write(2, 0, 1, lane(0), TraceBuilder::same(kData))
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, AccessesAfterTheBarrierAreNotOrderedByIt) {
  auto d = twoByTwo()
               .barrierAll(9, 0)
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .read(1, 0, 1, lane(0), TraceBuilder::same(kData))
               .run();
  EXPECT_EQ(onlyRace(d).race_class, v1::RACE_CLASS_INTRA_BLOCK);
}

TEST(DetectorTest, AWarpThatExitedBeforeTheBarrierIsNotOrderedByIt) {
  auto d = twoByTwo()
               .write(0, 0, 1, lane(0), TraceBuilder::same(kData))
               .barrier(9, 0, 0)
               .read(1, 0, 0, lane(0), TraceBuilder::same(kData))
               .run();
  EXPECT_EQ(onlyRace(d).race_class, v1::RACE_CLASS_INTRA_BLOCK);
}

TEST(DetectorTest, BlockBarrierDoesNotOrderOtherBlocks) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .barrierAll(9, 0)
               .barrierAll(9, 1)
               .read(1, 1, 0, lane(0), TraceBuilder::same(kData))
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_INTER_BLOCK);
  EXPECT_EQ(r.second_tid, 64u);
}

TEST(DetectorTest, GridSyncOrdersEveryBlock) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .gridSyncAll(9)
               .read(1, 1, 1, lane(5), TraceBuilder::same(kData))
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, LanesOfAWarpRaceWithoutSyncwarp) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .read(1, 0, 0, lane(1), TraceBuilder::same(kData))
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_INTRA_WARP);
  EXPECT_EQ(r.defect, v1::SYNC_DEFECT_MISSING_SYNCWARP);
}

TEST(DetectorTest, SyncwarpOrdersTheLanesOfItsMaskOnly) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .syncwarp(9, 0, 0, lane(0) | lane(1) | lane(2), lane(0) | lane(1))
               .read(1, 0, 0, lane(1), TraceBuilder::same(kData))
               .read(2, 0, 0, lane(2), TraceBuilder::same(kData))
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.second_site, 2u);
  EXPECT_EQ(r.second_tid, 2u);
}

TEST(DetectorTest, SyncwarpWaitsForEveryLaneOfTheMask) {
  // Lanes 0 and 1 reach __syncwarp(0x3) on different paths.
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .syncwarp(9, 0, 0, lane(0), lane(0) | lane(1))
               .syncwarp(8, 0, 0, lane(1), lane(0) | lane(1))
               .read(1, 0, 0, lane(1), TraceBuilder::same(kData))
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, FullSyncwarpOrdersTheWholeWarp) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(4), TraceBuilder::same(kData))
               .syncwarp(9, 0, 0, kFullWarp, kFullWarp)
               .write(1, 0, 0, lane(30), TraceBuilder::same(kData))
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, LanesOfOneStoreRaceWhenValuesDiffer) {
  auto d = twoByTwo()
               .store(0, 0, 0, lane(0) | lane(1), TraceBuilder::same(kData),
                      [](uint32_t l) { return l; })
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_INTRA_WARP);
  EXPECT_EQ(r.first_site, 0u);
  EXPECT_EQ(r.second_site, 0u);
}

TEST(DetectorTest, SameValueFilterDropsLanesStoringTheSameValue) {
  auto d = twoByTwo()
               .store(0, 0, 0, kFullWarp, TraceBuilder::same(kData),
                      [](uint32_t) { return 7; })
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, SameValueFilterDropsStoresOfTheSameValueFromOtherBlocks) {
  auto same = twoByTwo()
                  .store(0, 0, 0, lane(0), TraceBuilder::same(kData), [](uint32_t) { return 1; })
                  .store(0, 1, 1, lane(5), TraceBuilder::same(kData), [](uint32_t) { return 1; })
                  .run();
  EXPECT_TRUE(same.races().empty());
  auto differ = twoByTwo()
                    .store(0, 0, 0, lane(0), TraceBuilder::same(kData), [](uint32_t) { return 1; })
                    .store(1, 1, 1, lane(5), TraceBuilder::same(kData), [](uint32_t) { return 2; })
                    .run();
  EXPECT_EQ(onlyRace(differ).race_class, v1::RACE_CLASS_INTER_BLOCK);
}

TEST(DetectorTest, AStoreOfTheSameValueDoesNotHideTheFirstStoreFromALaterOne) {
  // Block 0 and block 1 both store 1; block 1 then passes a barrier and
  // stores 2, ordered after its own store but not after block 0's.
  auto d = twoByTwo()
               .store(0, 0, 0, lane(0), TraceBuilder::same(kData), [](uint32_t) { return 1; })
               .store(0, 1, 0, lane(0), TraceBuilder::same(kData), [](uint32_t) { return 1; })
               .barrierAll(9, 1)
               .store(1, 1, 1, lane(0), TraceBuilder::same(kData), [](uint32_t) { return 2; })
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_INTER_BLOCK);
  EXPECT_EQ(r.first_tid, 0u);
  EXPECT_EQ(r.second_tid, 96u);
}

TEST(DetectorTest, LanesOfOneStoreWithoutValuesRace) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(2) | lane(9), TraceBuilder::same(kData))
               .run();
  EXPECT_EQ(onlyRace(d).race_class, v1::RACE_CLASS_INTRA_WARP);
}

TEST(DetectorTest, DisjointLanesOfOneStoreDoNotRace) {
  auto d = twoByTwo()
               .write(0, 0, 0, kFullWarp, TraceBuilder::perLane(kData))
               .read(1, 0, 0, kFullWarp, TraceBuilder::perLane(kData))
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, AdjacentBytesDoNotRaceOverlappingBytesDo) {
  auto apart = twoByTwo()
                   .write(0, 0, 0, lane(0), TraceBuilder::same(kData), 1)
                   .write(1, 1, 0, lane(0), TraceBuilder::same(kData + 1), 1)
                   .run();
  EXPECT_TRUE(apart.races().empty());
  auto overlap = twoByTwo()
                     .write(0, 0, 0, lane(0), TraceBuilder::same(kData + 4), 8)
                     .read(1, 1, 0, lane(0), TraceBuilder::same(kData + 8), 4)
                     .run();
  EXPECT_EQ(onlyRace(overlap).address, kData + 8);
}

TEST(DetectorTest, ConcurrentReadsAreAllCheckedAgainstALaterWrite) {
  auto d = twoByTwo()
               .read(1, 0, 0, lane(0), TraceBuilder::same(kData))
               .read(2, 1, 0, lane(0), TraceBuilder::same(kData))
               .barrierAll(9, 1)
               .write(0, 1, 1, lane(0), TraceBuilder::same(kData))
               .run();
  // The read of block 1 is ordered by its barrier; block 0's read is not.
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.first_site, 1u);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_INTER_BLOCK);
}

TEST(DetectorTest, SharedMemoryOfTwoBlocksIsTwoLocations) {
  auto d = twoByTwo()
               .access(kOpWrite, 0, 0, 0, lane(0), TraceBuilder::same(16), 4,
                       kScopeNone, kFlagShared)
               .access(kOpWrite, 0, 1, 0, lane(0), TraceBuilder::same(16), 4,
                       kScopeNone, kFlagShared)
               .run();
  EXPECT_TRUE(d.races().empty());
  auto racy = twoByTwo()
                  .access(kOpWrite, 0, 0, 0, lane(0), TraceBuilder::same(16),
                          4, kScopeNone, kFlagShared)
                  .access(kOpRead, 1, 0, 1, lane(0), TraceBuilder::same(16),
                          4, kScopeNone, kFlagShared)
                  .run();
  const Race &r = onlyRace(racy);
  EXPECT_TRUE(r.shared);
  EXPECT_EQ(r.address, 16u);
}

TEST(DetectorTest, DeviceScopeAtomicsDoNotRace) {
  auto d = twoByTwo()
               .atomic(0, 0, 0, kFullWarp, TraceBuilder::same(kData))
               .atomic(0, 1, 1, kFullWarp, TraceBuilder::same(kData))
               .run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, BlockScopeAtomicsRaceAcrossBlocksOnly) {
  auto same_block = twoByTwo()
                        .atomic(0, 0, 0, lane(0), TraceBuilder::same(kData), kScopeBlock)
                        .atomic(0, 0, 1, lane(0), TraceBuilder::same(kData), kScopeBlock)
                        .run();
  EXPECT_TRUE(same_block.races().empty());
  auto across = twoByTwo()
                    .atomic(0, 0, 0, lane(0), TraceBuilder::same(kData), kScopeBlock)
                    .atomic(1, 1, 0, lane(0), TraceBuilder::same(kData), kScopeDevice)
                    .run();
  const Race &r = onlyRace(across);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_SCOPED);
  EXPECT_EQ(r.defect, v1::SYNC_DEFECT_INSUFFICIENT_ATOMIC_SCOPE);
}

TEST(DetectorTest, AtomicAndPlainAccessRaceWhenUnordered) {
  auto d = twoByTwo()
               .atomic(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .read(1, 1, 0, lane(0), TraceBuilder::same(kData))
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.defect, v1::SYNC_DEFECT_ATOMIC_VS_PLAIN);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_INTER_BLOCK);
}

TEST(DetectorTest, AtomicsAloneDoNotSynchronize) {
  // Message passing through an atomic flag with no fences.
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .atomic(1, 0, 0, lane(0), TraceBuilder::same(kFlag))
               .atomic(2, 1, 0, lane(0), TraceBuilder::same(kFlag))
               .read(3, 1, 0, lane(0), TraceBuilder::same(kData))
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.first_site, 0u);
  EXPECT_EQ(r.second_site, 3u);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_INTER_BLOCK);
}

// Producer in block 0, consumer in block 1: data, fence, flag / flag, fence,
// data, with the given fence scope on both sides.
Detector messagePassing(uint8_t fence_scope, uint8_t atomic_scope,
                        uint32_t consumer_block) {
  return twoByTwo()
      .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
      .fence(5, 0, 0, lane(0), fence_scope)
      .atomic(1, 0, 0, lane(0), TraceBuilder::same(kFlag), atomic_scope)
      .atomic(2, consumer_block, 1, lane(0), TraceBuilder::same(kFlag), atomic_scope)
      .fence(6, consumer_block, 1, lane(0), fence_scope)
      .read(3, consumer_block, 1, lane(0), TraceBuilder::same(kData))
      .run();
}

TEST(DetectorTest, DeviceFenceAndAtomicReleaseAndAcquireAcrossBlocks) {
  EXPECT_TRUE(messagePassing(kScopeDevice, kScopeDevice, 1).races().empty());
}

TEST(DetectorTest, BlockScopeFenceIsAScopedRaceAcrossBlocks) {
  auto d = messagePassing(kScopeBlock, kScopeDevice, 1);
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_SCOPED);
  EXPECT_EQ(r.defect, v1::SYNC_DEFECT_MISSING_DEVICE_FENCE);
}

TEST(DetectorTest, BlockScopeLockIsAScopedRaceAcrossBlocks) {
  auto d = messagePassing(kScopeDevice, kScopeBlock, 1);
  // The flag's block-scope atomics race with each other, and the data they
  // were meant to protect races too.
  ASSERT_EQ(d.races().size(), 2u);
  const Race &flag = d.races()[0];
  EXPECT_EQ(flag.first_site, 1u);
  EXPECT_EQ(flag.defect, v1::SYNC_DEFECT_INSUFFICIENT_ATOMIC_SCOPE);
  const Race &data = d.races()[1];
  EXPECT_EQ(data.first_site, 0u);
  EXPECT_EQ(data.second_site, 3u);
  EXPECT_EQ(data.race_class, v1::RACE_CLASS_SCOPED);
  EXPECT_EQ(data.defect, v1::SYNC_DEFECT_LOCK_SCOPE_TOO_NARROW);
}

TEST(DetectorTest, BlockScopeSynchronizationSufficesWithinABlock) {
  EXPECT_TRUE(messagePassing(kScopeBlock, kScopeBlock, 0).races().empty());
}

TEST(DetectorTest, ReleaseWithoutAcquireFenceDoesNotOrder) {
  auto d = twoByTwo()
               .write(0, 0, 0, lane(0), TraceBuilder::same(kData))
               .fence(5, 0, 0, lane(0))
               .atomic(1, 0, 0, lane(0), TraceBuilder::same(kFlag))
               .atomic(2, 1, 0, lane(0), TraceBuilder::same(kFlag))
               .read(3, 1, 0, lane(0), TraceBuilder::same(kData))
               .run();
  EXPECT_EQ(onlyRace(d).race_class, v1::RACE_CLASS_INTER_BLOCK);
}

TEST(DetectorTest, SpinLockProtectsItsCriticalSections) {
  // lock: atomicCAS + fence; unlock: fence + atomicExch. Block 0 then 1.
  TraceBuilder t = twoByTwo();
  for (uint32_t block : {0u, 1u}) {
    t.atomic(1, block, 0, lane(0), TraceBuilder::same(kFlag))
        .fence(5, block, 0, lane(0))
        .read(3, block, 0, lane(0), TraceBuilder::same(kData))
        .write(0, block, 0, lane(0), TraceBuilder::same(kData))
        .fence(6, block, 0, lane(0))
        .atomic(2, block, 0, lane(0), TraceBuilder::same(kFlag));
  }
  EXPECT_TRUE(t.run().races().empty());
}

TEST(DetectorTest, LanesOfAWarpAtDifferentBarriersAreDivergence) {
  auto d = twoByTwo()
               .barrier(9, 0, 0, 0x0000ffff)
               .barrier(8, 0, 0, 0xffff0000)
               .run();
  const Race &r = onlyRace(d);
  EXPECT_EQ(r.race_class, v1::RACE_CLASS_BARRIER_DIVERGENCE);
  EXPECT_EQ(r.defect, v1::SYNC_DEFECT_DIVERGENT_BARRIER);
  EXPECT_EQ(r.first_site, 9u);
  EXPECT_EQ(r.second_site, 8u);
  EXPECT_EQ(r.second_tid, 16u);
}

TEST(DetectorTest, LanesReachingABarrierSeparatelyAreOneArrival) {
  TraceBuilder t = twoByTwo();
  t.write(0, 0, 0, lane(0), TraceBuilder::same(kData));
  for (uint32_t l = 0; l < 32; ++l)
    t.barrier(9, 0, 0, lane(l)).barrier(9, 0, 1, lane(l));
  t.read(1, 0, 1, lane(0), TraceBuilder::same(kData));
  EXPECT_TRUE(t.run().races().empty());
}

TEST(DetectorTest, LanesReachingAGridSyncSeparatelyAreOneArrival) {
  TraceBuilder t = twoByTwo();
  t.write(0, 0, 0, lane(0), TraceBuilder::same(kData));
  for (uint32_t b = 0; b < 2; ++b)
    for (uint32_t w = 0; w < 2; ++w)
      for (uint32_t l = 0; l < 32; ++l)
        t.gridSync(9, b, w, lane(l));
  t.read(1, 1, 1, lane(5), TraceBuilder::same(kData));
  // A second grid sync that only lane 0 of each warp has reached orders
  // nothing yet: the write after the first is unordered with the read.
  t.write(2, 0, 0, lane(0), TraceBuilder::same(kData + 64));
  for (uint32_t b = 0; b < 2; ++b)
    for (uint32_t w = 0; w < 2; ++w)
      t.gridSync(9, b, w, lane(0));
  t.read(3, 1, 1, lane(0), TraceBuilder::same(kData + 64));
  Detector d = t.run();
  const Race &race = onlyRace(d);
  EXPECT_EQ(race.first_site, 2u);
  EXPECT_EQ(race.second_site, 3u);
}

TEST(DetectorTest, PartialLastWarpReachingTheBarrierIsNotDivergence) {
  auto d = TraceBuilder({1, 1, 1}, {40, 1, 1}).barrierAll(9, 0).run();
  EXPECT_TRUE(d.races().empty());
}

TEST(DetectorTest, RepeatedRacesOfOnePairAreCountedOnce) {
  auto d = twoByTwo()
               .write(0, 0, 0, kFullWarp, TraceBuilder::perLane(kData))
               .read(1, 0, 1, kFullWarp, TraceBuilder::perLane(kData))
               .run();
  EXPECT_EQ(onlyRace(d).count, 32u);
}

TEST(DetectorTest, RecordsOutOfRangeAreSkippedAndCounted) {
  WarpRecord bad_block = TraceBuilder::header(kOpWrite, 0, 7, 0, 1);
  bad_block.size = 4;
  WarpRecord bad_op = TraceBuilder::header(42, 0, 0, 0, 1);
  WarpRecord bad_size = TraceBuilder::header(kOpRead, 0, 0, 0, 1);
  bad_size.size = 3;
  auto d = twoByTwo().raw(bad_block).raw(bad_op).raw(bad_size).run();
  EXPECT_TRUE(d.races().empty());
  EXPECT_EQ(d.stats().malformed_records, 3u);
  EXPECT_EQ(d.stats().records, 0u);
}

TEST(DetectorTest, ManyConcurrentReadersAreCappedAndCounted) {
  TraceBuilder t({1, 1, 1}, {1024, 1, 1});
  for (uint32_t w = 0; w < 32; ++w)
    t.read(1, 0, w, lane(0), TraceBuilder::same(kData));
  auto d = t.run();
  EXPECT_EQ(d.stats().shadow_evictions, 32 - ShadowMemory::kMaxEntries);
}

TEST(DetectorTest, AMillionThreadsFitInAFewBytesPerThread) {
  // 4096 blocks of 256 threads, every warp writes, barriers, reads.
  TraceBuilder t({4096, 1, 1}, {256, 1, 1});
  for (uint32_t b = 0; b < 4096; ++b) {
    for (uint32_t w = 0; w < 8; ++w)
      t.write(0, b, w, kFullWarp, TraceBuilder::perLane(b * 1024 + w * 128));
    t.barrierAll(9, b);
    for (uint32_t w = 0; w < 8; ++w)
      t.read(1, b, w, kFullWarp, TraceBuilder::perLane(b * 1024 + ((w + 1) % 8) * 128));
  }
  auto d = t.run();
  EXPECT_TRUE(d.races().empty());
  uint64_t threads = t.layout().numThreads();
  ASSERT_EQ(threads, 1u << 20);
  EXPECT_LT(d.stats().clock_bytes / threads, 16u);
}

} // namespace
} // namespace gpurace::rt
