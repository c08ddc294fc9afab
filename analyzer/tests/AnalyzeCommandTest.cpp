// `gpurace analyze` as CI and editors use it: exit codes, errors that name
// the file, formats, the plan, and stable fingerprints.
#include "analyzer/report/Ranking.h"
#include "analyzer/tests/AnalyzerTestSupport.h"
#include "proto/JsonCodec.h"
#include "tests/support/RunProcess.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace gpurace::analyzer::testing {
namespace {

using gpurace::testing::gpuraceBinary;
using gpurace::testing::ProcessResult;
using gpurace::testing::runProcess;

const char *kRacy = R"(
__global__ void shift(int *A, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n - 1) A[t] = A[t + 1];
}
int main() { int *a; cudaMalloc(&a, 4096); shift<<<4, 256>>>(a, 1024); }
)";

const char *kRaceFree = R"(
__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}
int main() { float *a; cudaMalloc(&a, 4096); scale<<<4, 256>>>(a, 1024); }
)";

v1::AnalysisResult parseResult(const std::string &json) {
  v1::AnalysisResult result;
  std::string error;
  EXPECT_TRUE(fromJson(json, result, error)) << error;
  return result;
}

TEST(AnalyzeCommand, ExitCodesSayWhetherThereAreFindings) {
  TempSource racy(kRacy), clean(kRaceFree);
  EXPECT_EQ(runProcess({gpuraceBinary(), "analyze", racy.path()}).exit_code, 2);
  EXPECT_EQ(runProcess({gpuraceBinary(), "analyze", clean.path()}).exit_code, 0);
}

TEST(AnalyzeCommand, TextOutputIsClangStyleWithANoteAtTheOtherAccess) {
  TempSource racy(kRacy);
  ProcessResult r = runProcess({gpuraceBinary(), "analyze", racy.path()});
  std::string where = racy.path() + ":4:";
  EXPECT_NE(r.out.find(where + "18: warning: inter-block data race on 'A[t]'"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[gpurace-inter-block]"), std::string::npos);
  EXPECT_NE(r.out.find(where + "25: note: conflicting read of 'A' here"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("note: witness: thread"), std::string::npos);
  EXPECT_EQ(r.out.find("\033["), std::string::npos) << "no colour when piped";
}

TEST(AnalyzeCommand, FileThatDoesNotParseIsReportedAndOthersStillAnalyzed) {
  TempSource broken("__global__ void k(int *a) { a[0] = ; }\n", "broken.cu");
  TempSource racy(kRacy, "racy.cu");
  ProcessResult r = runProcess({gpuraceBinary(), "analyze", "--format=json",
                                broken.path(), racy.path()});
  EXPECT_EQ(r.exit_code, 1);
  v1::AnalysisResult result = parseResult(r.out);
  // Clang's error, and the kernel it kept out, each named once.
  ASSERT_EQ(result.errors_size(), 2);
  EXPECT_EQ(result.errors(0).kernel(), "k");
  EXPECT_EQ(result.errors(0).phase(), "device");
  EXPECT_EQ(result.errors(1).file(), broken.path());
  EXPECT_EQ(result.errors(1).line(), 1u);
  EXPECT_NE(result.errors(1).message().find("expected expression"), std::string::npos);
  ASSERT_EQ(result.partial_files_size(), 1);
  EXPECT_EQ(result.partial_files(0), broken.path());
  EXPECT_GT(result.candidates_size(), 0) << "the good file is still analyzed";
}

TEST(AnalyzeCommand, RuntimeApiThatCuda12RemovedStillParses) {
  // Texture references and cudaThreadSynchronize, as programs written for
  // CUDA 11 and earlier use them: no parse error, with the toolkit's
  // headers or gpurace's own, and the kernel's race is found.
  const char *code = R"(
texture<float, 1, cudaReadModeElementType> weights;
__global__ void blend(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i / 2] = tex1Dfetch(weights, i);
}
int main() {
  float *w, *out;
  cudaMalloc(&w, 4096);
  cudaMalloc(&out, 4096);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaBindTexture(0, &weights, w, &desc, 4096);
  blend<<<4, 256>>>(out, 1024);
  cudaThreadSynchronize();
  cudaUnbindTexture(weights);
}
)";
  for (bool fallback : {false, true}) {
    AnalyzeOptions options;
    options.fallback_headers = fallback;
    auto result = analyzeCode(code, options);
    EXPECT_EQ(result.errors_size(), 0) << "fallback " << fallback << result.DebugString();
    EXPECT_FALSE(findings(result).empty()) << "fallback " << fallback;
  }
}

TEST(AnalyzeCommand, NvccVersionMacrosFollowTheToolkitsHeaders) {
  // Programs choose an API by __CUDACC_VER_MAJOR__, which nvcc predefines
  // and Clang does not: with a toolkit's headers the three macros give the
  // toolkit's version, so the branch nvcc compiles is the one analyzed.
  const char *code = R"(
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) || \
    !defined(__CUDACC_VER_BUILD__)
#error "nvcc's version macros are missing"
#elif __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDA_VERSION
#error "nvcc's version macros disagree with CUDA_VERSION"
#endif
__global__ void halve(int *out) { out[threadIdx.x / 2] = threadIdx.x; }
int main() { int *o; cudaMalloc(&o, 4096); halve<<<1, 64>>>(o); }
)";
  auto result = analyzeCode(code);
  if (result.front_end().headers() != "toolkit")
    GTEST_SKIP() << "no CUDA toolkit found: parsed with gpurace's own headers";
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  EXPECT_FALSE(findings(result).empty()) << result.DebugString();
}

