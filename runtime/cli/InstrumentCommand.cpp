#include "runtime/cli/RuntimeCommands.h"

#include "runtime/instrument/Instrumenter.h"

#include <iostream>
#include <memory>

namespace gpurace {

namespace {

struct InstrumentFlags {
  std::string plan;
  std::string input;
  std::string output;
  bool launcher = false;
  bool cpu_harness = false;
  std::string runtime_header = GPURACE_DEVICE_RUNTIME_HEADER;
};

int instrument(const InstrumentFlags &flags, const CommandContext &context) {
  std::string error;
  auto plan = rt::SitePlan::load(flags.plan, error);
  if (!plan) {
    std::cerr << "gpurace instrument: " << error << "\n";
    return kExitToolError;
  }
  if (flags.launcher)
    return rt::runAsLauncher(*plan, context.passthrough, flags.runtime_header);
  if (flags.input.empty() || flags.output.empty()) {
    std::cerr << "gpurace instrument: give FILE.cu and -o OUT.cu, or --launcher\n";
    return kExitToolError;
  }
  rt::InstrumentOutcome outcome = rt::instrumentFile(
      *plan, flags.input, flags.output, context.passthrough, flags.runtime_header,
      flags.cpu_harness);
  if (!outcome.ok) {
    std::cerr << "gpurace instrument: " << outcome.error << "\n";
    return kExitToolError;
  }
  for (const std::string &id : outcome.unmatched)
    std::cerr << "gpurace instrument: " << flags.input << ": planned site " << id
              << " matches no expression; it is not recorded\n";
  return kExitOk;
}

} // namespace

Subcommand instrumentSubcommand() {
  Subcommand command;
  command.name = "instrument";
  command.summary = "Rewrite the planned access and sync sites of a CUDA file";
  command.accepts_passthrough = true;
  command.setup = [](CLI::App &app, const CommandContext &context) {
    auto flags = std::make_shared<InstrumentFlags>();
    app.add_option("--plan", flags->plan,
                   "InstrumentationPlan (or AnalysisResult) JSON from `gpurace analyze --plan`")
        ->required();
    app.add_option("file", flags->input, "The .cu file to instrument");
    app.add_option("-o,--output", flags->output, "Where to write the instrumented file");
    app.add_flag("--launcher", flags->launcher,
                 "Compiler-launcher mode: `gpurace instrument --launcher --plan P -- nvcc ARGS` "
                 "instruments the .cu sources of ARGS and runs the compiler on them "
                 "(use as CMAKE_CUDA_COMPILER_LAUNCHER)");
    app.add_flag("--cpu-harness", flags->cpu_harness,
                 "Also rewrite kernel launches and dynamic shared memory so that the whole "
                 "program compiles as host C++ against the CPU harness "
                 "(runtime/harness/include first on the include path)");
    app.add_option("--runtime-header", flags->runtime_header,
                   "The device runtime header the output includes");
    app.footer("Arguments after -- are compiler flags used to parse FILE (-I, -D, -std), "
               "or the compiler command in --launcher mode.\n"
               "Exit codes: 0 written, 1 error (nothing written).");
    return [flags, &context]() { return instrument(*flags, context); };
  };
  return command;
}

} // namespace gpurace
