// The files `gpurace upload` sends, decoded from their text: AnalysisResult
// JSON and SARIF, as the file's name says.
#include "server/cli/ResultFile.h"

#include <gtest/gtest.h>

namespace gpurace {
namespace {

Status decode(const std::string &text, const std::string &path,
              v1::AnalysisResult &result) {
  return decodeAnalysisResult(text, path, result);
}

TEST(ResultFile, TheNamePicksSarifOrJson) {
  const std::string json = R"({"toolVersion": "0.1.0"})";
  v1::AnalysisResult result;
  EXPECT_TRUE(decode(json, "result.json", result).ok());
  EXPECT_EQ(result.tool_version(), "0.1.0");
  Status sarif = decode(json, "result.sarif", result);
  EXPECT_NE(sarif.message.find("result.sarif: not a SARIF 2.1.0 log"),
            std::string::npos)
      << sarif.message;
}

TEST(ResultFile, SarifVersionIsTheDriversVersion) {
  v1::AnalysisResult result;
  Status s = decode(R"({"version": "2.1.0", "runs": [{"tool": {"driver":
      {"name": "gpurace", "version": "0.1.0"}}, "results": []}]})",
                    "result.sarif", result);
  EXPECT_TRUE(s.ok()) << s.message;
  EXPECT_EQ(result.tool_version(), "0.1.0");
}

// Found by fuzzing: a run without a tool, or a tool without a driver, was
// read with a const operator[], which reads past the end of the run's
// members (an assertion in a debug build).
TEST(ResultFile, SarifRunWithoutADriverHasNoVersion) {
  for (const char *run :
       {R"({"results": []})", R"({"tool": {}})", R"({"tool": "gpurace"})",
        R"({"tool": {"driver": 3}})"}) {
    v1::AnalysisResult result;
    Status s =
        decode(std::string(R"({"version": "2.1.0", "runs": [)") + run + "]}",
               "result.sarif", result);
    EXPECT_TRUE(s.ok()) << run << ": " << s.message;
    EXPECT_EQ(result.tool_version(), "") << run;
  }
}

TEST(ResultFile, SarifRunThatIsNotAnObjectIsRefused) {
  v1::AnalysisResult result;
  Status s = decode(R"({"version": "2.1.0", "runs": [1]})", "r.sarif", result);
  EXPECT_EQ(s.code, StatusCode::kInvalidArgument);
  EXPECT_NE(s.message.find("r.sarif: not a SARIF 2.1.0 log"), std::string::npos)
      << s.message;
}

} // namespace
} // namespace gpurace
