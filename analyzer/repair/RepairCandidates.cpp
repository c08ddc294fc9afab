#include "analyzer/repair/RepairCandidates.h"

#include "analyzer/repair/DivergenceRepairs.h"
#include "analyzer/repair/StatementEdits.h"

#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <cctype>
#include <optional>
#include <set>

namespace gpurace::analyzer {

namespace {

// The atomic function for a compound assignment on `type`, if CUDA has one.
std::string atomicFor(clang::BinaryOperatorKind op, clang::QualType type) {
  bool integer = type->isIntegerType() && !type->isBooleanType();
  bool floating = type->isFloatingType();
  if (!integer && !floating)
    return "";
  switch (op) {
  case clang::BO_AddAssign: return "atomicAdd";
  case clang::BO_SubAssign: return integer ? "atomicSub" : "";
  case clang::BO_OrAssign: return integer ? "atomicOr" : "";
  case clang::BO_AndAssign: return integer ? "atomicAnd" : "";
  case clang::BO_XorAssign: return integer ? "atomicXor" : "";
  default: return "";
  }
}

// Whether `stmt` is an expression statement of its own: a body of a block,
// branch or loop, or a for loop's step.
bool valueUnused(const clang::Stmt &stmt, clang::ASTContext &ast) {
  const clang::Stmt *holder = parentStmt(stmt, ast);
  if (!holder || llvm::isa<clang::Expr, clang::ReturnStmt, clang::DeclStmt>(holder))
    return false;
  if (auto *branch = llvm::dyn_cast<clang::IfStmt>(holder))
    return branch->getCond() != &stmt;
  if (auto *loop = llvm::dyn_cast<clang::WhileStmt>(holder))
    return loop->getCond() != &stmt;
  if (auto *loop = llvm::dyn_cast<clang::DoStmt>(holder))
    return loop->getCond() != &stmt;
  if (auto *loop = llvm::dyn_cast<clang::ForStmt>(holder))
    return loop->getCond() != &stmt;
  return !llvm::isa<clang::SwitchStmt>(holder);
}

// A plain access that races with atomics on the same word (a loop that
// polls a counter other threads add to) as an atomic of its own: a read
// becomes `atomicAdd(&x, 0)`, a store of its own `atomicExch(&x, v)`.
std::optional<RepairCandidate> plainAsAtomic(const clang::Expr &found, bool write,
                                             clang::ASTContext &ast) {
  // The load of a read has the range of what it loads: either may be found.
  const clang::Expr &access = *found.IgnoreImpCasts();
  clang::QualType type = access.getType();
  if (type.isConstQualified() || type.isVolatileQualified())
    return std::nullopt;
  const clang::BuiltinType *builtin = type.getCanonicalType()->getAs<clang::BuiltinType>();
  uint64_t bits = ast.getTypeSize(type);
  bool word = builtin && ((builtin->isInteger() && (bits == 32 || bits == 64) &&
                           (bits == 32 || builtin->isUnsignedInteger())) ||
                          builtin->getKind() == clang::BuiltinType::Float);
  if (!word)
    return std::nullopt;
  std::string target = "&" + textOf(access, ast), call;
  const clang::Stmt *replaced = &access;
  if (!write) {
    auto *load = llvm::dyn_cast<clang::ImplicitCastExpr>(&found);
    if (!load)
      load = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(parentStmt(access, ast));
    if (!load || load->getCastKind() != clang::CK_LValueToRValue)
      return std::nullopt;
    call = "atomicAdd(" + target + ", 0)";
  } else {
    auto *store = llvm::dyn_cast_or_null<clang::BinaryOperator>(parentStmt(access, ast));
    if (!store || store->getOpcode() != clang::BO_Assign ||
        store->getLHS()->IgnoreParenImpCasts() != &access || !valueUnused(*store, ast))
      return std::nullopt;
    call = "atomicExch(" + target + ", " + textOf(*store->getRHS(), ast) + ")";
    replaced = store;
  }
  auto range = offsetsOf(*replaced, ast);
  if (!range)
    return std::nullopt;
  RepairCandidate candidate;
  candidate.kind = "atomic";
  candidate.summary = std::string("make the plain ") + (write ? "store" : "read") + " '" +
                      textOf(*replaced, ast) + "' atomic: " + call;
  candidate.edits.push_back({range->first, range->second - range->first, call});
  return candidate;
}

// A read-modify-write of `access` written as a statement of its own, as
// the matching atomic call.
std::optional<RepairCandidate> atomicRewrite(const clang::Expr &access, clang::ASTContext &ast) {
  const clang::Stmt *rmw = parentStmt(access, ast);
  while (rmw && llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr>(rmw))
    rmw = parentStmt(*rmw, ast);
  if (!rmw)
    return std::nullopt;
  if (!valueUnused(*rmw, ast))
    return std::nullopt; // an atomic returns the old value, not the new one
  std::string target = "&" + textOf(access, ast);
  clang::QualType type = access.getType();
  std::string call;
  if (auto *unary = llvm::dyn_cast<clang::UnaryOperator>(rmw)) {
    if (!unary->isIncrementDecrementOp() || !type->isIntegerType() || type->isBooleanType())
      return std::nullopt;
    call = std::string(unary->isIncrementOp() ? "atomicAdd(" : "atomicSub(") + target + ", 1)";
  } else if (auto *compound = llvm::dyn_cast<clang::CompoundAssignOperator>(rmw)) {
    std::string function = atomicFor(compound->getOpcode(), type);
    if (function.empty() || compound->getLHS()->IgnoreParenImpCasts() != &access)
      return std::nullopt;
    call = function + "(" + target + ", " + textOf(*compound->getRHS(), ast) + ")";
  } else if (auto *assign = llvm::dyn_cast<clang::BinaryOperator>(rmw);
             assign && assign->getOpcode() == clang::BO_Assign &&
             assign->getLHS()->IgnoreParenImpCasts() == &access) {
    // x = x + v, x = max(x, v): the other operand is what the atomic takes.
    const clang::Expr *value = assign->getRHS()->IgnoreParenImpCasts();
    std::string lhs = textOf(access, ast), function, operand;
    if (auto *sum = llvm::dyn_cast<clang::BinaryOperator>(value);
        sum && sum->getOpcode() == clang::BO_Add) {
      function = atomicFor(clang::BO_AddAssign, type);
      if (textOf(*sum->getLHS()->IgnoreParenImpCasts(), ast) == lhs)
        operand = textOf(*sum->getRHS(), ast);
      else if (textOf(*sum->getRHS()->IgnoreParenImpCasts(), ast) == lhs)
        operand = textOf(*sum->getLHS(), ast);
    } else if (auto *callee = llvm::dyn_cast<clang::CallExpr>(value);
               callee && callee->getNumArgs() == 2 && callee->getDirectCallee() &&
               type->isIntegerType()) {
      std::string name = callee->getDirectCallee()->getNameAsString();
      if (name == "max" || name == "min") {
        function = name == "max" ? "atomicMax" : "atomicMin";
        if (textOf(*callee->getArg(0)->IgnoreParenImpCasts(), ast) == lhs)
          operand = textOf(*callee->getArg(1), ast);
        else if (textOf(*callee->getArg(1)->IgnoreParenImpCasts(), ast) == lhs)
          operand = textOf(*callee->getArg(0), ast);
      }
    }
    if (function.empty() || operand.empty())
      return std::nullopt;
    call = function + "(" + target + ", " + operand + ")";
  } else {
    return std::nullopt;
  }
  auto range = offsetsOf(*rmw, ast);
  if (!range)
    return std::nullopt;
  RepairCandidate candidate;
  candidate.kind = "atomic";
  candidate.summary = "make '" + textOf(*llvm::cast<clang::Expr>(rmw), ast) + "' atomic: " + call;
  candidate.edits.push_back({range->first, range->second - range->first, call});
  return candidate;
}


// Block-scope synchronization in a function, each with its device-scope
// spelling: `atomicAdd_block` (any atomic), `__threadfence_block`,
// `cuda::thread_scope_block`.
class BlockScopeFinder : public clang::DynamicRecursiveASTVisitor {
public:
  explicit BlockScopeFinder(clang::ASTContext &ast) : ast_(ast) {}

