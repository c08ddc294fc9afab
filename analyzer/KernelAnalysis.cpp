#include "analyzer/KernelAnalysis.h"

#include "analyzer/check/PairChecker.h"
#include "analyzer/host/LaunchSites.h"
#include "analyzer/model/KernelModelBuilder.h"
#include "analyzer/model/StructPointerFields.h"
#include "analyzer/perf/PerfChecker.h"

#include <clang/AST/Decl.h>

#include <map>
#include <set>

namespace gpurace::analyzer {

namespace {

LaunchContext commandLineContext(const AnalyzeOptions &options,
                                 const KernelModel &model, SymbolSpace &symbols) {
  LaunchContext context;
  static const char *const kAxes[3] = {"x", "y", "z"};
  auto add = [&](const std::optional<Dims> &dims, bool block) {
    if (!dims)
      return;
    for (int axis = 0; axis < 3; ++axis) {
      const z3::expr &symbol = block ? symbols.blockDim(axis) : symbols.gridDim(axis);
      v1::Assumption a;
      a.set_kind(v1::HOST_FACT_KIND_COMMAND_LINE);
      a.set_role(v1::Assumption::ROLE_USED);
      a.set_description(std::string(block ? "blockDim." : "gridDim.") + kAxes[axis] +
                        " == " + std::to_string((*dims)[axis]) +
                        " (command line)");
      context.facts.push_back(
          {symbol == symbols.arith().constant((*dims)[axis], kUInt32), a});
    }
  };
  add(options.block_dim, true);
  add(options.grid_dim, false);
  // A kernel that never reads an axis is written for launches where that
  // axis is 1; any other launch would run duplicate threads.
  for (int axis = 1; axis < 3; ++axis) {
    for (bool block : {true, false}) {
      bool given = block ? options.block_dim.has_value() : options.grid_dim.has_value();
      bool read = block ? model.reads_thread_axis[axis] : model.reads_block_axis[axis];
      if (given || read)
        continue;
      v1::Assumption a;
      a.set_kind(v1::HOST_FACT_KIND_ANALYSIS);
      a.set_role(v1::Assumption::ROLE_USED);
      std::string dim = std::string(block ? "blockDim." : "gridDim.") + kAxes[axis];
      a.set_description(dim + " == 1: the kernel never reads " +
                        (block ? "threadIdx." : "blockIdx.") + kAxes[axis] +
                        " or " + dim);
      const z3::expr &symbol = block ? symbols.blockDim(axis) : symbols.gridDim(axis);
      context.facts.push_back({symbol == symbols.arith().constant(1, kUInt32), a});
    }
  }
  return context;
}

void markNoLaunch(std::vector<v1::RaceCandidate> &candidates) {
  for (v1::RaceCandidate &candidate : candidates) {
    v1::Imprecision *why = candidate.add_imprecisions();
    why->set_kind(v1::IMPRECISION_KIND_NO_LAUNCH_CONTEXT);
    why->set_detail("no launch of '" + candidate.kernel() +
                    "' was analyzed: dims and arguments are unconstrained");
  }
}

// Keeps one candidate per (pair of sites, class): the first context that
// exhibits it names the launch site.
void addUnique(std::vector<v1::RaceCandidate> &out,
               std::map<std::string, size_t> &seen, v1::RaceCandidate candidate) {
  std::string key = candidate.first().site_id() + "|" +
                    candidate.second().site_id() + "|" +
                    std::to_string(candidate.race_class());
  auto [it, inserted] = seen.emplace(key, out.size());
  if (inserted)
    out.push_back(std::move(candidate));
  else if (candidate.imprecisions_size() < out[it->second].imprecisions_size())
    out[it->second] = std::move(candidate);
}

// The kernel's pointer parameters by number: its own, then the pointer
// fields of its struct parameters (StructPointerFields.h).
std::vector<std::string> parameterNames(const clang::FunctionDecl &kernel) {
  std::vector<std::string> names;
  for (unsigned i = 0; i < kernel.getNumParams(); ++i)
    names.push_back(parameterName(kernel, i));
  for (const StructPointerField &field : structPointerFields(kernel))
    names.push_back(field.name);
  return names;
}

} // namespace

struct KernelAnalysis::State {
  explicit State(const AnalyzeOptions &options) : symbols(z3, options.overflow) {}
  z3::context z3;
  SymbolSpace symbols;
  KernelModel model;
  AnalyzeOptions options;
  // Each context to check, and whether it stands for no visible launch.
  std::vector<std::pair<LaunchContext, bool>> contexts;
  FileAnalysis found;
  std::string failure;
  std::shared_ptr<std::atomic<unsigned>> clock_stops;
};

KernelAnalysis::KernelAnalysis(const clang::FunctionDecl &kernel, DeviceUnit &unit,
                               const std::vector<HostLaunch> &launches,
                               const AnalyzeOptions &options,
                               std::shared_ptr<std::atomic<unsigned>> clock_stops,
                               FactSetVerdicts &fact_verdicts)
    : state_(std::make_unique<State>(options)) {
  state_->options = options;
  state_->clock_stops = std::move(clock_stops);
  ModelOptions model_options;
  model_options.warp_size = options.warp_size;
  state_->model = buildKernelModel(kernel, unit, state_->symbols, model_options);
  if (options.host_facts && !launches.empty()) {
    std::vector<std::string> names = parameterNames(kernel);
    for (const HostLaunch &launch : launches)
      for (LaunchContext &context :
           launchContexts(*launch.launch, names, *launch.host_ast, state_->symbols,
                          fact_verdicts))
        state_->contexts.emplace_back(std::move(context), false);
  } else {
    state_->contexts.emplace_back(
        commandLineContext(options, state_->model, state_->symbols), true);
  }
}

KernelAnalysis::~KernelAnalysis() = default;

const std::string &KernelAnalysis::failure() const { return state_->failure; }

void KernelAnalysis::check() {
  const AnalyzeOptions &options = state_->options;
  const KernelModel &model = state_->model;
  SymbolSpace &symbols = state_->symbols;
  CheckOptions check_options;
  check_options.warp_size = options.warp_size;
  check_options.query_timeout_ms = options.query_timeout_ms;
  check_options.query_rlimit = options.query_rlimit;
  check_options.clock_stops = state_->clock_stops.get();
  check_options.assume_warp_lockstep = options.assume_warp_lockstep;
  check_options.assume_aliasing = options.assume_aliasing;
  check_options.rank_launch_overruns = options.host_facts;
  PerfCheckOptions perf_options;
  perf_options.warp_size = options.warp_size;
  perf_options.query_rlimit = options.query_rlimit;
  perf_options.query_timeout_ms = options.query_timeout_ms;

  // Everything goes to a scratch result first, so that a kernel that fails
  // half-way adds nothing.
  FileAnalysis kernel_out;
  std::map<std::string, size_t> seen;
  std::set<std::string> perf_seen;
  auto run = [&](const LaunchContext &context, bool no_launch) {
    CheckResult result = checkKernel(model, symbols, context, check_options);
    kernel_out.queries += result.queries;
    if (no_launch)
      markNoLaunch(result.candidates);
    for (v1::RaceCandidate &candidate : result.candidates) {
      if (context.site)
        *candidate.mutable_launch_site() = *context.site;
      addUnique(kernel_out.candidates, seen, std::move(candidate));
    }
    for (v1::RaceFreedomProof &proof : result.proofs)
      kernel_out.proofs.push_back(std::move(proof));
    if (!options.perf)
      return;
    for (v1::PerfFinding &finding : checkWarpCosts(model, symbols, context, perf_options)) {
      // Without a launch or --blockDim, the witness picks the block's shape,
      // and a shape no program uses (3 threads a row) makes any tile
      // conflict: such results are kept, as imprecise.
      if (no_launch && !options.block_dim && !finding.proved()) {
        v1::Imprecision *why = finding.add_imprecisions();
        why->set_kind(v1::IMPRECISION_KIND_NO_LAUNCH_CONTEXT);
        why->set_detail("no launch of '" + finding.kernel() +
                        "' was analyzed: the witness chose the block's shape (--blockDim sets "
                        "it)");
      }
      // Several launches of one shape (a launch in a loop's body) price the
      // site alike: one result per launch site.
      std::string key = finding.site().site_id() + "|" + std::to_string(finding.kind()) + "|" +
                        finding.launch_site().location().file() + ":" +
                        std::to_string(finding.launch_site().location().line());
      if (perf_seen.insert(key).second)
        kernel_out.perf_findings.push_back(std::move(finding));
    }
  };
  try {
    for (const auto &[context, no_launch] : state_->contexts)
      run(context, no_launch);
  } catch (const z3::exception &e) {
    state_->failure = std::string("was not analyzed: the solver failed: ") + e.msg();
    return;
  } catch (const std::exception &e) {
    state_->failure = std::string("was not analyzed: ") + e.what();
    return;
  }
  state_->found = std::move(kernel_out);
}

void KernelAnalysis::addTo(FileAnalysis &out) const {
  if (!state_->failure.empty())
    return;
  const KernelModel &model = state_->model;
  const FileAnalysis &found = state_->found;
  out.counts_tickets |= !model.tickets.empty();
  out.sync_sites.insert(out.sync_sites.end(), model.sync_sites.begin(),
                        model.sync_sites.end());
  out.queries += found.queries;
  out.candidates.insert(out.candidates.end(), found.candidates.begin(), found.candidates.end());
  out.proofs.insert(out.proofs.end(), found.proofs.begin(), found.proofs.end());
  out.perf_findings.insert(out.perf_findings.end(), found.perf_findings.begin(),
                           found.perf_findings.end());
  ++out.kernels;
}

} // namespace gpurace::analyzer
