// The shadow's storage: entry lists that start inline and move to the heap,
// and words grouped in chunks that never move.
#include "runtime/detector/ShadowMemory.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpurace::rt {
namespace {

ShadowAccess entry(uint32_t site) {
  ShadowAccess a{};
  a.tid = site;
  a.site = site;
  a.bytes = 0xff;
  a.op = kOpRead;
  return a;
}

std::vector<uint32_t> sites(const AccessList &list) {
  std::vector<uint32_t> out;
  for (const ShadowAccess &a : list)
    out.push_back(a.site);
  return out;
}

TEST(ShadowMemoryTest, AnAccessListKeepsItsOrderOnAndOffTheHeap) {
  AccessList list;
  for (uint32_t site = 1; site <= 5; ++site)
    list.push_back(entry(site));
  EXPECT_EQ(sites(list), (std::vector<uint32_t>{1, 2, 3, 4, 5}));
  list.removeIf([](const ShadowAccess &a) { return a.site % 2 == 1; });
  EXPECT_EQ(sites(list), (std::vector<uint32_t>{2, 4}));
  list.push_back(entry(6));
  list.pop_front();
  EXPECT_EQ(sites(list), (std::vector<uint32_t>{4, 6}));
  list.pop_front();
  list.pop_front();
  EXPECT_EQ(list.size(), 0u);
  list.push_back(entry(7));
  EXPECT_EQ(sites(list), (std::vector<uint32_t>{7}));
}

TEST(ShadowMemoryTest, WordsAreDistinctAndStayInPlaceAsOthersAreAdded) {
  ShadowMemory shadow;
  ShadowWord &first = shadow.word(ShadowMemory::globalKey(0x1000));
  first.writes.push_back(entry(1));
  // Neighbours in the same chunk, and a million words in other chunks.
  for (uint64_t address = 0x1008; address < 0x1000 + 8 * (1u << 20); address += 8)
    shadow.word(ShadowMemory::globalKey(address)).reads.push_back(entry(2));
  EXPECT_EQ(&first, &shadow.word(ShadowMemory::globalKey(0x1000)));
  EXPECT_EQ(sites(first.writes), std::vector<uint32_t>{1});
  EXPECT_EQ(first.reads.size(), 0u);
  EXPECT_EQ(shadow.words(), size_t(1) << 20);
  // Offset X of two blocks' shared memory is two words.
  shadow.word(ShadowMemory::sharedKey(0, 0)).writes.push_back(entry(3));
  EXPECT_EQ(shadow.word(ShadowMemory::sharedKey(1, 0)).writes.size(), 0u);
}

} // namespace
} // namespace gpurace::rt