  std::vector<TextEdit> edits;
  std::vector<std::string> changes;

  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    const clang::NamedDecl *decl = ref->getDecl();
    if (!decl->getIdentifier())
      return true;
    std::string name = decl->getName().str(), wider;
    if (name == "__threadfence_block")
      wider = "__threadfence";
    else if (name.rfind("atomic", 0) == 0 && name.size() > 6 &&
             name.compare(name.size() - 6, 6, "_block") == 0)
      wider = name.substr(0, name.size() - 6);
    else if (name == "thread_scope_block" && llvm::isa<clang::EnumConstantDecl>(decl))
      wider = "thread_scope_device";
    else
      return true;
    const clang::SourceManager &sources = ast_.getSourceManager();
    clang::SourceLocation at = ref->getLocation();
    if (at.isMacroID() || !sources.isInMainFile(at))
      return true;
    edits.push_back({sources.getFileOffset(at), name.size(), wider});
    changes.push_back(name + " -> " + wider + " (line " +
                      std::to_string(sources.getPresumedLineNumber(at)) + ")");
    return true;
  }

private:
  clang::ASTContext &ast_;
};

// Every block-scope synchronization of the functions holding the accesses,
// widened to the device: the repair of a race between blocks that such
// synchronization was meant to order.
std::optional<RepairCandidate> widenedScope(const clang::Stmt &first, const clang::Stmt &second,
                                            clang::ASTContext &ast) {
  BlockScopeFinder finder(ast);
  std::set<const clang::FunctionDecl *> functions;
  for (const clang::Stmt *access : {&first, &second})
    if (const clang::FunctionDecl *function = functionOf(*access, ast);
        function && functions.insert(function).second)
      finder.TraverseDecl(const_cast<clang::FunctionDecl *>(function));
  if (finder.edits.empty())
    return std::nullopt;
  RepairCandidate candidate;
  candidate.kind = "scope";
  candidate.summary = "widen to device scope: ";
  for (size_t i = 0; i < finder.changes.size(); ++i)
    candidate.summary += (i ? ", " : "") + finder.changes[i];
  candidate.edits = std::move(finder.edits);
  return candidate;
}

// Where each access sits in the function both reach: the access itself,
// or the call that leads to it when it is in a callee the other access's
// path does not share.
struct Anchors {
  v1::SourceLocation first, second;
};

Anchors anchorsOf(const v1::AccessSite &a, const v1::AccessSite &b) {
  int common = 0;
  while (common < a.call_stack_size() && common < b.call_stack_size() &&
         sameRange(a.call_stack(common).call_site(), b.call_stack(common).call_site()))
    ++common;
  auto anchor = [common](const v1::AccessSite &site) {
    return common < site.call_stack_size() ? site.call_stack(common).call_site()
                                           : site.location();
  };
  return {anchor(a), anchor(b)};
}


// An identifier that the file does not use yet.
std::string freshName(const std::string &text) {
  auto used = [&](const std::string &name) {
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
      auto identifier = [](char c) { return std::isalnum((unsigned char)c) || c == '_'; };
      bool starts = at == 0 || !identifier(text[at - 1]);
      bool ends = at + name.size() >= text.size() || !identifier(text[at + name.size()]);
      if (starts && ends)
        return true;
    }
    return false;
  };
  std::string name = "value_read";
  for (int suffix = 2; used(name); ++suffix)
    name = "value_read" + std::to_string(suffix);
  return name;
}

