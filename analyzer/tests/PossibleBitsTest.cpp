// The bits an integer expression may set, read from its syntax: they decide
// when `a | b` is `a + b`, so a mask that misses a bit would be a wrong
// index and an impossible witness. Each expression's mask is checked against
// its value at every operand in a range, negative ones included, and a bank
// permutation of the thread index is decided as the permutation it is.
#include "analyzer/model/PossibleBits.h"
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

namespace gpurace::analyzer::testing {
namespace {

// The masks of the initializers of `f`'s locals, by name.
std::map<std::string, uint64_t> masksOf(const std::string &body) {
  std::string code = "void f(int t, unsigned u, signed char c) {\n" + body + "\n}\n";
  std::unique_ptr<clang::ASTUnit> unit =
      clang::tooling::buildASTFromCodeWithArgs(code, {"-std=c++17", "-w"}, "bits.cpp");
  std::map<std::string, uint64_t> out;
  if (!unit)
    return out;
  clang::ASTContext &ast = unit->getASTContext();
  for (clang::Decl *decl : ast.getTranslationUnitDecl()->decls()) {
    auto *function = clang::dyn_cast<clang::FunctionDecl>(decl);
    if (!function || !function->hasBody())
      continue;
    for (clang::Decl *inner : function->decls())
      if (auto *var = clang::dyn_cast<clang::VarDecl>(inner); var && var->getInit())
        out[var->getNameAsString()] = possibleBits(*var->getInit(), ast);
  }
  return out;
}

TEST(PossibleBits, MasksAndShiftsBoundTheBits) {
  auto masks = masksOf(R"(
long low = t & 15;
long moved = (t & 15) << 2;
long high = u & ~63u;
long down = (u & 48) >> 4;
long either = (t & 3) | (t & 12);
long any = t + 1;
const int lane = u & 31;
long through_const = lane << 1;
)");
  ASSERT_EQ(masks.size(), 8u);
  EXPECT_EQ(masks["low"], 15u);
  EXPECT_EQ(masks["moved"], 60u);
  EXPECT_EQ(masks["high"], 0xFFFFFFC0u); // unsigned: only its 32 bits
  EXPECT_EQ(masks["down"], 3u);
  EXPECT_EQ(masks["either"], 15u);
  EXPECT_EQ(masks["any"], ~uint64_t{0});
  EXPECT_EQ(masks["through_const"], 62u);
}

TEST(PossibleBits, ANegativeNarrowValueSetsEveryHigherBit) {
  // `c & 0x80` is -128 for a negative char: its sign extension sets every
  // bit from 7 up, which a mask of 0x80 alone would miss.
  auto masks = masksOf(R"(
long widened = (signed char)(c & 0x80);
long shifted = t >> 2;
long positive = (t & 0x7F) >> 2;
)");
  for (int c = -128; c < 128; ++c) {
    int64_t value = static_cast<signed char>(c & 0x80);
    EXPECT_EQ(static_cast<uint64_t>(value) & ~masks["widened"], 0u) << c;
  }
  EXPECT_EQ(masks["shifted"], ~uint64_t{0});
  EXPECT_EQ(masks["positive"], 0x1Fu);
}

// Thread t's slot in a 64-thread block: the low four bits move up two
// places and bits 4 and 5 come down to the bottom, a permutation.
const char *kBankPermutation = R"(
__global__ void count(const unsigned char *data, unsigned *hist) {
  __shared__ unsigned char slots[64];
  const unsigned pos = ((threadIdx.x & ~63u) << 0) |
                       ((threadIdx.x & 15) << 2) |
                       ((threadIdx.x & 48) >> %d);
  slots[pos] += data[blockIdx.x];
  __syncthreads();
  hist[blockIdx.x * 64 + threadIdx.x] = slots[threadIdx.x];
}
int main() {
  unsigned char *data; unsigned *hist;
  cudaMalloc(&data, 1 << 20); cudaMalloc(&hist, 1 << 20);
  count<<<128, 64>>>(data, hist);
}
)";

TEST(PossibleBits, ABankPermutationOfTheThreadIndexIsDecided) {
  char permutation[1024], folded[1024];
  std::snprintf(permutation, sizeof permutation, kBankPermutation, 4);
  // Shifting by five folds bits 4 and 5 into bit 0 alone: threads 0 and
  // 16 share slot 0.
  std::snprintf(folded, sizeof folded, kBankPermutation, 5);
  auto race_free = analyzeCode(permutation);
  EXPECT_TRUE(findings(race_free).empty()) << race_free.DebugString();
  auto racy = analyzeCode(folded);
  auto found = findings(racy);
  ASSERT_FALSE(found.empty()) << racy.DebugString();
  EXPECT_EQ(found[0].imprecisions_size(), 0) << found[0].DebugString();
}

} // namespace
} // namespace gpurace::analyzer::testing
