#include "analyzer/FileAnalysis.h"

#include "analyzer/JobSlots.h"
#include "analyzer/KernelAnalysis.h"
#include "analyzer/KernelPipeline.h"
#include "analyzer/frontend/SourceParser.h"
#include "analyzer/host/LaunchSites.h"
#include "analyzer/host/RelatedFacts.h"
#include "analyzer/model/DeviceUnit.h"
#include "analyzer/program/KernelKey.h"
#include "analyzer/program/ProgramIndex.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <z3++.h>

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

namespace gpurace::analyzer {

namespace {

class KernelFinder : public clang::DynamicRecursiveASTVisitor {
public:
  std::vector<const clang::FunctionDecl *> kernels;
  KernelFinder() { ShouldVisitTemplateInstantiations = true; }
  bool VisitFunctionDecl(clang::FunctionDecl *f) override {
    if (f->hasAttr<clang::CUDAGlobalAttr>() && f->doesThisDeclarationHaveABody() &&
        !f->isDependentContext())
      kernels.push_back(f);
    return true;
  }
};

// A unit's host parse with its launches by kernel key.
struct HostSide {
  ParsedSource parsed;
  std::map<std::string, std::vector<Launch>> launches;
  // Built when another unit's launch wrappers are called from here.
  std::unique_ptr<HostCallGraph> calls;
};

std::unique_ptr<HostSide> parseHost(const ProgramUnit &unit, const HeaderSetup &headers) {
  auto host = std::make_unique<HostSide>();
  host->parsed = parseSource(unit.file,
                             clangArguments(unit.file, unit.flags, headers, ParseSide::Host),
                             ParseSide::Host, unit.contents, headers.precompiled.get());
  if (clang::ASTContext *ast = host->parsed.context())
    for (auto &[kernel, launches] : findLaunches(*ast))
      for (Launch &launch : launches)
        host->launches[kernelKey(*kernel)].push_back(std::move(launch));
  return host;
}

// The most Clang errors listed per file and side.
constexpr size_t kMaxParseErrors = 20;

// Clang's errors from both sides, each once (most are reported by both),
// except those `skip` names (worked around).
void addParseErrors(const ParsedSource &parsed, const std::set<size_t> &skip,
                    FileAnalysis &out,
                    std::set<std::tuple<std::string, unsigned, unsigned, std::string>> &seen) {
  size_t added = 0;
  for (size_t i = 0; i < parsed.errors.size() && added < kMaxParseErrors; ++i) {
    const v1::FileError &error = parsed.errors[i];
    if (skip.count(i) ||
        !seen.emplace(error.file(), error.line(), error.column(), error.message()).second)
      continue;
    out.errors.push_back(error);
    ++added;
  }
}

std::map<std::string, const clang::FunctionDecl *> kernelsByKey(clang::ASTContext *ast) {
  std::map<std::string, const clang::FunctionDecl *> kernels;
  if (!ast)
    return kernels;
  KernelFinder finder;
  finder.TraverseDecl(ast->getTranslationUnitDecl());
  for (const clang::FunctionDecl *kernel : finder.kernels)
    kernels.emplace(kernelKey(*kernel), kernel);
  return kernels;
}

// An entry about one kernel: "kernel 'NAME' " + `what`.
v1::FileError kernelError(const clang::FunctionDecl &kernel, const std::string &phase,
                          const std::string &what) {
  const clang::SourceManager &sources = kernel.getASTContext().getSourceManager();
  clang::PresumedLoc where =
      sources.getPresumedLoc(sources.getExpansionLoc(kernel.getLocation()));
  v1::FileError error;
  if (where.isValid()) {
    error.set_file(where.getFilename());
    error.set_line(where.getLine());
    error.set_column(where.getColumn());
  }
  error.set_kernel(kernel.getQualifiedNameAsString());
  error.set_phase(phase);
  error.set_message("kernel '" + kernel.getQualifiedNameAsString() + "' " + what);
  return error;
}

// The queries the wall-clock cap stopped, per kernel name: the instances
// of one template share a count.
using ClockStops = std::map<std::string, std::shared_ptr<std::atomic<unsigned>>>;

// Prepares one kernel and queues it to be checked; what goes wrong becomes
// an error naming it.
void prepare(const clang::FunctionDecl &kernel, DeviceUnit &unit,
             const std::vector<HostLaunch> &launches, const AnalyzeOptions &options,
             ClockStops &clock_stops, FactSetVerdicts &fact_verdicts, KernelPipeline &pipeline,
             FileAnalysis &out) {
  std::shared_ptr<std::atomic<unsigned>> &stops = clock_stops[kernel.getQualifiedNameAsString()];
  if (!stops)
    stops = std::make_shared<std::atomic<unsigned>>(0);
  std::unique_ptr<KernelAnalysis> analysis;
  try {
    analysis =
        std::make_unique<KernelAnalysis>(kernel, unit, launches, options, stops, fact_verdicts);
  } catch (const z3::exception &e) {
    out.errors.push_back(kernelError(
        kernel, "analysis", std::string("was not analyzed: the solver failed: ") + e.msg()));
    return;
  } catch (const std::exception &e) {
    out.errors.push_back(
        kernelError(kernel, "analysis", std::string("was not analyzed: ") + e.what()));
    return;
  }
  pipeline.add(kernel, std::move(analysis));
}

} // namespace

FileAnalysis analyzeUnit(size_t unit_index, const std::vector<ProgramUnit> &units,
                         const ProgramIndex &index, const HeaderSetup &headers,
                         const AnalyzeOptions &options, JobSlots &extra_jobs) {
  const ProgramUnit &unit = units[unit_index];
  FileAnalysis out;
  out.file = unit.file;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>> seen_errors;

  std::unique_ptr<HostSide> host = parseHost(unit, headers);
  if (!isCudaFile(unit.file)) {
    addParseErrors(host->parsed, {}, out, seen_errors);
    out.partial = !out.errors.empty();
    return out;
  }
  ParsedSource device = parseSource(
      unit.file, clangArguments(unit.file, unit.flags, headers, ParseSide::Device),
      ParseSide::Device, unit.contents, headers.precompiled.get());
  // Device-side errors inside kernels that the host side models instead.
  std::set<size_t> worked_around;
  auto finish = [&] {
    addParseErrors(host->parsed, {}, out, seen_errors);
    addParseErrors(device, worked_around, out, seen_errors);
    out.partial = !out.errors.empty();
    return std::move(out);
  };
  clang::ASTContext *device_ast = device.context();
  if (!device_ast)
    return finish();
  std::map<std::string, const clang::FunctionDecl *> host_kernels =
      kernelsByKey(host->parsed.context());

  // Host parses of the other units that launch this unit's kernels, parsed
  // once each when first needed.
  std::map<size_t, std::unique_ptr<HostSide>> others;
  std::vector<const HostCallGraph *> callers_elsewhere;
  for (size_t other : index.unitsCallingInto(unit_index)) {
    auto &side = others[other];
    if (!side)
      side = parseHost(units[other], headers);
    if (clang::ASTContext *ast = side->parsed.context()) {
      side->calls = std::make_unique<HostCallGraph>(*ast);
      callers_elsewhere.push_back(side->calls.get());
    }
  }
  std::deque<Launch> extended; // launches with chains into other units
  DeviceUnit device_unit(*device_ast);
  std::optional<DeviceUnit> host_unit; // for kernels modelled from the host side
  KernelPipeline pipeline(extra_jobs);
  ClockStops clock_stops;
  FactSetVerdicts fact_verdicts;
  KernelFinder finder;
  finder.TraverseDecl(device_ast->getTranslationUnitDecl());
  for (const clang::FunctionDecl *kernel : finder.kernels) {
    if (!options.kernel_filter.empty() &&
        kernel->getNameAsString() != options.kernel_filter)
      continue;
    if (device_ast->getSourceManager().isInSystemHeader(kernel->getLocation()))
      continue;
    std::string key = kernelKey(*kernel);
    if (!index.owns(unit_index, key))
      continue;
    std::vector<HostLaunch> launches;
    auto collect = [&](HostSide &side) {
      auto it = side.launches.find(key);
      if (it == side.launches.end())
        return;
      for (const Launch &launch : it->second)
        launches.push_back({&launch, side.parsed.context()});
    };
    collect(*host);
    // Launch wrappers this unit defines reach their callers in other units.
    if (!callers_elsewhere.empty())
      for (HostLaunch &launch : launches) {
        extended.push_back(*launch.launch);
        continueAcrossUnits(extended.back(), callers_elsewhere);
        launch.launch = &extended.back();
      }
    for (size_t other : index.otherLaunchers(key, unit_index)) {
      auto &side = others[other];
      if (!side)
        side = parseHost(units[other], headers);
      collect(*side);
    }
    std::string why = errorInside(device, *kernel);
    if (why.empty()) {
      prepare(*kernel, device_unit, launches, options, clock_stops, fact_verdicts, pipeline,
              out);
      continue;
    }
    // Clang's device side is stricter than nvcc in places (a __shared__
    // variable of a class with a non-empty constructor): the host side's
    // view of the same kernel is the next best model.
    auto on_host = host_kernels.find(key);
    if (on_host != host_kernels.end() && errorInside(host->parsed, *on_host->second).empty()) {
      for (size_t i : errorsWithin(device, *kernel))
        worked_around.insert(i);
      out.warnings.push_back(kernelError(
          *kernel, "device", "was modelled from the host-side parse: the device side has " + why));
      if (!host_unit)
        host_unit.emplace(*host->parsed.context());
      prepare(*on_host->second, *host_unit, launches, options, clock_stops, fact_verdicts, pipeline,
              out);
      continue;
    }
    out.errors.push_back(kernelError(*kernel, "device", "was not analyzed: " + why));
  }
  for (const KernelPipeline::Failure &failed : pipeline.finish(out))
    out.errors.push_back(kernelError(*failed.kernel, "analysis", failed.why));
  return finish();
}

} // namespace gpurace::analyzer