// Threads racing within one assignment (`a[i] = a[i - 1] + a[i + 1]`,
// `s[t] += s[t - d]`): its right-hand side read into a local first, then
// the barrier, then the store; also with a second barrier after the store
// for the next iteration's reads.
// Under a guard with no else (`if (t >= d) s[t] += s[t - d];`) the barrier
// cannot go inside the branch: the guard is evaluated once into a flag,
// the read happens under it, the barrier outside, then the store under it.
std::vector<RepairCandidate> splitAssignment(const clang::Stmt &stmt, const std::string &call,
                                             const std::string &text, clang::ASTContext &ast) {
  const clang::Stmt *body = &stmt;
  auto *guard = llvm::dyn_cast<clang::IfStmt>(&stmt);
  if (guard) {
    if (guard->getElse() || guard->getInit() || guard->getConditionVariable() ||
        guard->getCond()->HasSideEffects(ast))
      return {};
    body = guard->getThen();
    if (auto *block = llvm::dyn_cast<clang::CompoundStmt>(body); block && block->size() == 1)
      body = block->body_front();
  }
  auto *assign = llvm::dyn_cast<clang::BinaryOperator>(body);
  auto range = offsetsOf(stmt, ast);
  if (!assign || !assign->isAssignmentOp() || !range ||
      assign->getRHS()->getType()->isDependentType())
    return {};
  size_t line_start = lineStart(text, range->first);
  std::string indent = text.substr(line_start, range->first - line_start);
  if (indent.find_first_not_of(" \t") != std::string::npos)
    return {};
  std::string name = freshName(text);
  std::string rhs = textOf(*assign->getRHS(), ast), lhs = textOf(*assign->getLHS(), ast);
  std::string op = assign->getOpcodeStr().str();
  std::string split;
  if (!guard) {
    split = "auto " + name + " = " + rhs + ";\n" + indent + call + ";\n" + indent + lhs + " " +
            op + " " + name;
  } else {
    std::string type =
        assign->getRHS()->getType().getUnqualifiedType().getAsString(ast.getPrintingPolicy());
    std::string taken = name + "_taken", inner = indent + "  ";
    split = "bool " + taken + " = " + textOf(*guard->getCond(), ast) + ";\n" + indent + type +
            " " + name + "{};\n" + indent + "if (" + taken + ")\n" + inner + name + " = " + rhs +
            ";\n" + indent + call + ";\n" + indent + "if (" + taken + ")\n" + inner + lhs + " " +
            op + " " + name;
    if (llvm::isa<clang::CompoundStmt>(guard->getThen()))
      split += ";"; // the replaced range ends with the braces, past the ';'
  }
  unsigned line = lineOf(stmt, ast);
  RepairCandidate read_first;
  read_first.kind = "barrier";
  read_first.summary = "read the right-hand side of line " + std::to_string(line) +
                       " into '" + name + "', then " + call + ", then store";
  read_first.edits.push_back({range->first, range->second - range->first, split});
  std::vector<RepairCandidate> out{read_first};
  if (std::optional<TextEdit> after = insertionAt(stmt, true, call, text, ast)) {
    RepairCandidate both = read_first;
    both.summary += ", then " + call + " again";
    both.edits.push_back(*after);
    out.push_back(std::move(both));
  }
  return out;
}

