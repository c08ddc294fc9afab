#include "analyzer/FileAnalysis.h"

#include "analyzer/check/PairChecker.h"
#include "analyzer/frontend/CompileFlags.h"
#include "analyzer/host/LaunchSites.h"
#include "analyzer/model/KernelModelBuilder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>

#include <map>

namespace gpurace::analyzer {

namespace {

// Collects Clang's errors as FileErrors (file, line, Clang's message).
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  std::vector<v1::FileError> errors;

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error || errors.size() >= 20)
      return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    v1::FileError error;
    error.set_message(message.str().str());
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      clang::PresumedLoc where =
          info.getSourceManager().getPresumedLoc(info.getLocation());
      if (where.isValid()) {
        error.set_file(where.getFilename());
        error.set_line(where.getLine());
        error.set_column(where.getColumn());
      }
    }
    errors.push_back(std::move(error));
  }
};

class KernelFinder : public clang::RecursiveASTVisitor<KernelFinder> {
public:
  std::vector<const clang::FunctionDecl *> kernels;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *f) {
    if (f->hasAttr<clang::CUDAGlobalAttr>() && f->doesThisDeclarationHaveABody() &&
        !f->isDependentContext())
      kernels.push_back(f);
    return true;
  }
};

LaunchContext commandLineContext(const AnalyzeOptions &options,
                                 const KernelModel &model, SymbolSpace &symbols) {
  LaunchContext context;
  auto add = [&](const std::optional<Dims> &dims, bool block) {
    if (!dims)
      return;
    static const char *const kAxes[3] = {"x", "y", "z"};
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
  static const char *const kAxes[3] = {"x", "y", "z"};
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

void analyzeKernel(const clang::FunctionDecl &kernel, clang::ASTContext &ast,
                   const std::vector<Launch> *launches,
                   const AnalyzeOptions &options, FileAnalysis &out) {
  z3::context z3;
  SymbolSpace symbols(z3, options.overflow);
  ModelOptions model_options;
  model_options.warp_size = options.warp_size;
  KernelModel model = buildKernelModel(kernel, ast, symbols, model_options);
  out.counts_tickets |= !model.tickets.empty();
  out.sync_sites.insert(out.sync_sites.end(), model.sync_sites.begin(),
                        model.sync_sites.end());
  CheckOptions check_options;
  check_options.warp_size = options.warp_size;
  check_options.query_timeout_ms = options.query_timeout_ms;
  check_options.query_rlimit = options.query_rlimit;
  check_options.assume_warp_lockstep = options.assume_warp_lockstep;

  std::map<std::string, size_t> seen;
  auto run = [&](const LaunchContext &context, bool no_launch) {
    CheckResult result = checkKernel(model, symbols, context, check_options);
    out.queries += result.queries;
    if (no_launch)
      markNoLaunch(result.candidates);
    for (v1::RaceCandidate &candidate : result.candidates) {
      if (context.site)
        *candidate.mutable_launch_site() = *context.site;
      addUnique(out.candidates, seen, std::move(candidate));
    }
    for (v1::RaceFreedomProof &proof : result.proofs)
      out.proofs.push_back(std::move(proof));
  };
  if (options.host_facts && launches && !launches->empty()) {
    for (const Launch &launch : *launches)
      for (const LaunchContext &context : launchContexts(launch, kernel, ast, symbols))
        run(context, false);
  } else {
    run(commandLineContext(options, model, symbols), true);
  }
}

} // namespace

FileAnalysis analyzeFile(const std::string &file,
                         const std::vector<std::string> &flags,
                         const AnalyzeOptions &options) {
  FileAnalysis out;
  out.file = file;
  std::vector<std::string> args = clangArguments(file, flags);
  // FixedCompilationDatabase adds the program name and the file itself.
  std::vector<std::string> middle(args.begin() + 1, args.end() - 1);
  clang::tooling::FixedCompilationDatabase database(".", middle);
  clang::tooling::ClangTool tool(database, {file});
  tool.clearArgumentsAdjusters();
  ErrorCollector collector;
  tool.setDiagnosticConsumer(&collector);
  std::vector<std::unique_ptr<clang::ASTUnit>> units;
  int status = tool.buildASTs(units);
  if (status != 0 || units.empty() || !collector.errors.empty()) {
    out.errors = collector.errors;
    if (out.errors.empty()) {
      v1::FileError error;
      error.set_file(file);
      error.set_message("cannot be parsed (is the file readable C++/CUDA?)");
      out.errors.push_back(error);
    }
    return out;
  }
  clang::ASTContext &ast = units.front()->getASTContext();
  KernelFinder finder;
  finder.TraverseDecl(ast.getTranslationUnitDecl());
  auto launches = findLaunches(ast);
  for (const clang::FunctionDecl *kernel : finder.kernels) {
    if (!options.kernel_filter.empty() &&
        kernel->getNameAsString() != options.kernel_filter)
      continue;
    if (ast.getSourceManager().isInSystemHeader(kernel->getLocation()))
      continue;
    auto it = launches.find(kernel->getCanonicalDecl());
    ++out.kernels;
    analyzeKernel(*kernel, ast, it == launches.end() ? nullptr : &it->second,
                  options, out);
  }
  return out;
}

} // namespace gpurace::analyzer