TEST(AnalyzeCommand, ProgramsThatTestNvccMarkTheirDeviceFunctionsAsUnderNvcc) {
  // Code written for several compilers blanks the CUDA keywords where
  // __NVCC__ is not defined; under nvcc it is, the helper is a device
  // function, and the kernel's call of it is valid. CCCL and cooperative
  // groups, which also test it, still parse (gpurace's own headers have no
  // CCCL).
  const std::string program = R"(
#if !defined(__NVCC__)
#define __device__
#define __host__
#endif
__host__ __device__ unsigned long long step(unsigned long long seed, int n) {
  return seed * 6364136223846793005ULL + n;
}
__global__ void sample(unsigned long long *out) {
  cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
  out[block.thread_rank() / 2] = step(1070, threadIdx.x);
}
int main() { unsigned long long *o; cudaMalloc(&o, 4096); sample<<<1, 64>>>(o); }
)";
  const std::string groups = "#include <cooperative_groups.h>\n";
  for (bool fallback : {false, true}) {
    AnalyzeOptions options;
    options.fallback_headers = fallback;
    std::string cccl = fallback ? "" : "#include <cub/block/block_reduce.cuh>\n";
    auto result = analyzeCode(groups + cccl + program, options);
    if (!fallback && result.front_end().headers() != "toolkit")
      continue; // no CUDA toolkit found: parsed with gpurace's own headers
    EXPECT_EQ(result.errors_size(), 0) << "fallback " << fallback << result.DebugString();
    EXPECT_FALSE(findings(result, v1::RACE_CLASS_INTRA_WARP).empty())
        << "fallback " << fallback << result.DebugString();
  }
}

TEST(AnalyzeCommand, AMacroRightAfterAStringLiteralParsesAsNvccReadsIt) {
  // `"text"MACRO`: GCC, nvcc's host compiler, reads a string and a macro
  // with a warning, where Clang's default is an error that would keep the
  // kernel out of the analysis.
  const char *code = R"(
#include <cstdio>
#define NODE_ID "%d"
__global__ void visit(int *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) printf("node ("NODE_ID")\n", seen[i / 2]++);
}
int main() { int *a; cudaMalloc(&a, 4096); visit<<<4, 256>>>(a, 1024); }
)";
  auto result = analyzeCode(code);
  EXPECT_EQ(result.errors_size(), 0) << result.DebugString();
  EXPECT_FALSE(findings(result).empty()) << result.DebugString();
}

