#include "analyzer/cli/AnalyzerCommands.h"

#include "analyzer/Analyzer.h"
#include "analyzer/frontend/PrecompiledHeaders.h"
#include "analyzer/repair/RepairMessages.h"
#include "analyzer/report/PerfReport.h"
#include "analyzer/report/Sarif.h"
#include "analyzer/report/TextReport.h"
#include "common/ProjectPaths.h"
#include "proto/JsonCodec.h"
#include "server/cli/AnalysisUpload.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace gpurace {

namespace {

struct AnalyzeFlags {
  analyzer::AnalyzeOptions options;
  std::string format = "text";
  std::string output;
  std::string plan;
  std::string block_dim, grid_dim;
  std::string overflow = "math";
  std::string host_facts = "on";
  bool no_host = false;
  // --no-cache: no precompiled headers.
  bool no_cache = false;
  bool all = false;
  bool explain = false;
  bool no_color = false;
  bool print_clang_command = false;
  bool fix = false;
  // --perf-fail: perf findings make the exit code 2, as races do.
  bool perf_fail = false;
  // --root DIR: what recorded paths are relative to.
  std::string root;
  // --upload ADDR: send the result to a race server as well.
  std::string upload;
  UploadTarget target;
};

// GPUVerify's forms: "N", "[X,Y]" or "[X,Y,Z]".
bool parseDims(const std::string &text, analyzer::Dims &dims, std::string &error) {
  static const std::regex kForm(R"(^\s*\[?\s*(\d+)\s*(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\]?\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, kForm)) {
    error = "expected N, [X,Y] or [X,Y,Z], got '" + text + "'";
    return false;
  }
  for (int i = 0; i < 3; ++i) {
    unsigned long v = m[i + 1].matched ? std::stoul(m[i + 1].str()) : 1;
    if (v == 0 || v > 2147483647ul) {
      error = "dimension " + std::to_string(v) + " is out of range";
      return false;
    }
    dims[i] = static_cast<uint32_t>(v);
  }
  return true;
}

bool writeOutput(const std::string &path, const std::string &text) {
  if (path.empty() || path == "-") {
    std::cout << text << std::flush;
    return true;
  }
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "gpurace analyze: error: cannot write '" << path << "'\n";
    return false;
  }
  return true;
}

