#include "analyzer/repair/ProgramUnderRepair.h"

#include "analyzer/Analyzer.h"

#include <fstream>
#include <sstream>

namespace gpurace::analyzer {

bool loadProgram(const AnalyzeOptions &options, ProgramUnderRepair &program,
                 std::string &error) {
  std::vector<std::string> dropped;
  return programUnits(options, program.units, dropped, error) &&
         headerSetup(options, program.headers, error) &&
         analyze(options, program.analysis, error);
}

bool readSourceText(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream out;
  out << in.rdbuf();
  text = out.str();
  return true;
}

ParsedSource parseDeviceSide(const ProgramUnit &unit, const HeaderSetup &headers,
                             const std::string &text) {
  return parseSource(unit.file,
                     clangArguments(unit.file, unit.flags, headers, ParseSide::Device),
                     ParseSide::Device, text, headers.precompiled.get());
}

} // namespace gpurace::analyzer