TEST(AnalyzeCommand, MissingFileAndBadFlagsAreOneLineErrors) {
  ProcessResult missing = runProcess({gpuraceBinary(), "analyze", "/nonexistent/x.cu"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/nonexistent/x.cu"), std::string::npos) << missing.err;
  TempSource racy(kRacy);
  ProcessResult dims = runProcess(
      {gpuraceBinary(), "analyze", "--blockDim=[0,2]", racy.path()});
  EXPECT_EQ(dims.exit_code, 1);
  EXPECT_NE(dims.err.find("--blockDim"), std::string::npos) << dims.err;
  ProcessResult format = runProcess(
      {gpuraceBinary(), "analyze", "--format=xml", racy.path()});
  EXPECT_EQ(format.exit_code, 1);
}

TEST(AnalyzeCommand, AFolderIsEveryCudaFileBelowIt) {
  // The kernel and its launch in two files of a folder, one a level down:
  // analyzed together, the launch's n bounds the shift.
  char pattern[] = "/tmp/gpurace-folder-XXXXXX";
  std::filesystem::path folder = mkdtemp(pattern);
  std::filesystem::create_directories(folder / "src");
  std::ofstream(folder / "src" / "kernel.cu") << R"(
__global__ void shift(int *A, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n - 1) A[t] = A[t + 1];
}
)";
  std::ofstream(folder / "main.cu") << R"(
__global__ void shift(int *A, int n);
int main() { int *a; cudaMalloc(&a, 4096); shift<<<4, 256>>>(a, 1024); }
)";
  std::ofstream(folder / "notes.txt") << "not a source";
  ProcessResult r = runProcess({gpuraceBinary(), "analyze", "--format=json", folder.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  v1::AnalysisResult result = parseResult(r.out);
  EXPECT_EQ(result.files_analyzed_size(), 2) << r.out;
  ASSERT_GT(result.candidates_size(), 0) << r.out;
  bool n_from_launch = false;
  for (const auto &p : result.candidates(0).witness().parameters())
    n_from_launch |= p.name() == "n" && p.value() == "1024";
  EXPECT_TRUE(n_from_launch) << result.candidates(0).witness().DebugString();

  std::filesystem::create_directories(folder / "empty");
  ProcessResult empty = runProcess({gpuraceBinary(), "analyze", (folder / "empty").string()});
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.err.find("holds no .cu file"), std::string::npos) << empty.err;
  std::filesystem::remove_all(folder);
}

TEST(AnalyzeCommand, ParallelJobsGiveTheSameResult) {
  TempSource a(kRacy, "a.cu"), b(kRaceFree, "b.cu"), c(kRacy, "c.cu");
  auto run = [&](const char *jobs) {
    ProcessResult r = runProcess({gpuraceBinary(), "analyze", "--format=json", "--all",
                                  jobs, a.path(), b.path(), c.path()});
    v1::AnalysisResult result = parseResult(r.out);
    result.clear_started_at();
    result.clear_finished_at();
    return result.SerializeAsString();
  };
  EXPECT_EQ(run("-j1"), run("-j3"));
}

TEST(AnalyzeCommand, KernelsOfOneFileCheckedSideBySideGiveTheSameResult) {
  // One file, four kernels: with spare jobs they are checked at once, and
  // the report is the one a single job gives, kernel by kernel in order.
  TempSource file(R"(
__global__ void shiftLeft(int *a) { a[threadIdx.x] = a[threadIdx.x + 1]; }
__global__ void copy(int *out, const int *in) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void total(int *sum, const int *in) { *sum += in[threadIdx.x]; }
__global__ void reverse(int *a) {
  __shared__ int s[256];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[255 - threadIdx.x];
}
int main() {
  int *a, *b;
  cudaMalloc(&a, 4096);
  cudaMalloc(&b, 4096);
  shiftLeft<<<1, 256>>>(a);
  copy<<<1, 256>>>(a, b);
  total<<<1, 256>>>(a, b);
  reverse<<<1, 256>>>(a);
}
)");
  auto run = [&](const char *jobs) {
    ProcessResult r =
        runProcess({gpuraceBinary(), "analyze", "--format=json", "--all", jobs, file.path()});
    v1::AnalysisResult result = parseResult(r.out);
    EXPECT_EQ(result.kernels_analyzed(), 4u) << r.out;
    result.clear_started_at();
    result.clear_finished_at();
    return result;
  };
  v1::AnalysisResult one = run("-j1"), four = run("-j4");
  EXPECT_EQ(one.SerializeAsString(), four.SerializeAsString());
  std::set<std::string> racy;
  for (const v1::RaceCandidate &candidate : four.candidates())
    racy.insert(candidate.kernel());
  EXPECT_EQ(racy, (std::set<std::string>{"shiftLeft", "total", "reverse"}));
}