std::vector<RepairCandidate> barrierPlacements(const clang::Stmt &first, const clang::Stmt &second,
                                               const std::string &call,
                                               const std::string &text,
                                               clang::ASTContext &ast) {
  auto outer_first = enclosingBlocks(first, ast), outer_second = enclosingBlocks(second, ast);
  std::set<const clang::CompoundStmt *> around_first;
  for (auto &[block, child] : outer_first)
    around_first.insert(block);
  const clang::SourceManager &sources = ast.getSourceManager();
  std::vector<RepairCandidate> out;
  std::set<size_t> offsets;
  auto add = [&](const clang::Stmt &at, bool after) {
    std::optional<TextEdit> edit = insertionAt(at, after, call, text, ast);
    if (!edit || !offsets.insert(edit->offset).second)
      return;
    RepairCandidate candidate;
    candidate.kind = "barrier";
    candidate.summary = "insert " + call + " " + (after ? "after" : "before") + " line " +
                        std::to_string(lineOf(at, ast));
    candidate.edits.push_back(*edit);
    out.push_back(std::move(candidate));
  };
  bool common_found = false;
  for (auto &[block, child_second] : outer_second) {
    if (!around_first.count(block))
      continue;
    const clang::Stmt *child_first = nullptr;
    for (auto &[b, c] : outer_first)
      if (b == block)
        child_first = c;
    bool first_is_earlier = !sources.isBeforeInTranslationUnit(child_second->getBeginLoc(),
                                                               child_first->getBeginLoc());
    const clang::Stmt *earlier = first_is_earlier ? child_first : child_second;
    const clang::Stmt *later = first_is_earlier ? child_second : child_first;
    // At each level: the split inside a branch is a divergent barrier,
    // the split of the branch itself is not.
    if (earlier == later)
      for (RepairCandidate &split : splitAssignment(*later, call, text, ast))
        out.push_back(std::move(split));
    if (!common_found && earlier != later)
      add(*later, false); // between the two, in program order
    add(*earlier, false); // before both: orders a later iteration's access
    add(*later, true);    // after both: the same, at the iteration's end
    common_found = true;
  }
  return out;
}