// A shell-quoted command line.
std::string shellCommand(const std::vector<std::string> &argv) {
  std::string out;
  for (const std::string &arg : argv) {
    if (!out.empty())
      out += ' ';
    bool plain = !arg.empty() &&
                 arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789-_=+./,:@%") == std::string::npos;
    if (plain) {
      out += arg;
      continue;
    }
    out += '\'';
    for (char c : arg)
      out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

int printClangCommands(const analyzer::AnalyzeOptions &options) {
  std::vector<analyzer::ProgramUnit> units;
  std::vector<std::string> dropped;
  analyzer::HeaderSetup headers;
  std::string error;
  if (!analyzer::programUnits(options, units, dropped, error) ||
      !analyzer::headerSetup(options, headers, error)) {
    std::cerr << "gpurace analyze: error: " << error << "\n";
    return kExitToolError;
  }
  for (const analyzer::ProgramUnit &unit : units) {
    std::vector<analyzer::ParseSide> sides = {analyzer::ParseSide::Host};
    if (analyzer::isCudaFile(unit.file))
      sides.push_back(analyzer::ParseSide::Device);
    for (analyzer::ParseSide side : sides) {
      std::vector<std::string> argv =
          analyzer::clangArguments(unit.file, unit.flags, headers, side);
      argv.front() = GPURACE_CLANG_EXECUTABLE;
      std::cout << shellCommand(argv) << "\n";
    }
  }
  return kExitOk;
}

// With `fix`, each finding carries its verified repair (as `gpurace fix`
// finds them; nothing is written to the files).
bool analyzeProgram(const analyzer::AnalyzeOptions &options, bool fix,
                    const analyzer::ProgressCallback &progress, v1::AnalysisResult &result,
                    std::string &error) {
  if (!fix)
    return analyzer::analyze(options, result, error, progress);
  analyzer::ProgramRepair repair;
  if (!analyzer::repairProgram(options, repair, error))
    return false;
  result = std::move(repair.before);
  analyzer::attachRepairs(repair, result);
  return true;
}

int runAnalyze(AnalyzeFlags &flags, const CommandContext &context) {
  analyzer::AnalyzeOptions &options = flags.options;
  options.extra_flags = context.passthrough;
  options.overflow = flags.overflow == "wrap" ? analyzer::OverflowMode::Wrap
                                              : analyzer::OverflowMode::Math;
  options.host_facts = flags.host_facts == "on" && !flags.no_host;
  for (auto [text, target, name] :
       {std::tuple{&flags.block_dim, &options.block_dim, "--blockDim"},
        std::tuple{&flags.grid_dim, &options.grid_dim, "--gridDim"}}) {
    if (text->empty())
      continue;
    analyzer::Dims dims;
    std::string error;
    if (!parseDims(*text, dims, error)) {
      std::cerr << "gpurace analyze: error: " << name << ": " << error << "\n";
      return kExitToolError;
    }
    *target = dims;
  }
  if (!flags.upload.empty() && flags.target.metadata.project().empty()) {
    std::cerr << "gpurace analyze: error: --upload needs --project\n";
    return kExitToolError;
  }
  if (options.jobs == 0)
    options.jobs = std::max(1u, std::thread::hardware_concurrency());
  if (flags.no_cache)
    options.cache_dir.clear();
  if (flags.perf_fail && !options.perf) {
    std::cerr << "gpurace analyze: error: --perf-fail needs --perf\n";
    return kExitToolError;
  }
  std::string root_error;
  std::string root = findProjectRoot(flags.root, ".", root_error);
  if (!root_error.empty()) {
    std::cerr << "gpurace analyze: error: " << root_error << "\n";
    return kExitToolError;
  }

  bool terminal = isatty(STDERR_FILENO);
  analyzer::ProgressCallback progress;
  if (terminal)
    progress = [](size_t done, size_t total, const std::string &file) {
      if (total > 3)
        std::cerr << "\r[" << done << "/" << total << "] " << file << "\033[K"
                  << (done == total ? "\n" : "") << std::flush;
    };
  if (flags.print_clang_command)
    return printClangCommands(options);
  v1::AnalysisResult result;
  std::string error;
  if (!analyzeProgram(options, flags.fix, progress, result, error)) {
    std::cerr << "gpurace analyze: error: " << error << "\n";
    return kExitToolError;
  }

  // The text report names files as they were given; what is recorded (JSON,
  // SARIF, the plan, an upload) names them relative to the project root.
  v1::AnalysisResult recorded = result;
  relativizeSourcePaths(recorded, root);
  std::string text;
  if (flags.format == "json") {
    v1::AnalysisResult shown = recorded;
    if (!flags.all) {
      shown.clear_candidates();
      for (const auto &c : recorded.candidates())
        if (analyzer::isFinding(c, options.min_score))
          *shown.add_candidates() = c;
      shown.clear_perf_findings();
      for (const auto &f : recorded.perf_findings())
        if (analyzer::isPerfFinding(f))
          *shown.add_perf_findings() = f;
    }
    text = toJson(shown) + "\n";
  } else if (flags.format == "sarif") {
    text = analyzer::toSarif(recorded, options.min_score, flags.all, root);
  } else {
    std::ostringstream out;
    analyzer::TextReportOptions text_options;
    text_options.color = !flags.no_color && flags.output.empty() &&
                         isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
    text_options.include_below_threshold = flags.all;
    text_options.min_score = options.min_score;
    text_options.explain = flags.explain;
    analyzer::writeTextReport(result, text_options, out);
    text = out.str();
  }
  if (!writeOutput(flags.output, text))
    return kExitToolError;
  if (!flags.plan.empty()) {
    std::ofstream plan(flags.plan, std::ios::trunc);
    plan << toJson(recorded.plan()) << "\n";
    if (!plan) {
      std::cerr << "gpurace analyze: error: cannot write plan '" << flags.plan << "'\n";
      return kExitToolError;
    }
  }
  if (!flags.upload.empty()) {
    flags.target.client.address = flags.upload;
    if (uploadAnalysis(recorded, toJson(recorded), flags.target) ==
        kExitToolError)
      return kExitToolError;
  }
  if (result.errors_size() > 0)
    return kExitToolError;
  for (const auto &c : result.candidates())
    if (analyzer::isFinding(c, options.min_score))
      return kExitFindings;
  if (flags.perf_fail)
    for (const auto &f : result.perf_findings())
      if (analyzer::isPerfFinding(f))
        return kExitFindings;
  return kExitOk;
}

Subcommand analyzeSubcommand() {
  Subcommand command;
  command.name = "analyze";
  command.summary = "Find data races in CUDA sources statically";
  command.accepts_passthrough = true;
  command.setup = [](CLI::App &app, const CommandContext &context) {
    auto flags = std::make_shared<AnalyzeFlags>();
    app.add_option("files", flags->options.files,
                   "CUDA source files to analyze; a folder stands for every .cu file below it");
    app.add_option("-p,--build-dir", flags->options.build_dir,
                   "Folder with compile_commands.json; without FILEs, every .cu it lists");
    app.add_option("--format", flags->format, "Output format")
        ->check(CLI::IsMember({"text", "json", "sarif"}))
        ->default_str("text");
    app.add_option("-o,--output", flags->output, "Write the report to FILE (default: stdout)");
    app.add_option("--root", flags->root,
                   "Project root: JSON, SARIF, the plan and uploads name files "
                   "relative to it (default: the top level of the git work "
                   "tree around the working directory)");
    app.add_option("--plan", flags->plan,
                   "Write the instrumentation plan (proto3 JSON) to FILE");
    app.add_option("--min-score", flags->options.min_score,
                   "Candidates scoring at least this are findings")
        ->check(CLI::Range(0.0, 1.0))
        ->default_str(std::to_string(analyzer::kDefaultMinScore).substr(0, 3));
    app.add_flag("--all", flags->all,
                 "Also report candidates below --min-score, benign ones (both threads "
                 "store the same value) and those marked intentional");
    app.add_option("--overflow", flags->overflow,
                   "Integer model: math (no overflow, the default) or wrap (32/64-bit)")
        ->check(CLI::IsMember({"math", "wrap"}));
    app.add_option("--blockDim", flags->block_dim,
                   "Block dims for kernels with no visible launch: N, [X,Y] or [X,Y,Z]");
    app.add_option("--gridDim", flags->grid_dim,
                   "Grid dims for kernels with no visible launch: N, [X,Y] or [X,Y,Z]");
    app.add_option("--kernel", flags->options.kernel_filter, "Analyze only this kernel");
    app.add_option("--host-facts", flags->host_facts,
                   "Use what the host code says about launches (on) or analyze kernels alone (off)")
        ->check(CLI::IsMember({"on", "off"}));
    app.add_flag("--no-host", flags->no_host,
                 "Analyze kernels alone, without host facts (same as --host-facts=off)");
    app.add_flag("--explain", flags->explain,
                 "Say which host facts each race-free verdict relies on (the JSON "
                 "always has them, in raceFreedomProofs)");
    app.add_flag("--assume-warp-lockstep", flags->options.assume_warp_lockstep,
                 "Assume pre-Volta lock-step warps (default: independent thread scheduling)");
    app.add_flag("--assume-aliasing", flags->options.assume_aliasing,
                 "Check pointers that a launch wrapper with no visible caller passes on as "
                 "possibly overlapping (default: distinct buffers, an assumption the "
                 "results state)");
    app.add_option("-j,--jobs", flags->options.jobs,
                   "Threads: files analyzed in parallel, and the kernels of a file checked side "
                   "by side on the threads no file needs (default: the number of cores)")
        ->check(CLI::Range(1u, 1024u));
    app.add_option("--query-effort", flags->options.query_rlimit,
                   "Solver effort per query (Z3 resource units, deterministic); an "
                   "undecided pair is reported with a low score")
        ->check(CLI::Range(1000u, 4000000000u));
    app.add_option("--query-timeout-ms", flags->options.query_timeout_ms,
                   "Wall-clock cap per solver query, a safety net for queries that "
                   "--query-effort does not bound; a pair it stops is reported as undecided "
                   "with a note saying so. A kernel whose queries keep reaching it gets a "
                   "tenth of it, then a hundredth, for its other queries")
        ->check(CLI::Range(10u, 600000u));
    app.add_option("--cuda-path", flags->options.cuda_path,
                   "CUDA toolkit whose headers to parse with (default: $CUDA_PATH, "
                   "$CUDA_HOME, nvcc on PATH, /usr/local/cuda)");
    app.add_flag("--fallback-headers", flags->options.fallback_headers,
                 "Parse with gpurace's own CUDA declarations even if a toolkit is installed");
    app.add_option("--cache-dir", flags->options.cache_dir,
                   "Where the CUDA headers every file includes first are kept precompiled, "
                   "shared by runs (default: $XDG_CACHE_HOME/gpurace or ~/.cache/gpurace)");
    app.add_flag("--no-cache", flags->no_cache,
                 "Parse every file's headers afresh: no precompiled headers read or written");
    app.add_flag("--print-clang-command", flags->print_clang_command,
                 "Print the Clang commands that parse each file (host side, then device "
                 "side), one per line, and exit");
    app.add_flag("--fix", flags->fix,
                 "Also find each finding's verified repair, as `gpurace fix` does, and "
                 "report it: a fix-it note in text, `repair` in JSON, `fixes` in SARIF, a "
                 "diff on the dashboard after --upload (the files are not changed)");
    app.add_flag("--perf", flags->options.perf,
                 "Also check each shared access for bank conflicts and each global access "
                 "for coalescing, per launch (text: after the races, worst first; JSON: "
                 "perfFindings; SARIF: rules gpurace-perf-bank-conflict and "
                 "gpurace-perf-uncoalesced). They do not change the exit code unless "
                 "--perf-fail is given");
    app.add_flag("--perf-fail", flags->perf_fail,
                 "With --perf: exit 2 when a perf finding is shown, as for races");
    app.add_option("--perf-min-ratio", flags->options.perf_min_ratio,
                   "Show perf findings whose cost is at least this many times the best the "
                   "access could cost (default: 2 inside loops, 4 elsewhere)")
        ->check(CLI::Range(1.0, 64.0));
    app.add_flag("--no-color", flags->no_color, "Never colour the text report");
    app.add_option("--upload", flags->upload,
                   "Also upload the result to the race server at ADDR (gRPC)");
    app.add_option("--token", flags->target.client.token,
                   "API token for --upload (default: $GPURACE_TOKEN)");
    addRunMetadataFlags(app, flags->target.metadata, false);
    app.add_flag("--partial", flags->target.partial,
                 "With --upload: the files cover only part of the project, resolve no race");
    app.footer("Forms: gpurace analyze [OPTIONS] FILE.cu... [-- CLANG_FLAGS]\n"
               "       gpurace analyze -p BUILD_DIR [FILE.cu...]\n"
               "Exit codes: 0 no finding, 2 findings (races; perf findings too with\n"
               "--perf-fail), 1 error (a file that does not parse is reported and the other\n"
               "files are still analyzed).");
    flags->options.jobs = 0;
    flags->options.cache_dir = analyzer::defaultCacheDirectory();
    return [flags, &context]() { return runAnalyze(*flags, context); };
  };
  return command;
}

} // namespace

std::vector<Subcommand> analyzerSubcommands() { return {analyzeSubcommand(), fixSubcommand()}; }

} // namespace gpurace
