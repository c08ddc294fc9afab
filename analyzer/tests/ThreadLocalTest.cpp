// Storage private to a thread (local arrays, structs, references and
// pointers to locals) never races, but its values feed indices; and no
// construct of the language stops the analysis short of a clean error.
#include "analyzer/tests/AnalyzerTestSupport.h"

#include <gtest/gtest.h>

namespace gpurace::analyzer::testing {
namespace {

// A kernel `k(int *out)` with `body`, launched with one block of 64.
std::string kernel(const std::string &prelude, const std::string &body) {
  return prelude + "\n__global__ void k(int *out) {\n" + body +
         "\n}\nint main() { int *o; cudaMalloc(&o, 4096); k<<<1, 64>>>(o); }\n";
}

// Analyzed without an error and without a finding.
void expectRaceFree(const std::string &code) {
  v1::AnalysisResult result = analyzeCode(code);
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  EXPECT_EQ(result.kernels_analyzed(), 1u);
  EXPECT_TRUE(findings(result).empty()) << code << result.DebugString();
}

void expectRacy(const std::string &code) {
  v1::AnalysisResult result = analyzeCode(code);
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  EXPECT_FALSE(findings(result).empty()) << code;
}

TEST(ThreadLocal, ReadOfALocalArrayElementDoesNotCrash) {
  expectRaceFree(kernel("", "int m[2]; m[0] = 1; out[threadIdx.x] = m[0];"));
}

TEST(ThreadLocal, LocalArrayElementCarriesItsValueIntoAnIndex) {
  expectRaceFree(kernel("", "int m[2]; m[0] = threadIdx.x; m[1] = 0; out[m[0]] = 1;"));
  expectRacy(kernel("", "int m[2]; m[0] = threadIdx.x % 2; out[m[0]] = threadIdx.x;"));
}

TEST(ThreadLocal, LocalArrayAtASymbolicIndex) {
  expectRaceFree(kernel("", "int m[4]; int j = threadIdx.x % 4;\n"
                            "m[j] = threadIdx.x; out[m[j]] = 1;"));
  expectRacy(kernel("", "int m[4] = {0, 1, 2, 3};\n"
                        "out[m[threadIdx.x % 4]] = threadIdx.x;"));
}

TEST(ThreadLocal, InitializerListsAndCopies) {
  expectRaceFree(kernel("struct Pair { int a, b; };",
                        "Pair p = {(int)threadIdx.x, 7}; Pair q = p; out[q.a] = q.b;"));
  expectRacy(kernel("struct Pair { int a, b; };",
                    "Pair p = {(int)threadIdx.x, 7}; Pair q; q = p; out[q.b] = q.a;"));
}

TEST(ThreadLocal, StructLocalFields) {
  const char *prelude = "struct Pair { int a, b; };";
  expectRaceFree(kernel(prelude, "Pair p; p.a = threadIdx.x; p.b = 0; out[p.a] = 1;"));
  expectRacy(kernel(prelude, "Pair p; p.a = threadIdx.x; p.b = 0; out[p.b] = p.a;"));
}

// A helper object built by its constructor, named or inline
// (`Store(storage).Put(out, v)` as CUB's collectives are used): the field
// its initializer list or body sets is the thread's rank, not an unknown.
TEST(ThreadLocal, ConstructorsSetTheFieldsOfTheThreadsObjects) {
  const char *store =
      "struct Store { int rank; int unused;\n"
      "  __device__ Store(int r) : rank(r) {}\n"
      "  __device__ void Put(int *out, int v) { out[rank] = v; } };\n"
      "struct Counted { int rank;\n"
      "  __device__ Counted() { rank = threadIdx.x; } };\n"
      "struct Slot : Counted { int width;\n"
      "  __device__ Slot(int w) : Counted(), width(w) {} };";
  expectRaceFree(kernel(store, "Store(threadIdx.x).Put(out, threadIdx.x);"));
  expectRaceFree(kernel(store, "Store s(threadIdx.x); s.Put(out, threadIdx.x);"));
  expectRaceFree(kernel(store, "Slot s(2); out[s.rank * s.width] = threadIdx.x;"));
  expectRacy(kernel(store, "Store(threadIdx.x / 2).Put(out, threadIdx.x);"));
  expectRacy(kernel(store, "Slot s(0); out[s.rank * s.width] = threadIdx.x;"));
}

// A struct a device function returns by value holds what the function put
// in it, whether it is copied into a local, read through a member of the
// call or assigned over an existing local.
TEST(ThreadLocal, StructsReturnedByValueKeepTheirFields) {
  const char *pair =
      "struct Pair { int first, second; };\n"
      "__device__ Pair around(int x, int step) {\n"
      "  Pair p; p.first = x * 2; p.second = x * 2 + step; return p; }\n"
      "__device__ Pair listed(int x) { return Pair{x * 2, x * 2 + 1}; }";
  expectRaceFree(kernel(pair, "Pair p = around(threadIdx.x, 1);\n"
                              "out[p.first] = threadIdx.x; out[p.second] = threadIdx.x;"));
  expectRaceFree(kernel(pair, "out[listed(threadIdx.x).second] = threadIdx.x;"));
  expectRaceFree(kernel(pair, "Pair p; p = listed(threadIdx.x); out[p.first] = threadIdx.x;"));
  expectRacy(kernel(pair, "Pair p = around(threadIdx.x, 2);\n"
                          "out[p.first] = threadIdx.x; out[p.second] = threadIdx.x;"));
  expectRacy(kernel(pair, "out[listed(threadIdx.x / 2).second] = threadIdx.x;"));
}

// A struct copied from `c ? shared[i] : local` reads the shared element
// only where the condition holds, and the local is no memory at all.
TEST(ThreadLocal, AStructCopiedFromEitherBranchReadsOnlyTheBranchTaken) {
  const char *sums =
      "struct Sum { int total, count; };\n"
      "__device__ Sum gather(Sum mine, const Sum &none, Sum *staged, bool sync) {\n"
      "  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
      "  if (lane == 0) staged[warp] = mine;\n"
      "  if (sync) __syncthreads();\n"
      "  return threadIdx.x < blockDim.x / 32 ? staged[lane] : none;\n"
      "}";
  std::string ordered = "__shared__ Sum staged[2];\n"
                        "Sum s = gather(Sum{(int)threadIdx.x, 1}, Sum{0, 0}, staged, true);\n"
                        "if (threadIdx.x == 0) out[0] = s.total;";
  expectRaceFree(kernel(sums, ordered));
  // Without the barrier, lane 0 of warp 1 stores staged[1] while thread 1
  // reads it.
  std::string unordered = ordered;
  unordered.replace(unordered.find("true"), 4, "false");
  v1::AnalysisResult result = analyzeCode(kernel(sums, unordered));
  std::vector<v1::RaceCandidate> found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  for (const v1::RaceCandidate &race : found)
    EXPECT_TRUE(race.first().space() == v1::MEMORY_SPACE_SHARED &&
                race.second().space() == v1::MEMORY_SPACE_SHARED)
        << race.DebugString();
}

// `kHas ? p + n : nullptr` in an instantiation where kHas is a constant is
// that branch's pointer, not a pointer into any buffer at all.
TEST(ThreadLocal, APointerChosenByAConstantConditionIsThatBranchs) {
  const char *code = R"(
template <bool kGated>
__global__ void gate(const float *in, const float *gates, float *out, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *row = kGated ? gates + blockIdx.y * width : nullptr;
  float v = in[blockIdx.y * width + i];
  if (kGated) v *= row[i];
  out[blockIdx.y * width + i + 1] = v;
}
int main() {
  float *in, *g, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  gate<true><<<dim3(4, 16), 256>>>(in, g, OUT, 1024);
}
)";
  std::string apart = code;
  apart.replace(apart.find("OUT"), 3, "out");
  expectRaceFree(apart);
  // In place, thread i stores the element thread i + 1 reads.
  std::string in_place = code;
  in_place.replace(in_place.find("OUT"), 3, "in");
  v1::AnalysisResult result = analyzeCode(in_place);
  std::vector<v1::RaceCandidate> found = findings(result);
  ASSERT_FALSE(found.empty()) << result.DebugString();
  for (const v1::RaceCandidate &race : found)
    EXPECT_EQ(race.imprecisions_size(), 0) << race.DebugString();
}

// What a constructor writes to memory is an access like any other.
TEST(ThreadLocal, AConstructorsStoresAreAccesses) {
  const char *clear =
      "struct Row { int *at;\n"
      "  __device__ Row(int *out, int i, int v) : at(out + i) { *at = v; } };";
  expectRaceFree(kernel(clear, "Row r(out, threadIdx.x, threadIdx.x);"));
  expectRacy(kernel(clear, "Row r(out, threadIdx.x % 8, threadIdx.x);"));
}

// A loop that stores through a pointer into global memory leaves the
// thread's objects as they were; one whose pointer may come to point at a
// local does not.
TEST(ThreadLocal, StoresThroughAPointerIntoMemoryKeepTheLocalsOfALoop) {
  const char *quad =
      "struct Quad { int rank;\n"
      "  __device__ Quad(int r) : rank(r) {}\n"
      "  __device__ void Fill(int *out, int v) {\n"
      "    for (int k = 0; k < 4; ++k) out[rank * 4 + k] = v; } };";
  expectRaceFree(kernel(quad, "Quad q(threadIdx.x); q.Fill(out, threadIdx.x);"));
  expectRacy(kernel(quad, "Quad q(threadIdx.x / 2); q.Fill(out, threadIdx.x);"));
  expectRacy(kernel("", "int idx = threadIdx.x; int *p = out;\n"
                        "for (int k = 0; k < 2; ++k) { p[0] = 0; p = &idx; }\n"
                        "out[idx + 100] = threadIdx.x;"));
}

// A plain struct declared without an initializer and pointed at a local
// array (`flows.legs = legs`) keeps that pointer through a loop that fills
// the array through it: declaring it runs no constructor that could hand
// out its address.
TEST(ThreadLocal, AStructDeclaredPlainKeepsItsPointerToALocalArrayThroughALoop) {
  const char *flows = "struct Leg { int day; int amount; };\n"
                      "struct Flows { Leg *legs; int rate; };";
  expectRaceFree(kernel(flows, "Flows f; Leg legs[4]; f.legs = legs;\n"
                               "for (int k = 0; k < 4; ++k) f.legs[k].day = threadIdx.x;\n"
                               "out[threadIdx.x] = f.legs[2].day;"));
  expectRacy(kernel(flows, "Flows f; Leg legs[4]; f.legs = legs;\n"
                           "for (int k = 0; k < 4; ++k) f.legs[k].day = threadIdx.x;\n"
                           "f.legs = (Leg *)out;\n"
                           "f.legs[threadIdx.x % 8].day = threadIdx.x;"));
}

TEST(ThreadLocal, ReferenceToALocalWritesTheLocal) {
  expectRaceFree(kernel("", "int i = threadIdx.x; int &r = i; r += 1; out[i] = 1;"));
  expectRacy(kernel("", "int i = threadIdx.x; int &r = i; r = 0; out[i] = threadIdx.x;"));
}

TEST(ThreadLocal, ReferenceToGlobalMemoryIsAnAccessOfIt) {
  expectRaceFree(kernel("", "int &r = out[threadIdx.x]; r = 1;"));
  v1::AnalysisResult racy =
      analyzeCode(kernel("", "int &r = out[threadIdx.x % 2]; r = threadIdx.x;"));
  auto races = findings(racy);
  ASSERT_FALSE(races.empty());
  EXPECT_EQ(races[0].first().base_object(), "out");
}

TEST(ThreadLocal, PointerToALocal) {
  expectRaceFree(kernel("", "int x = 0; int *q = &x; *q = threadIdx.x; out[x] = 1;"));
  expectRacy(kernel("", "int x = threadIdx.x; int *q = &x; *q = 0; out[x] = threadIdx.x;"));
}

TEST(ThreadLocal, LoopWritesThroughAReferenceAreOverApproximated) {
  // In iteration k the local is no longer its value at the loop's entry.
  expectRacy(kernel("", "int i = threadIdx.x; int &r = i;\n"
                        "for (int k = 0; k < 4; ++k) { out[i] = k; r = 0; }"));
  expectRacy(kernel("", "int m[2]; m[0] = threadIdx.x;\n"
                        "for (int k = 0; k < 4; ++k) { out[m[0]] = k; m[0] = 0; }"));
}

TEST(ThreadLocal, ConstReferenceParameter) {
  const char *twice = "__device__ int twice(const int &v) { return 2 * v; }";
  expectRaceFree(kernel(twice, "int i = threadIdx.x; out[2 * i] = twice(i);"));
  expectRaceFree(kernel(twice, "out[twice(threadIdx.x + 1)] = 1;"));
  v1::AnalysisResult racy =
      analyzeCode(kernel(twice, "int i = threadIdx.x; out[i + 1] = twice(out[i]);"));
  EXPECT_EQ(racy.errors_size(), 0);
  EXPECT_FALSE(findings(racy).empty());
}

TEST(ThreadLocal, CallsOfUnusualShapes) {
  // Default argument, operator on a user type, lambda, variadic function.
  expectRaceFree(kernel(R"(
struct View {
  int *p;
  __device__ int &operator[](int i) const { return p[i]; }
};
__device__ int add(int a, const int &b = 3) { return a + b; }
__device__ int first(int n, ...) { return n; })",
                        R"(View v{out};
  auto at = [&](int i) -> int & { return out[i]; };
  v[add(threadIdx.x) - 3] = 1;
  at(64 + threadIdx.x) = 2;
  out[128 + first(threadIdx.x, 1, 2)] = 3;)"));
  expectRacy(kernel("struct View { int *p;\n"
                    "  __device__ int &operator[](int i) const { return p[i]; } };",
                    "View v{out}; v[threadIdx.x % 2] = threadIdx.x;"));
}

TEST(ThreadLocal, RecursionIsBoundedAndStillSeesAccesses) {
  expectRacy(kernel("__device__ int fib(int *out, int n) {\n"
                    "  if (n < 2) { out[0] = n; return n; }\n"
                    "  return fib(out, n - 1) + fib(out, n - 2);\n}",
                    "fib(out, threadIdx.x);"));
}

TEST(ThreadLocal, StatementShapes) {
  expectRaceFree(kernel("", R"(int t = threadIdx.x;
  int s = ({ int u = t * 2; u; });
  switch (t % 3) {
  case 0: out[s] = 1; break;
  case 1: out[s] = 2;
  default: out[s] = 3;
  }
  int m[3] = {1, 2, 3};
  int sum = 0;
  for (int v : m) sum += v;
  do { out[128 + t] = sum; } while (0);
  if (__builtin_expect(t < 32, 1)) out[256 + t] = 0;)"));
  // A write the switch makes in any case is seen.
  expectRacy(kernel("", "switch (threadIdx.x % 4) { case 0: break; case 2: out[0] = threadIdx.x; }"));
}

TEST(ThreadLocal, UnsupportedConstructsAreErrorsNamingTheKernel) {
  for (const char *body : {"int i = threadIdx.x;\nagain: out[i] = 1; if (--i > 0) goto again;",
                           "void (*f)(int *) = nullptr; f(out);"}) {
    v1::AnalysisResult result = analyzeCode(kernel("", body));
    ASSERT_EQ(result.errors_size(), 1) << body;
    EXPECT_NE(result.errors(0).message().find("'k'"), std::string::npos)
        << result.errors(0).message();
  }
  v1::AnalysisResult virtual_call = analyzeCode(kernel(
      "struct Base { __device__ virtual void put(int *o) { o[0] = 1; } };",
      "Base b; Base *p = &b; p->put(out);"));
  ASSERT_EQ(virtual_call.errors_size(), 1);
  EXPECT_NE(virtual_call.errors(0).message().find("virtual call"), std::string::npos);
}

} // namespace
} // namespace gpurace::analyzer::testing
