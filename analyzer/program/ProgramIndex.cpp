#include "analyzer/program/ProgramIndex.h"

#include "analyzer/frontend/SourceParser.h"
#include "analyzer/host/LaunchSites.h"
#include "analyzer/program/KernelKey.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <algorithm>
#include <atomic>
#include <thread>

namespace gpurace::analyzer {

namespace {

// What one unit's host side shows.
struct UnitSummary {
  std::set<std::string> defines, launches;
  // Host functions with external linkage it defines, and those it calls
  // without a definition (defined in another unit).
  std::set<std::string> host_defines, external_calls;
  std::set<std::string> includes; // real paths of the files it #includes
};

std::string realPath(const std::string &path) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real))
    return path;
  return std::string(real);
}

class DefinitionFinder : public clang::DynamicRecursiveASTVisitor {
public:
  explicit DefinitionFinder(std::set<std::string> &keys) : keys_(keys) {
    ShouldVisitTemplateInstantiations = true;
  }
  bool VisitFunctionDecl(clang::FunctionDecl *f) override {
    if (f->hasAttr<clang::CUDAGlobalAttr>() && f->doesThisDeclarationHaveABody() &&
        !f->isDependentContext())
      keys_.insert(kernelKey(*f));
    return true;
  }

private:
  std::set<std::string> &keys_;
};

class HostFunctionFinder : public clang::DynamicRecursiveASTVisitor {
public:
  HostFunctionFinder(const clang::SourceManager &sources, UnitSummary &summary)
      : sources_(sources), summary_(summary) {}
  bool TraverseDecl(clang::Decl *decl) override {
    if (decl && !llvm::isa<clang::TranslationUnitDecl>(decl) &&
        sources_.isInSystemHeader(decl->getLocation()))
      return true;
    return clang::DynamicRecursiveASTVisitor::TraverseDecl(decl);
  }
  bool VisitFunctionDecl(clang::FunctionDecl *f) override {
    if (f->doesThisDeclarationHaveABody() && f->isExternallyVisible() && !f->isMain() &&
        !f->hasAttr<clang::CUDAGlobalAttr>() && !f->isDependentContext())
      summary_.host_defines.insert(kernelKey(*f));
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *call) override {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (callee && definedInAnotherUnit(*callee))
      summary_.external_calls.insert(kernelKey(*callee));
    return true;
  }

private:
  const clang::SourceManager &sources_;
  UnitSummary &summary_;
};

UnitSummary summarize(const ProgramUnit &unit, const HeaderSetup &headers) {
  UnitSummary summary;
  ParsedSource host = parseSource(
      unit.file, clangArguments(unit.file, unit.flags, headers, ParseSide::Host),
      ParseSide::Host, unit.contents, headers.precompiled.get());
  clang::ASTContext *ast = host.context();
  if (!ast)
    return summary;
  DefinitionFinder(summary.defines).TraverseDecl(ast->getTranslationUnitDecl());
  for (const auto &[kernel, launches] : findLaunches(*ast))
    summary.launches.insert(kernelKey(*kernel));
  const clang::SourceManager &sources = ast->getSourceManager();
  HostFunctionFinder(sources, summary).TraverseDecl(ast->getTranslationUnitDecl());
  for (auto it = sources.fileinfo_begin(); it != sources.fileinfo_end(); ++it)
    summary.includes.insert(realPath(std::string(it->first.getName())));
  summary.includes.erase(realPath(unit.file));
  return summary;
}

} // namespace

ProgramIndex ProgramIndex::singleUnit() {
  ProgramIndex index;
  index.single_ = true;
  return index;
}

ProgramIndex ProgramIndex::build(const std::vector<ProgramUnit> &units,
                                 const HeaderSetup &headers, unsigned jobs) {
  std::vector<UnitSummary> summaries(units.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < units.size(); i = next++)
      summaries[i] = summarize(units[i], headers);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<size_t>(jobs, units.size()); ++t)
    threads.emplace_back(worker);
  worker();
  for (std::thread &thread : threads)
    thread.join();

  ProgramIndex index;
  std::map<std::string, size_t> by_path;
  for (size_t i = 0; i < units.size(); ++i)
    by_path.emplace(realPath(units[i].file), i);
  for (size_t i = 0; i < units.size(); ++i)
    for (const std::string &path : summaries[i].includes)
      if (auto it = by_path.find(path); it != by_path.end() && it->second != i)
        index.included_.insert(it->second);
  index.host_defines_.resize(units.size());
  index.external_calls_.resize(units.size());
  for (size_t i = 0; i < units.size(); ++i) {
    if (index.isIncluded(i))
      continue;
    index.host_defines_[i] = summaries[i].host_defines;
    index.external_calls_[i] = summaries[i].external_calls;
    for (const std::string &key : summaries[i].defines)
      index.owner_.emplace(key, i);
    for (const std::string &key : summaries[i].launches)
      index.launchers_[key].insert(i);
  }
  return index;
}

bool ProgramIndex::owns(size_t unit, const std::string &kernel) const {
  if (single_)
    return true;
  auto it = owner_.find(kernel);
  // A kernel only the device side sees (under `#ifdef __CUDA_ARCH__`) is
  // analyzed by each unit that has it; its candidates are merged later.
  if (it == owner_.end())
    return !isIncluded(unit);
  return it->second == unit;
}

std::vector<size_t> ProgramIndex::otherLaunchers(const std::string &kernel,
                                                 size_t unit) const {
  std::vector<size_t> out;
  auto it = launchers_.find(kernel);
  if (it == launchers_.end())
    return out;
  for (size_t launcher : it->second)
    if (launcher != unit)
      out.push_back(launcher);
  return out;
}

std::vector<size_t> ProgramIndex::unitsCallingInto(size_t unit) const {
  std::vector<size_t> out;
  if (single_ || unit >= host_defines_.size())
    return out;
  for (size_t other = 0; other < external_calls_.size(); ++other) {
    if (other == unit)
      continue;
    const std::set<std::string> &calls = external_calls_[other];
    if (std::any_of(calls.begin(), calls.end(), [&](const std::string &key) {
          return host_defines_[unit].count(key) > 0;
        }))
      out.push_back(other);
  }
  return out;
}

} // namespace gpurace::analyzer
