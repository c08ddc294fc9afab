#include "analyzer/repair/DivergenceRepairs.h"

#include "analyzer/repair/StatementEdits.h"

#include <clang/AST/DynamicRecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <map>
#include <set>

namespace gpurace::analyzer {

namespace {

// What a condition reads: the variables it names, and whether it loads
// from memory (an element, a dereference, a field through a pointer, a
// call).
struct ConditionReads {
  std::set<const clang::ValueDecl *> variables;
  bool memory = false;
};

class ConditionReader : public clang::DynamicRecursiveASTVisitor {
public:
  ConditionReads reads;

  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) override {
    reads.variables.insert(ref->getDecl());
    return true;
  }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *) override { return loads(); }
  bool VisitCallExpr(clang::CallExpr *) override { return loads(); }
  bool VisitUnaryOperator(clang::UnaryOperator *op) override {
    return op->getOpcode() == clang::UO_Deref ? loads() : true;
  }
  bool VisitMemberExpr(clang::MemberExpr *member) override {
    // threadIdx.x and its kin are no memory the branch could write.
    return member->isArrow() ? loads() : true;
  }

private:
  bool loads() {
    reads.memory = true;
    return true;
  }
};

// Whether the statements write a variable the condition reads, or any
// memory when the condition loads from memory.
class WriteFinder : public clang::DynamicRecursiveASTVisitor {
public:
  explicit WriteFinder(const ConditionReads &reads) : reads_(reads) {}

  bool changes = false;

  bool VisitBinaryOperator(clang::BinaryOperator *op) override {
    if (op->isAssignmentOp())
      written(op->getLHS());
    return !changes;
  }
  bool VisitUnaryOperator(clang::UnaryOperator *op) override {
    if (op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf)
      written(op->getSubExpr());
    return !changes;
  }
  bool VisitCallExpr(clang::CallExpr *) override {
    // A call may write through any pointer it is given.
    changes = changes || reads_.memory;
    return !changes;
  }

private:
  void written(const clang::Expr *target) {
    target = target->IgnoreParenImpCasts();
    if (auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(target))
      changes = changes || reads_.variables.count(ref->getDecl());
    else
      changes = changes || reads_.memory;
  }

  const ConditionReads &reads_;
};

// Whether `condition` has the same value after the statements of `block`
// from `from` (exclusive, or the first when null) up to `barrier`.
bool conditionStable(const clang::Expr &condition, const clang::CompoundStmt &block,
                     const clang::Stmt *from, const clang::Stmt &barrier,
                     clang::ASTContext &ast) {
  if (condition.HasSideEffects(ast))
    return false;
  ConditionReader reader;
  reader.TraverseStmt(const_cast<clang::Expr *>(&condition));
  WriteFinder writes(reader.reads);
  bool started = from == nullptr;
  for (const clang::Stmt *stmt : block.body()) {
    if (stmt == &barrier)
      break;
    if (started)
      writes.TraverseStmt(const_cast<clang::Stmt *>(stmt));
    started = started || stmt == from;
  }
  return !writes.changes;
}

