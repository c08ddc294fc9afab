#include "analyzer/frontend/PrecompiledHeaders.h"

#include "analyzer/frontend/FixedArgumentsTool.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <cstdio>
#include <set>

namespace gpurace::analyzer {

namespace {

// Runs Clang on the invocation to write a precompiled header of what the
// empty source file includes: the forced includes alone.
class HeaderWriter : public clang::tooling::ToolAction {
public:
  explicit HeaderWriter(std::string output) : output_(std::move(output)) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                     clang::FileManager *files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer *consumer) override {
    invocation->getFrontendOpts().OutputFile = output_;
    invocation->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
    // The headers' own template instantiations are done once, here, rather
    // than at the end of every parse that loads them.
    invocation->getLangOpts().PCHInstantiateTemplates = true;
    clang::CompilerInstance compiler(std::move(invocation), std::move(pch));
    compiler.setFileManager(llvm::IntrusiveRefCntPtr<clang::FileManager>(files));
    compiler.createDiagnostics(consumer, /*ShouldOwnClient=*/false);
    compiler.createSourceManager();
    clang::GeneratePCHAction action;
    return compiler.ExecuteAction(action) && !compiler.getDiagnostics().hasErrorOccurred();
  }

private:
  std::string output_;
};

// What the precompiled header depends on besides the headers' text, which
// Clang checks itself: the arguments (without the source file), the
// directory relative include paths start from, and the Clang that reads it.
std::string keyOf(const std::vector<std::string> &argv) {
  std::string text = clang::getClangFullRepositoryVersion();
  llvm::SmallString<256> cwd;
  if (!llvm::sys::fs::current_path(cwd))
    text += "\n" + cwd.str().str();
  for (size_t i = 0; i + 1 < argv.size(); ++i)
    text += "\n" + argv[i];
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(llvm::xxh3_64bits(text)));
  return hex;
}

// The functions of the precompiled headers that the file's code calls or
// names, and those their bodies do in turn: the analysis follows their
// bodies (make_cudaExtent, an atomic's wrapper).
class ReachedFunctions : public clang::DynamicRecursiveASTVisitor {
public:
  std::vector<clang::Decl *> found;

  void reachFrom(clang::Decl *decl) {
    TraverseDecl(decl);
    while (!pending_.empty()) {
      const clang::FunctionDecl *function = pending_.back();
      pending_.pop_back();
      TraverseStmt(function->getBody());
    }
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    reach(ref->getDecl());
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *member) override {
    reach(member->getMemberDecl());
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *construct) override {
    reach(construct->getConstructor());
    return true;
  }

private:
  // Whether `function` is declared inside the precompiled headers (an
  // instantiation of their template too, although it is made here): the
  // file's own declarations are in the traversal scope already.
  static bool inHeaders(const clang::FunctionDecl &function) {
    const clang::Decl *outermost = &function;
    for (const clang::DeclContext *context = function.getLexicalDeclContext();
         context && !llvm::isa<clang::TranslationUnitDecl>(context);
         context = context->getLexicalParent())
      outermost = llvm::cast<clang::Decl>(context);
    return outermost->isFromASTFile();
  }
  void reach(clang::Decl *decl) {
    auto *function = llvm::dyn_cast_or_null<clang::FunctionDecl>(decl);
    if (!function)
      return;
    const clang::FunctionDecl *definition = nullptr;
    if (!function->hasBody(definition) || !inHeaders(*definition))
      return;
    if (seen_.insert(definition).second) {
      found.push_back(const_cast<clang::FunctionDecl *>(definition));
      pending_.push_back(definition);
    }
  }
  std::set<const clang::FunctionDecl *> seen_;
  std::vector<const clang::FunctionDecl *> pending_;
};

} // namespace

void scopeToFile(clang::ASTContext &ast) {
  std::vector<clang::Decl *> own;
  for (clang::Decl *decl : ast.getTranslationUnitDecl()->noload_decls())
    if (!decl->isFromASTFile())
      own.push_back(decl);
  ReachedFunctions reached;
  for (clang::Decl *decl : own)
    reached.reachFrom(decl);
  own.insert(own.end(), reached.found.begin(), reached.found.end());
  ast.setTraversalScope(own);
}

PrecompiledHeaders::PrecompiledHeaders(std::string directory)
    : directory_(std::move(directory)) {}

std::optional<std::string> PrecompiledHeaders::forParse(const std::vector<std::string> &argv) {
  if (argv.size() < 2)
    return std::nullopt;
  std::string key = keyOf(argv);
  std::string path = directory_ + "/" + key + ".pch";
  std::lock_guard<std::mutex> lock(mutex_);
  auto known = known_.find(path);
  if (known != known_.end())
    return known->second ? std::optional<std::string>(path) : std::nullopt;
  std::optional<std::string> built =
      llvm::sys::fs::exists(path) ? std::optional<std::string>(path) : build(argv, path);
  known_[path] = built.has_value();
  return built;
}

void PrecompiledHeaders::discard(const std::string &path) {
  std::lock_guard<std::mutex> lock(mutex_);
  llvm::sys::fs::remove(path);
  // Not rebuilt in this process: a header that fails once would fail again.
  known_[path] = false;
}

std::optional<std::string> PrecompiledHeaders::build(const std::vector<std::string> &argv,
                                                     const std::string &path) {
  if (llvm::sys::fs::create_directories(directory_))
    return std::nullopt;
  // The empty file the header is built for stays: Clang records it among
  // the header's inputs and checks it when loading.
  std::string source = path.substr(0, path.size() - 4) +
                       llvm::sys::path::extension(argv.back()).str();
  if (!llvm::sys::fs::exists(source)) {
    std::error_code error;
    llvm::raw_fd_ostream empty(source, error);
    if (error)
      return std::nullopt;
  }
  llvm::SmallString<256> temporary;
  if (llvm::sys::fs::createUniqueFile(path + ".%%%%%%%%.tmp", temporary))
    return std::nullopt;
  FixedArgumentsTool parse(argv, source);
  clang::IgnoringDiagConsumer quiet;
  parse.tool().setDiagnosticConsumer(&quiet);
  HeaderWriter writer(temporary.str().str());
  if (parse.tool().run(&writer) != 0 || llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return std::nullopt;
  }
  prune();
  return path;
}

void PrecompiledHeaders::prune() {
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> headers;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(directory_, error), end; it != end && !error;
       it.increment(error)) {
    if (llvm::sys::path::extension(it->path()) != ".pch")
      continue;
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(it->path(), status))
      headers.emplace_back(status.getLastModificationTime(), it->path());
  }
  if (headers.size() <= kKept)
    return;
  std::sort(headers.begin(), headers.end());
  for (size_t i = 0; i + kKept < headers.size(); ++i) {
    const std::string &old = headers[i].second;
    llvm::sys::fs::remove(old);
    known_.erase(old);
    std::string stem = old.substr(0, old.size() - 4);
    for (const char *extension : {".cu", ".cuh"})
      llvm::sys::fs::remove(stem + extension);
  }
}

std::string defaultCacheDirectory() {
  if (std::optional<std::string> cache = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      cache && !cache->empty())
    return *cache + "/gpurace";
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME");
      home && !home->empty())
    return *home + "/.cache/gpurace";
  return "";
}

} // namespace gpurace::analyzer