// The statement of its block that holds `access`.
const clang::Stmt *statementOf(const clang::Stmt &access, clang::ASTContext &ast) {
  auto blocks = enclosingBlocks(access, ast);
  return blocks.empty() ? nullptr : blocks.front().second;
}

// A hand-off (a flag stored and awaited, a lock) with no fence: one after
// the writer's access, before its release, and one before the reader's,
// after its acquire. Which access is the writer's is tried both ways when
// both write.
std::vector<RepairCandidate> fencePlacements(const v1::RaceCandidate &finding,
                                             const clang::Stmt &first, const clang::Stmt &second,
                                             const std::string &text, clang::ASTContext &ast) {
  std::string fence = finding.defect() == v1::SYNC_DEFECT_MISSING_BLOCK_FENCE
                          ? "__threadfence_block()"
                          : "__threadfence()";
  const clang::Stmt *a = statementOf(first, ast), *b = statementOf(second, ast);
  if (!a || !b || a == b)
    return {};
  if (finding.first().kind() == v1::ACCESS_KIND_READ &&
      finding.second().kind() != v1::ACCESS_KIND_READ)
    std::swap(a, b);
  bool both_write = finding.first().kind() != v1::ACCESS_KIND_READ &&
                    finding.second().kind() != v1::ACCESS_KIND_READ;
  std::vector<RepairCandidate> out;
  for (auto [writer, reader] : {std::pair{a, b}, std::pair{b, a}}) {
    std::optional<TextEdit> release = insertionAt(*writer, true, fence, text, ast);
    std::optional<TextEdit> acquire = insertionAt(*reader, false, fence, text, ast);
    if (release && acquire && release->offset != acquire->offset) {
      RepairCandidate candidate;
      candidate.kind = "fence";
      candidate.summary = "insert " + fence + " after line " +
                          std::to_string(lineOf(*writer, ast)) +
                          " (before the release) and before line " +
                          std::to_string(lineOf(*reader, ast)) +
                          " (after the acquire)";
      candidate.edits = {*release, *acquire};
      out.push_back(std::move(candidate));
    }
    if (!both_write)
      break;
  }
  return out;
}

// An `#include <cooperative_groups.h>` after the file's last include, or
// none when it has it.
std::optional<TextEdit> cooperativeGroupsInclude(const std::string &text) {
  if (text.find("<cooperative_groups.h>") != std::string::npos)
    return std::nullopt;
  size_t after_includes = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    if (text.compare(at, 8, "#include") == 0)
      after_includes = end;
    at = end;
  }
  return TextEdit{after_includes, 0, "#include <cooperative_groups.h>\n"};
}

// A grid-wide sync between accesses of different blocks, where a block
// barrier would go. It orders the whole grid only in a cooperative launch.
std::vector<RepairCandidate> gridSyncPlacements(const v1::RaceCandidate &finding,
                                                const clang::Stmt &first,
                                                const clang::Stmt &second,
                                                const std::string &text, clang::ASTContext &ast) {
  const std::string launch = finding.launch_site().expression();
  std::string prerequisite =
      launch.find("Cooperative") != std::string::npos
          ? ""
          : "a cooperative launch (cudaLaunchCooperativeKernel, or cudaLaunchKernelEx with "
            "cudaLaunchAttributeCooperative) with every block resident at once, instead of " +
                (launch.empty() ? std::string("a plain launch") : "'" + launch + "'");
  std::optional<TextEdit> include = cooperativeGroupsInclude(text);
  std::vector<RepairCandidate> out =
      barrierPlacements(first, second, "cooperative_groups::this_grid().sync()", text, ast);
  for (RepairCandidate &candidate : out) {
    candidate.kind = "grid-sync";
    candidate.prerequisite = prerequisite;
    if (include)
      candidate.edits.push_back(*include);
  }
  return out;
}

} // namespace