bool blank(const std::string &text) {
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

// `if (c) { A; B; C; }` as `if (c) { A; }`, B, `if (c) { C; }`, each part
// written as it was; B must be alone on its line (a comment after it
// stays with it).
std::optional<RepairCandidate> splitBranch(const clang::IfStmt &branch,
                                           const clang::Stmt &barrier, const std::string &text,
                                           clang::ASTContext &ast) {
  auto *then = llvm::dyn_cast<clang::CompoundStmt>(branch.getThen());
  if (!then || branch.getElse() || branch.getInit() || branch.getConditionVariable() ||
      std::find(then->body_begin(), then->body_end(), &barrier) == then->body_end())
    return std::nullopt;
  if (auto *outer = llvm::dyn_cast_or_null<clang::IfStmt>(parentStmt(branch, ast));
      outer && outer->getElse() == &branch)
    return std::nullopt; // an `else if`: the chain would break
  if (!conditionStable(*branch.getCond(), *then, nullptr, barrier, ast))
    return std::nullopt;
  auto whole = offsetsOf(branch, ast), call = offsetsOf(barrier, ast);
  if (!whole || !call)
    return std::nullopt;
  const clang::SourceManager &sources = ast.getSourceManager();
  size_t open = sources.getFileOffset(sources.getFileLoc(then->getLBracLoc()));
  size_t close = sources.getFileOffset(sources.getFileLoc(then->getRBracLoc()));
  size_t branch_line = lineStart(text, whole->first), call_line = lineStart(text, call->first);
  size_t call_line_end = text.find('\n', call->second);
  if (!blank(text.substr(branch_line, whole->first - branch_line)) ||
      !blank(text.substr(call_line, call->first - call_line)) ||
      call_line_end == std::string::npos || call_line_end >= close)
    return std::nullopt;
  std::string indent = text.substr(branch_line, whole->first - branch_line);
  std::string condition = textOf(*branch.getCond(), ast);
  std::string before = text.substr(open + 1, call_line - open - 1);
  std::string after = text.substr(call_line_end + 1, close - call_line_end - 1);
  std::string split;
  if (!blank(before))
    split += "if (" + condition + ") {" + before + indent + "}\n" + indent;
  split += text.substr(call->first, call_line_end - call->first);
  if (!blank(after))
    split += "\n" + indent + "if (" + condition + ") {\n" + after + "}";
  RepairCandidate candidate;
  candidate.kind = "barrier-moved";
  candidate.summary = "split the branch of line " + std::to_string(lineOf(branch, ast)) +
                      " around '" + textOf(barrier, ast) +
                      "': every thread reaches it, each runs the same statements";
  candidate.edits.push_back({whole->first, whole->second - whole->first, split});
  return candidate;
}

// `c` negated as a person would write it: a comparison of integers turned
// around, anything else as `!(c)`.
std::string negated(const clang::Expr &condition, clang::ASTContext &ast) {
  static const std::map<clang::BinaryOperatorKind, const char *> kOpposite = {
      {clang::BO_LT, ">="}, {clang::BO_GE, "<"},  {clang::BO_GT, "<="},
      {clang::BO_LE, ">"},  {clang::BO_EQ, "!="}, {clang::BO_NE, "=="}};
  auto *compare = llvm::dyn_cast<clang::BinaryOperator>(condition.IgnoreParens());
  if (compare && kOpposite.count(compare->getOpcode()) &&
      compare->getLHS()->getType()->isIntegerType() &&
      compare->getRHS()->getType()->isIntegerType())
    return textOf(*compare->getLHS(), ast) + " " + kOpposite.at(compare->getOpcode()) + " " +
           textOf(*compare->getRHS(), ast);
  return "!(" + textOf(condition, ast) + ")";
}

// `text` with each line that has text indented two more spaces.
std::string indented(const std::string &text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && c != '\n')
      out += "  ";
    out += c;
    line_start = c == '\n';
  }
  return out;
}

// `if (c) return;` among the statements of `body` before `barrier`.
const clang::IfStmt *earlyReturnBefore(const clang::CompoundStmt &body,
                                       const clang::Stmt &barrier) {
  const clang::IfStmt *found = nullptr;
  for (const clang::Stmt *stmt : body.body()) {
    if (stmt == &barrier)
      return found;
    auto *branch = llvm::dyn_cast<clang::IfStmt>(stmt);
    const clang::Stmt *then = branch ? branch->getThen() : nullptr;
    if (auto *block = llvm::dyn_cast_or_null<clang::CompoundStmt>(then); block && block->size() == 1)
      then = block->body_front();
    auto *exit = llvm::dyn_cast_or_null<clang::ReturnStmt>(then);
    if (exit && !exit->getRetValue() && !branch->getElse() && !branch->getInit() &&
        !branch->getConditionVariable())
      found = branch;
  }
  return nullptr;
}