TEST(AnalyzeCommand, AHelperCalledSeveralTimesIsOneWarningPerPairOfItsAccesses) {
  // Inlined at each call, the helper's one store is three access sites; every
  // pair of them races, within a warp and across warps. JSON lists each pair
  // of calls, the text names the calls under one warning per race class.
  TempSource file(R"(__device__ void put(int *a, int i, int v) { a[i] = v; }
__global__ void fill(int *a) {
  int t = threadIdx.x;
  put(a, t, 1);
  put(a, t + 1, 2);
  put(a, t + 2, 3);
}
int main() { int *a; cudaMalloc(&a, 4096); fill<<<1, 64>>>(a); }
)");
  v1::AnalysisResult result =
      parseResult(runProcess({gpuraceBinary(), "analyze", "--format=json", file.path()}).out);
  std::set<v1::RaceClass> classes;
  for (const v1::RaceCandidate &c : result.candidates())
    classes.insert(c.race_class());
  EXPECT_EQ(result.candidates_size(), 6) << "three pairs of calls, two classes each";
  ProcessResult r = runProcess({gpuraceBinary(), "analyze", file.path()});
  size_t warnings = 0;
  for (size_t at = r.out.find("warning:"); at != std::string::npos;
       at = r.out.find("warning:", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, classes.size()) << r.out;
  const std::string callee = ": note: the access is in 'put', called from 'fill' here";
  EXPECT_NE(r.out.find(callee), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 more pairs of calls reach the same two accesses: k.cu:"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("6 races found in 1 kernels of 1 file (4 of them through other calls"),
            std::string::npos)
      << r.out;
  // SARIF keeps each pair; each thread's flow goes through its call of put.
  auto sarif = nlohmann::json::parse(
      runProcess({gpuraceBinary(), "analyze", "--format=sarif", file.path()}).out);
  auto results = sarif["runs"][0]["results"];
  ASSERT_EQ(results.size(), 6u) << sarif.dump(1);
  for (const auto &flow : results[0]["codeFlows"][0]["threadFlows"]) {
    ASSERT_EQ(flow["locations"].size(), 2u) << flow.dump(1);
    EXPECT_EQ(flow["locations"][0]["location"]["message"]["text"], "calls 'put'");
    EXPECT_GE(flow["locations"][0]["location"]["physicalLocation"]["region"]["startLine"], 4);
    EXPECT_EQ(flow["locations"][1]["location"]["physicalLocation"]["region"]["startLine"], 1);
  }
}

TEST(AnalyzeCommand, FingerprintSurvivesEditsElsewhereInTheFile) {
  v1::AnalysisResult before = analyzeCode(kRacy);
  v1::AnalysisResult after =
      analyzeCode(std::string("// a comment\n#include <cstdio>\n\n") + kRacy);
  ASSERT_GT(before.candidates_size(), 0);
  ASSERT_EQ(before.candidates_size(), after.candidates_size());
  for (int i = 0; i < before.candidates_size(); ++i) {
    EXPECT_EQ(before.candidates(i).fingerprint(), after.candidates(i).fingerprint());
    EXPECT_EQ(before.candidates(i).first().site_id(), after.candidates(i).first().site_id());
    EXPECT_NE(before.candidates(i).first().location().line(),
              after.candidates(i).first().location().line());
  }
  EXPECT_EQ(before.candidates(0).fingerprint().rfind("v1:", 0), 0u);
}

// The same program in two checkouts: what is recorded names its files
// relative to the project root, so both results agree.
TEST(AnalyzeCommand, RecordedPathsAreRelativeToTheProjectRoot) {
  namespace fs = std::filesystem;
  TempSource first(kRacy), second(kRacy);
  std::vector<std::string> roots;
  for (const TempSource *checkout : {&first, &second}) {
    fs::path root = fs::path(checkout->path()).parent_path();
    fs::create_directories(root / ".git");
    fs::create_directories(root / "src");
    fs::rename(checkout->path(), root / "src" / "k.cu");
    roots.push_back(root.string());
  }
  // From a subdirectory of the first checkout, the root is its git top
  // level; the second is named with --root from anywhere.
  ProcessResult in_tree = runProcess(
      {"/bin/sh", "-c",
       "cd '" + roots[0] + "/src' && '" + gpuraceBinary() +
           "' analyze --format=json k.cu"});
  ProcessResult with_flag =
      runProcess({gpuraceBinary(), "analyze", "--format=json", "--root",
                  roots[1], roots[1] + "/src/k.cu"});
  v1::AnalysisResult a = parseResult(in_tree.out), b = parseResult(with_flag.out);
  ASSERT_GT(a.candidates_size(), 0) << in_tree.err;
  ASSERT_EQ(a.candidates_size(), b.candidates_size());
  EXPECT_EQ(a.files_analyzed(0), "src/k.cu");
  EXPECT_EQ(b.files_analyzed(0), "src/k.cu");
  for (int i = 0; i < a.candidates_size(); ++i) {
    EXPECT_EQ(a.candidates(i).first().location().file(), "src/k.cu");
    EXPECT_EQ(b.candidates(i).second().location().file(), "src/k.cu");
    EXPECT_EQ(a.candidates(i).fingerprint(), b.candidates(i).fingerprint());
  }
  EXPECT_EQ(a.plan().access_sites(0).location().file(), "src/k.cu");

  // SARIF anchors the relative URIs at the root it records.
  ProcessResult sarif =
      runProcess({gpuraceBinary(), "analyze", "--format=sarif", "--root",
                  roots[1], roots[1] + "/src/k.cu"});
  auto run = nlohmann::json::parse(sarif.out)["runs"][0];
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"],
            "file://" + fs::canonical(roots[1]).string() + "/");
  auto artifact =
      run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(artifact["uri"], "src/k.cu");
  EXPECT_EQ(artifact["uriBaseId"], "SRCROOT");

  ProcessResult bad = runProcess({gpuraceBinary(), "analyze", "--root",
                                  roots[1] + "/nowhere", roots[1] + "/src/k.cu"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--root"), std::string::npos) << bad.err;
}

TEST(AnalyzeCommand, SarifHasTwoLocationsAndAThreadFlowPerThread) {
  TempSource racy(kRacy);
  ProcessResult r = runProcess({gpuraceBinary(), "analyze", "--format=sarif", racy.path()});
  EXPECT_EQ(r.exit_code, 2);
  auto sarif = nlohmann::json::parse(r.out);
  EXPECT_EQ(sarif["version"], "2.1.0");
  const auto &run = sarif["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "gpurace");
  ASSERT_GT(run["results"].size(), 0u);
  const auto &result = run["results"][0];
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["region"]["startLine"], 4);
  EXPECT_EQ(result["relatedLocations"].size(), 1u);
  EXPECT_EQ(result["codeFlows"][0]["threadFlows"].size(), 2u);
  EXPECT_EQ(result["partialFingerprints"]["gpuraceFingerprint/v1"].get<std::string>().rfind("v1:", 0), 0u);
  std::string rule = result["ruleId"];
  bool rule_declared = false;
  for (const auto &r : run["tool"]["driver"]["rules"])
    rule_declared |= r["id"] == rule;
  EXPECT_TRUE(rule_declared);
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const char *kCounter = R"(
__global__ void countPositive(const int *in, int *count) {
  if (in[threadIdx.x] > 0)
    count[0] += 1;
}
int main() { int *a, *c; cudaMalloc(&a, 1024); cudaMalloc(&c, 4); countPositive<<<1, 256>>>(a, c); }
)";

// --fix reports each finding's verified repair and leaves the file as it
// was: a fix-it note with the lines in text, SARIF fixes whose replacements
// turn the file into the repaired program.
TEST(AnalyzeCommand, FixAttachesTheVerifiedRepairToEachFindingInEveryFormat) {
  TempSource racy(kCounter);
  std::string original = readFile(racy.path());
  ProcessResult text = runProcess({gpuraceBinary(), "analyze", "--fix", racy.path()});
  EXPECT_EQ(text.exit_code, 2) << text.err;
  EXPECT_NE(text.out.find("note: fix-it: make 'count[0] += 1' atomic"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("  -    count[0] += 1;\n  +    atomicAdd(&count[0], 1);\n"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(readFile(racy.path()), original);

  ProcessResult sarif_run =
      runProcess({gpuraceBinary(), "analyze", "--fix", "--format=sarif", racy.path()});
  auto sarif = nlohmann::json::parse(sarif_run.out);
  unsigned fixes = 0;
  for (const auto &result : sarif["runs"][0]["results"]) {
    if (!result.contains("fixes"))
      continue;
    ++fixes;
    const auto &change = result["fixes"][0]["artifactChanges"][0];
    EXPECT_EQ(change["artifactLocation"]["uri"], racy.path());
    ASSERT_EQ(change["replacements"].size(), 1u);
    const auto &replacement = change["replacements"][0];
    const auto &region = replacement["deletedRegion"];
    // Replace the region (1-based lines and columns, end exclusive) in the
    // file's lines as a code-scanning UI would.
    std::vector<std::string> lines;
    std::istringstream in(original);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    unsigned line = region["startLine"], column = region["startColumn"];
    ASSERT_EQ(region["endLine"], line);
    unsigned end = region["endColumn"];
    std::string &at = lines[line - 1];
    at = at.substr(0, column - 1) + replacement["insertedContent"]["text"].get<std::string>() +
         at.substr(end - 1);
    EXPECT_EQ(at, "    atomicAdd(&count[0], 1);");
    EXPECT_EQ(result["properties"]["repair"]["kind"], "REPAIR_KIND_ATOMIC");
  }
  EXPECT_EQ(fixes, 1u) << sarif_run.out;
}

TEST(AnalyzeCommand, PlanListsTheSitesOfFindingsAndTheKernelsSyncs) {
  TempSource source(R"(
__global__ void k(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x ^ 1] + s[threadIdx.x];
  s[threadIdx.x] = 2;
}
int main() { float *o; cudaMalloc(&o, 256); k<<<1, 64>>>(o); }
)");
  std::string plan_path = source.path() + ".plan.json";
  ProcessResult r = runProcess({gpuraceBinary(), "analyze", "--plan", plan_path,
                                "--overflow=wrap", source.path()});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  v1::InstrumentationPlan plan;
  std::string error;
  ASSERT_TRUE(fromJson(readFile(plan_path), plan, error)) << error;
  ASSERT_EQ(plan.kernels_size(), 1);
  EXPECT_EQ(plan.kernels(0), "k");
  EXPECT_GE(plan.access_sites_size(), 2);
  for (const auto &site : plan.access_sites()) {
    EXPECT_EQ(site.site_id().rfind("s-", 0), 0u);
    EXPECT_GE(site.location().end_column(), site.location().column());
    EXPECT_NE(site.location().line(), 4u) << "the write before the barrier is not in a race";
  }
  ASSERT_EQ(plan.sync_sites_size(), 1);
  EXPECT_EQ(plan.sync_sites(0).kind(), v1::SYNC_KIND_BARRIER);
  std::remove(plan_path.c_str());
}

TEST(AnalyzeCommand, IntentionalCommentSuppressesTheFinding) {
  TempSource source(R"(
__global__ void flag(int *done) {
  *done = 1; // gpurace: intentional every thread writes the same value
}
int main() { int *d; cudaMalloc(&d, 4); flag<<<2, 32>>>(d); }
)");
  ProcessResult r = runProcess({gpuraceBinary(), "analyze", "--format=json", "--all",
                                source.path()});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  v1::AnalysisResult result = parseResult(r.out);
  ASSERT_GT(result.candidates_size(), 0);
  EXPECT_EQ(result.candidates(0).suppression().kind(), "intentional");
  EXPECT_EQ(result.candidates(0).suppression().reason(),
            "every thread writes the same value");
}

TEST(AnalyzeCommand, CompileCommandsSupplyIncludePaths) {
  char pattern[] = "/tmp/gpurace-ccdb-XXXXXX";
  std::string dir = mkdtemp(pattern);
  std::ofstream(dir + "/sizes.h") << "#define TILE 16\n";
  std::ofstream(dir + "/k.cu") << "#include \"sizes.h\"\n"
                                  "__global__ void k(int *a) { a[threadIdx.x % TILE] = threadIdx.x; }\n"
                                  "int main() { int *a; cudaMalloc(&a, 64); k<<<1, 32>>>(a); }\n";
  nlohmann::json db = nlohmann::json::array(
      {{{"directory", dir},
        {"command", "/usr/local/cuda/bin/nvcc -Iinc -I" + dir +
                        " -DNDEBUG --generate-code=arch=compute_90,code=sm_90 -x cu -c k.cu -o k.o"},
        {"file", dir + "/k.cu"}}});
  std::ofstream(dir + "/compile_commands.json") << db.dump();
  ProcessResult r = runProcess({gpuraceBinary(), "analyze", "-p", dir});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("k.cu:2:"), std::string::npos) << r.out;
  for (const char *f : {"/sizes.h", "/k.cu", "/compile_commands.json"})
    std::remove((dir + f).c_str());
  rmdir(dir.c_str());
}

} // namespace
} // namespace gpurace::analyzer::testing

namespace gpurace::analyzer::testing {
namespace {

const char *kCopyAhead = R"(
#include <cassert>
#include <cstdlib>
__global__ void copyAhead(float *a, int offset) {
  a[threadIdx.x + offset] = a[threadIdx.x];
}
int main(int argc, char **argv) {
  int offset = atoi(argv[1]);
  assert(offset >= 64);
  float *a; cudaMalloc(&a, 4096);
  copyAhead<<<1, 64>>>(a, offset);
}
)";

TEST(AnalyzeCommand, ExplainNamesTheHostFactsARaceFreePairReliesOn) {
  TempSource source(kCopyAhead);
  ProcessResult r =
      runProcess({gpuraceBinary(), "analyze", "--explain", source.path()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("do not race in the launch at k.cu:11 because "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("offset >= 64 (assert at k.cu:9)"), std::string::npos) << r.out;
  // Without --explain the text report stays quiet about proofs.
  ProcessResult quiet = runProcess({gpuraceBinary(), "analyze", source.path()});
  EXPECT_EQ(quiet.out.find("do not race"), std::string::npos) << quiet.out;
}

TEST(AnalyzeCommand, NoHostAnalyzesTheKernelAlone) {
  TempSource source(kCopyAhead);
  ProcessResult r = runProcess(
      {gpuraceBinary(), "analyze", "--no-host", "--format=json", source.path()});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  v1::AnalysisResult result = parseResult(r.out);
  EXPECT_FALSE(result.options().use_host_facts());
  ASSERT_GT(result.candidates_size(), 0);
  EXPECT_FALSE(result.candidates(0).has_launch_site());
}

TEST(AnalyzeCommand, UploadNeedsAProjectAndReportsAnUnreachableServer) {
  TempSource racy(kRacy);
  ProcessResult no_project = runProcess(
      {gpuraceBinary(), "analyze", "--upload", "127.0.0.1:1", racy.path()});
  EXPECT_EQ(no_project.exit_code, 1);
  EXPECT_NE(no_project.err.find("--upload needs --project"), std::string::npos)
      << no_project.err;
  ProcessResult unreachable =
      runProcess({gpuraceBinary(), "analyze", "--upload", "127.0.0.1:1",
                  "--project", "p", racy.path()});
  EXPECT_EQ(unreachable.exit_code, 1);
  EXPECT_NE(unreachable.err.find("127.0.0.1:1"), std::string::npos) << unreachable.err;
}

} // namespace
} // namespace gpurace::analyzer::testing