CandidateSearch repairCandidates(const v1::RaceCandidate &finding, const std::string &file,
                                 const std::string &text, clang::ASTContext &ast) {
  CandidateSearch search;
  const v1::AccessSite &a = finding.first(), &b = finding.second();
  if (a.location().file() != file || b.location().file() != file) {
    search.none_because = "an access is in another file (a header): only the analyzed file "
                          "itself is edited";
    return search;
  }
  if (finding.race_class() == v1::RACE_CLASS_BARRIER_DIVERGENCE)
    return divergenceRepairs(finding, text, ast);
  const clang::Stmt *first = stmtAt(a.location(), ast), *second = stmtAt(b.location(), ast);
  if (!first || !second) {
    search.none_because = "the accesses are not found in the parsed source";
    return search;
  }
  auto add = [&](std::vector<RepairCandidate> more) {
    for (RepairCandidate &candidate : more)
      search.candidates.push_back(std::move(candidate));
  };
  bool both_plain = a.kind() != v1::ACCESS_KIND_ATOMIC && b.kind() != v1::ACCESS_KIND_ATOMIC;
  // Threads racing on one read-modify-write: the atomic is the repair.
  if (both_plain && a.call_stack_size() == b.call_stack_size()) {
    for (const clang::Stmt *access : {first, second})
      if (auto *expr = llvm::dyn_cast<clang::Expr>(access))
        if (auto rewrite = atomicRewrite(*expr, ast)) {
          search.candidates.push_back(std::move(*rewrite));
          break;
        }
  }
  // A plain access racing with atomics: it becomes one too.
  for (auto [plain, other] : {std::pair{&a, &b}, std::pair{&b, &a}})
    if (plain->kind() != v1::ACCESS_KIND_ATOMIC && other->kind() == v1::ACCESS_KIND_ATOMIC)
      if (auto *expr = llvm::dyn_cast<clang::Expr>(plain == &a ? first : second))
        if (auto atomic = plainAsAtomic(*expr, plain->kind() == v1::ACCESS_KIND_WRITE, ast))
          search.candidates.push_back(std::move(*atomic));
  bool inter_block = finding.race_class() == v1::RACE_CLASS_INTER_BLOCK;
  // Synchronization of too narrow a scope: device scope is the repair.
  if (finding.race_class() == v1::RACE_CLASS_SCOPED || inter_block)
    if (auto widened = widenedScope(*first, *second, ast))
      search.candidates.push_back(std::move(*widened));
  if (finding.race_class() != v1::RACE_CLASS_SCOPED &&
      (finding.defect() == v1::SYNC_DEFECT_MISSING_DEVICE_FENCE ||
       finding.defect() == v1::SYNC_DEFECT_MISSING_BLOCK_FENCE))
    add(fencePlacements(finding, *first, *second, text, ast));
  Anchors anchors = anchorsOf(a, b);
  const clang::Stmt *at_first = stmtAt(anchors.first, ast);
  const clang::Stmt *at_second = stmtAt(anchors.second, ast);
  bool one_store = a.site_id() == b.site_id() && a.kind() == v1::ACCESS_KIND_WRITE;
  if (at_first && at_second) {
    if (finding.race_class() == v1::RACE_CLASS_INTRA_BLOCK)
      add(barrierPlacements(*at_first, *at_second, "__syncthreads()", text, ast));
    else if (finding.race_class() == v1::RACE_CLASS_INTRA_WARP)
      add(barrierPlacements(*at_first, *at_second, "__syncwarp()", text, ast));
    else if (inter_block && !one_store) // no sync orders one store of every block
      add(gridSyncPlacements(finding, *at_first, *at_second, text, ast));
  }
  if (search.candidates.empty())
    search.none_because =
        inter_block ? "threads of different blocks store to one place: no sync orders them, "
                      "and the store is no read-modify-write an atomic could replace (let one "
                      "block store, or give each block its own place)"
                    : "no read-modify-write to make atomic and no place for a barrier between "
                      "the accesses (both in one statement)";
  return search;
}

} // namespace gpurace::analyzer