// A kernel's early exit before its barrier, `if (c) return; A; B; C;`,
// as guards that every thread passes the barrier between:
// `if (!c) { A; } B; if (!c) { C; }`. The barrier must be a statement of
// the function's body, so that nothing after that body was skipped.
std::optional<RepairCandidate> guardInsteadOfReturn(const clang::Stmt &barrier,
                                                    const std::string &text,
                                                    clang::ASTContext &ast) {
  const clang::FunctionDecl *function = functionOf(barrier, ast);
  auto *body = function ? llvm::dyn_cast_or_null<clang::CompoundStmt>(function->getBody())
                        : nullptr;
  if (!body || parentStmt(barrier, ast) != body)
    return std::nullopt;
  const clang::IfStmt *exit = earlyReturnBefore(*body, barrier);
  if (!exit || !conditionStable(*exit->getCond(), *body, exit, barrier, ast))
    return std::nullopt;
  auto exit_range = offsetsOf(*exit, ast), call = offsetsOf(barrier, ast);
  if (!exit_range || !call)
    return std::nullopt;
  const clang::SourceManager &sources = ast.getSourceManager();
  size_t close = sources.getFileOffset(sources.getFileLoc(body->getRBracLoc()));
  size_t exit_line = lineStart(text, exit_range->first), call_line = lineStart(text, call->first);
  size_t exit_stop = exit_range->second + (text[exit_range->second] == ';' ? 1 : 0);
  size_t exit_end = text.find('\n', exit_stop);
  size_t call_end = text.find('\n', call->second);
  if (!blank(text.substr(exit_line, exit_range->first - exit_line)) ||
      !blank(text.substr(call_line, call->first - call_line)) || exit_end == std::string::npos ||
      call_end == std::string::npos || call_end >= close || exit_end >= call_line ||
      !blank(text.substr(exit_stop, exit_end - exit_stop)))
    return std::nullopt;
  std::string indent = text.substr(call_line, call->first - call_line);
  std::string guard = "if (" + negated(*exit->getCond(), ast) + ") {\n";
  std::string before = text.substr(exit_end + 1, call_line - exit_end - 1);
  std::string after = text.substr(call_end + 1, close - call_end - 1);
  size_t after_end = after.find_last_of('\n');
  after = after_end == std::string::npos ? "" : after.substr(0, after_end + 1);
  std::string rewritten;
  if (!blank(before))
    rewritten += indent + guard + indented(before) + indent + "}\n";
  rewritten += text.substr(call_line, call_end + 1 - call_line);
  if (!blank(after))
    rewritten += indent + guard + indented(after) + indent + "}\n";
  RepairCandidate candidate;
  candidate.kind = "barrier-moved";
  candidate.summary = "replace the early return of line " + std::to_string(lineOf(*exit, ast)) +
                      " by guards around the code before and after '" + textOf(barrier, ast) +
                      "': every thread reaches it, each runs the same statements";
  candidate.edits.push_back({exit_line, call_end + 1 + after.size() - exit_line, rewritten});
  return candidate;
}

// The barrier taken out of `construct` and put after (or before) it.
std::optional<RepairCandidate> moveOut(const clang::Stmt &construct, const clang::Stmt &barrier,
                                       bool after, const std::string &text,
                                       clang::ASTContext &ast) {
  std::string call = textOf(barrier, ast);
  std::optional<TextEdit> removal = deletionOf(barrier, text, ast);
  std::optional<TextEdit> insertion = insertionAt(construct, after, call, text, ast);
  if (!removal || !insertion)
    return std::nullopt;
  RepairCandidate candidate;
  candidate.kind = "barrier-moved";
  std::string what = llvm::isa<clang::IfStmt>(construct) ? "branch" : "loop";
  candidate.summary = "move '" + call + "' out of the " + what + " of line " +
                      std::to_string(lineOf(construct, ast)) + ", " +
                      (after ? "after" : "before") + " it";
  candidate.edits = {*removal, *insertion};
  return candidate;
}

} // namespace

CandidateSearch divergenceRepairs(const v1::RaceCandidate &finding, const std::string &text,
                                  clang::ASTContext &ast) {
  CandidateSearch search;
  // A barrier in a called function is repaired there: moving the call
  // would move the function's other work too.
  const clang::Stmt *call = stmtAt(finding.first().location(), ast);
  auto blocks = call ? enclosingBlocks(*call, ast)
                     : std::vector<std::pair<const clang::CompoundStmt *, const clang::Stmt *>>{};
  if (blocks.empty()) {
    search.none_because = "the barrier is not found in the parsed source";
    return search;
  }
  const clang::Stmt *barrier = blocks.front().second;
  if (auto guarded = guardInsteadOfReturn(*barrier, text, ast))
    search.candidates.push_back(std::move(*guarded));
  int constructs = 0;
  for (const clang::Stmt *up = parentStmt(*barrier, ast); up && constructs < 2;
       up = parentStmt(*up, ast)) {
    if (!llvm::isa<clang::IfStmt, clang::ForStmt, clang::WhileStmt, clang::DoStmt>(up))
      continue;
    ++constructs;
    if (auto *branch = llvm::dyn_cast<clang::IfStmt>(up))
      if (auto split = splitBranch(*branch, *barrier, text, ast))
        search.candidates.push_back(std::move(*split));
    for (bool after : {true, false})
      if (auto moved = moveOut(*up, *barrier, after, text, ast))
        search.candidates.push_back(std::move(*moved));
  }
  if (search.candidates.empty())
    search.none_because = "the barrier is in no branch or loop of its function that it could "
                          "be taken out of";
  return search;
}

} // namespace gpurace::analyzer
