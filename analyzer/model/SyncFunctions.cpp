#include "analyzer/model/SyncFunctions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/StringSwitch.h>

#include <set>
#include <string>

namespace gpurace::analyzer {

std::string userQualifiedName(const clang::NamedDecl &decl) {
  std::string qualified = decl.getQualifiedNameAsString();
  const std::string prefix = "cooperative_groups::__v";
  if (qualified.rfind(prefix, 0) != 0)
    return qualified;
  size_t end = qualified.find("::", prefix.size());
  if (end == std::string::npos)
    return qualified;
  return "cooperative_groups::" + qualified.substr(end + 2);
}

bool isGroupClass(clang::QualType type) {
  const clang::CXXRecordDecl *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record && userQualifiedName(*record).rfind("cooperative_groups::", 0) == 0;
}

namespace {

// The cooperative-groups class of a member call's object, if any.
std::string groupClass(const clang::FunctionDecl &callee) {
  auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(&callee);
  if (!method)
    return {};
  const clang::CXXRecordDecl *record = method->getParent();
  std::string qualified = userQualifiedName(*record);
  if (qualified.rfind("cooperative_groups::", 0) != 0)
    return {};
  return record->getNameAsString();
}

std::optional<SyncFunction> groupSync(const std::string &group) {
  SyncFunction sync;
  if (group == "grid_group") {
    sync.kind = v1::SYNC_KIND_GRID_SYNC;
    sync.scope = v1::MEMORY_SCOPE_DEVICE;
    sync.orders_grid = true;
  } else if (group == "thread_block") {
    sync.kind = v1::SYNC_KIND_BARRIER;
    sync.scope = v1::MEMORY_SCOPE_BLOCK;
    sync.orders_block = true;
  } else if (group == "thread_block_tile" || group == "coalesced_group") {
    sync.kind = v1::SYNC_KIND_TILE_SYNC;
    sync.scope = v1::MEMORY_SCOPE_BLOCK;
    sync.orders_warp = true;
  } else {
    return std::nullopt;
  }
  return sync;
}

// Warp collectives synchronize the lanes of their mask or tile.
SyncFunction warpCollective() {
  SyncFunction sync;
  sync.kind = v1::SYNC_KIND_WARP_COLLECTIVE;
  sync.scope = v1::MEMORY_SCOPE_WARP;
  sync.orders_warp = true;
  return sync;
}

v1::MemoryScope scopeFromLibcu(int64_t value) {
  switch (value) {
  case 1: return v1::MEMORY_SCOPE_DEVICE;
  case 2: return v1::MEMORY_SCOPE_BLOCK;
  case 3: return v1::MEMORY_SCOPE_WARP; // thread scope: nobody else
  default: return v1::MEMORY_SCOPE_SYSTEM;
  }
}

// The cuda::atomic_ref / cuda::atomic specialization an object is, seen
// through derived-to-base conversions.
const clang::ClassTemplateSpecializationDecl *
scopedAtomicRecord(const clang::CXXMemberCallExpr &call) {
  const clang::Expr *object = call.getImplicitObjectArgument();
  if (!object)
    return nullptr;
  const clang::CXXRecordDecl *record =
      object->IgnoreParenBaseCasts()->getType()->getAsCXXRecordDecl();
  auto *specialization =
      llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
  if (!specialization)
    return nullptr;
  std::string name = specialization->getQualifiedNameAsString();
  if ((name != "cuda::atomic_ref" && name != "cuda::atomic") ||
      specialization->getTemplateArgs().size() < 2)
    return nullptr;
  return specialization;
}

enum LibcuOrder { kRelaxed, kConsume, kAcquire, kRelease, kAcqRel, kSeqCst };

// A constant argument's value; none when it is not one.
std::optional<int64_t> constantArgument(const clang::CallExpr &call, unsigned index,
                                        const clang::ASTContext &ast) {
  if (index >= call.getNumArgs())
    return std::nullopt;
  const clang::Expr *arg = call.getArg(index);
  clang::Expr::EvalResult value;
  if (arg->isValueDependent() || !arg->EvaluateAsInt(value, ast))
    return std::nullopt;
  return value.Val.getInt().getExtValue();
}

// __NV_THREAD_SCOPE_THREAD, _BLOCK, _CLUSTER, _DEVICE, _SYSTEM. A cluster
// is read as a block: atomics of two blocks of one cluster are then
// reported as not atomic to each other, never the other way round.
v1::MemoryScope scopeFromNv(std::optional<int64_t> value) {
  switch (value.value_or(4)) {
  case 0: return v1::MEMORY_SCOPE_WARP; // thread scope: nobody else
  case 1:
  case 2: return v1::MEMORY_SCOPE_BLOCK;
  case 3: return v1::MEMORY_SCOPE_DEVICE;
  default: return v1::MEMORY_SCOPE_SYSTEM;
  }
}

// What an atomic of this order orders, as a release and an acquire.
void setOrder(ScopedAtomicCall &atomic, int64_t order) {
  bool reads = atomic.op != v1::ATOMIC_OP_STORE;
  bool writes = atomic.op != v1::ATOMIC_OP_LOAD;
  atomic.releases = writes && (order == kRelease || order == kAcqRel || order == kSeqCst);
  atomic.acquires = reads && (order == kAcquire || order == kConsume ||
                              order == kAcqRel || order == kSeqCst);
}

} // namespace

std::optional<ScopedAtomicCall> classifyNvAtomicBuiltin(const clang::CallExpr &call,
                                                        const clang::ASTContext &ast) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  // Operators and conversions have no simple name to read.
  if (!callee || !callee->getIdentifier() || callee->getDeclContext()->isRecord() ||
      call.getNumArgs() < 2)
    return std::nullopt;
  llvm::StringRef name = callee->getName();
  if (!name.consume_front("__nv_atomic_"))
    return std::nullopt;
  // The op, and where its order and scope arguments are.
  struct Form {
    v1::AtomicOp op;
    unsigned order, scope;
  };
  std::optional<Form> form = llvm::StringSwitch<std::optional<Form>>(name)
                                 .Case("load_n", Form{v1::ATOMIC_OP_LOAD, 1, 2})
                                 .Case("store_n", Form{v1::ATOMIC_OP_STORE, 2, 3})
                                 .Case("exchange_n", Form{v1::ATOMIC_OP_EXCH, 2, 3})
                                 .Case("compare_exchange_n", Form{v1::ATOMIC_OP_CAS, 4, 6})
                                 .Case("fetch_add", Form{v1::ATOMIC_OP_ADD, 2, 3})
                                 .Case("fetch_sub", Form{v1::ATOMIC_OP_SUB, 2, 3})
                                 .Case("fetch_and", Form{v1::ATOMIC_OP_AND, 2, 3})
                                 .Case("fetch_or", Form{v1::ATOMIC_OP_OR, 2, 3})
                                 .Case("fetch_xor", Form{v1::ATOMIC_OP_XOR, 2, 3})
                                 .Case("fetch_min", Form{v1::ATOMIC_OP_MIN, 2, 3})
                                 .Case("fetch_max", Form{v1::ATOMIC_OP_MAX, 2, 3})
                                 .Default(std::nullopt);
  if (!form)
    return std::nullopt;
  ScopedAtomicCall atomic;
  atomic.op = form->op;
  atomic.scope = scopeFromNv(constantArgument(call, form->scope, ast));
  setOrder(atomic, constantArgument(call, form->order, ast).value_or(kSeqCst));
  return atomic;
}

std::optional<v1::MemoryScope> nvThreadFence(const clang::CallExpr &call,
                                             const clang::ASTContext &ast) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee || !callee->getIdentifier() || callee->getName() != "__nv_atomic_thread_fence" ||
      call.getNumArgs() < 1)
    return std::nullopt;
  if (constantArgument(call, 0, ast) == std::optional<int64_t>(kRelaxed))
    return std::nullopt;
  return scopeFromNv(constantArgument(call, 1, ast));
}

const clang::Expr *callObject(const clang::CallExpr &call) {
  if (auto *member = llvm::dyn_cast<clang::CXXMemberCallExpr>(&call))
    return member->getImplicitObjectArgument();
  if (auto *member = llvm::dyn_cast<clang::MemberExpr>(call.getCallee()->IgnoreParenImpCasts()))
    return member->getBase();
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (callee && !callee->getDeclContext()->isRecord() && call.getNumArgs() > 0 &&
      userQualifiedName(*callee).rfind("cooperative_groups::", 0) == 0)
    if (auto *record = call.getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl())
      if (userQualifiedName(*record).rfind("cooperative_groups::", 0) == 0)
        return call.getArg(0);
  return nullptr;
}

std::optional<v1::MemoryScope> libcuScope(const clang::Expr *scope,
                                          const clang::ASTContext &ast) {
  clang::Expr::EvalResult value;
  if (!scope || scope->isValueDependent() || !scope->EvaluateAsInt(value, ast))
    return std::nullopt;
  return scopeFromLibcu(value.Val.getInt().getExtValue());
}

std::optional<GroupShape> groupShapeOfType(const clang::Expr *object) {
  if (!object)
    return std::nullopt;
  const clang::CXXRecordDecl *record =
      object->IgnoreParenBaseCasts()->getType()->getAsCXXRecordDecl();
  if (!record)
    return std::nullopt;
  std::string name = userQualifiedName(*record);
  for (const char *group : {"thread_block", "thread_block_tile", "grid_group", "coalesced_group"}) {
    if (name != std::string("cooperative_groups::") + group)
      continue;
    GroupShape shape{group, std::nullopt};
    auto *tile = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(record);
    if (tile && shape.kind == "thread_block_tile" && tile->getTemplateArgs().size() >= 1 &&
        tile->getTemplateArgs()[0].getKind() == clang::TemplateArgument::Integral)
      shape.tile_size =
          static_cast<unsigned>(tile->getTemplateArgs()[0].getAsIntegral().getZExtValue());
    return shape;
  }
  return std::nullopt;
}

bool isAtomicRef(clang::QualType type) {
  const clang::CXXRecordDecl *record = type->getAsCXXRecordDecl();
  return record && record->getQualifiedNameAsString() == "cuda::atomic_ref";
}

clang::QualType scopedAtomicValueType(const clang::CXXMemberCallExpr &call) {
  const auto *record = scopedAtomicRecord(call);
  return record ? record->getTemplateArgs()[0].getAsType() : clang::QualType();
}

std::optional<ScopedAtomicCall> classifyScopedAtomic(const clang::CXXMemberCallExpr &call,
                                                     const clang::ASTContext &ast) {
  const auto *record = scopedAtomicRecord(call);
  const clang::CXXMethodDecl *method = call.getMethodDecl();
  if (!record || !method)
    return std::nullopt;
  ScopedAtomicCall atomic;
  llvm::StringRef name = method->getName();
  atomic.op = llvm::StringSwitch<v1::AtomicOp>(name)
                  .Case("load", v1::ATOMIC_OP_LOAD)
                  .Case("store", v1::ATOMIC_OP_STORE)
                  .Case("exchange", v1::ATOMIC_OP_EXCH)
                  .StartsWith("compare_exchange", v1::ATOMIC_OP_CAS)
                  .Case("fetch_add", v1::ATOMIC_OP_ADD)
                  .Case("fetch_sub", v1::ATOMIC_OP_SUB)
                  .Case("fetch_min", v1::ATOMIC_OP_MIN)
                  .Case("fetch_max", v1::ATOMIC_OP_MAX)
                  .Case("fetch_and", v1::ATOMIC_OP_AND)
                  .Case("fetch_or", v1::ATOMIC_OP_OR)
                  .Case("fetch_xor", v1::ATOMIC_OP_XOR)
                  .Default(v1::ATOMIC_OP_UNSPECIFIED);
  if (atomic.op == v1::ATOMIC_OP_UNSPECIFIED)
    return std::nullopt;
  const clang::TemplateArgument &scope = record->getTemplateArgs()[1];
  if (scope.getKind() == clang::TemplateArgument::Integral)
    atomic.scope = scopeFromLibcu(scope.getAsIntegral().getExtValue());
  // The memory order is the last parameter; its default is seq_cst.
  int64_t order = kSeqCst;
  if (call.getNumArgs() > 0) {
    const clang::Expr *last = call.getArg(call.getNumArgs() - 1);
    clang::Expr::EvalResult value;
    if (last->getType()->isEnumeralType() && !last->isValueDependent() &&
        last->EvaluateAsInt(value, ast))
      order = value.Val.getInt().getExtValue();
  }
  setOrder(atomic, order);
  return atomic;
}

std::optional<SyncFunction> classifySyncFunction(const clang::FunctionDecl &callee,
                                                 const std::optional<GroupShape> &object) {
  std::string name = callee.getNameAsString();
  std::string group = groupClass(callee);
  if (!group.empty()) {
    // A tile's shuffles and votes are warp collectives over the tile's
    // lanes, as their intrinsics are over a mask.
    static const std::set<std::string> kTileCollectives = {
        "shfl", "shfl_up", "shfl_down", "shfl_xor", "any", "all", "ballot", "match_any",
        "match_all"};
    if (kTileCollectives.count(name) && object &&
        (object->kind == "thread_block_tile" || object->kind == "coalesced_group"))
      return warpCollective();
    if (name != "sync")
      return std::nullopt;
    // Calls of the base class's sync(): the group is the object's class,
    // not the class that declares sync().
    if (object)
      return groupSync(object->kind);
    return groupSync(group);
  }
  // Collectives over a group: every member takes part, and the toolkit
  // implements them with the group's own synchronization (shuffles within
  // a tile, a barrier and shared scratch for a block).
  static const std::set<std::string> kCollectives = {
      "cooperative_groups::reduce", "cooperative_groups::inclusive_scan",
      "cooperative_groups::exclusive_scan", "cooperative_groups::reduce_update_async",
      "cooperative_groups::reduce_store_async"};
  std::string qualified = userQualifiedName(callee);
  bool collective = kCollectives.count(qualified) && callee.getNumParams() >= 2;
  bool group_sync = qualified == "cooperative_groups::sync" && callee.getNumParams() == 1;
  if (collective || group_sync) {
    if (object)
      return groupSync(object->kind);
    auto *record = callee.getParamDecl(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (record)
      return groupSync(record->getNameAsString());
  }
  if (callee.getDeclContext()->isRecord() || callee.isInStdNamespace())
    return std::nullopt;
  SyncFunction sync;
  if (name == "__syncthreads" || name == "__syncthreads_count" ||
      name == "__syncthreads_and" || name == "__syncthreads_or") {
    sync.kind = v1::SYNC_KIND_BARRIER;
    sync.scope = v1::MEMORY_SCOPE_BLOCK;
    sync.orders_block = true;
  } else if (name == "__syncwarp") {
    sync.kind = v1::SYNC_KIND_SYNCWARP;
    sync.scope = v1::MEMORY_SCOPE_WARP;
    sync.orders_warp = true;
  } else if (name == "__threadfence_block" || name == "__threadfence" ||
             name == "__threadfence_system" ||
             callee.getQualifiedNameAsString() == "cuda::atomic_thread_fence") {
    sync.kind = v1::SYNC_KIND_FENCE;
    sync.scope = name == "__threadfence_block" ? v1::MEMORY_SCOPE_BLOCK
                 : name == "__threadfence"     ? v1::MEMORY_SCOPE_DEVICE
                                               : v1::MEMORY_SCOPE_SYSTEM;
  } else if (name.rfind("__shfl", 0) == 0 || name == "__ballot_sync" ||
             name == "__any_sync" || name == "__all_sync") {
    return warpCollective();
  } else {
    return std::nullopt;
  }
  return sync;
}

std::optional<AtomicFunction> classifyAtomicFunction(const clang::FunctionDecl &callee) {
  if (callee.getDeclContext()->isRecord())
    return std::nullopt;
  llvm::StringRef name = callee.getName();
  if (!name.starts_with("atomic"))
    return std::nullopt;
  AtomicFunction atomic;
  if (name.consume_back("_block"))
    atomic.scope = v1::MEMORY_SCOPE_BLOCK;
  else if (name.consume_back("_system"))
    atomic.scope = v1::MEMORY_SCOPE_SYSTEM;
  atomic.op = llvm::StringSwitch<v1::AtomicOp>(name)
                  .Case("atomicAdd", v1::ATOMIC_OP_ADD)
                  .Case("atomicSub", v1::ATOMIC_OP_SUB)
                  .Case("atomicExch", v1::ATOMIC_OP_EXCH)
                  .Case("atomicMin", v1::ATOMIC_OP_MIN)
                  .Case("atomicMax", v1::ATOMIC_OP_MAX)
                  .Case("atomicInc", v1::ATOMIC_OP_INC)
                  .Case("atomicDec", v1::ATOMIC_OP_DEC)
                  .Case("atomicCAS", v1::ATOMIC_OP_CAS)
                  .Case("atomicAnd", v1::ATOMIC_OP_AND)
                  .Case("atomicOr", v1::ATOMIC_OP_OR)
                  .Case("atomicXor", v1::ATOMIC_OP_XOR)
                  .Default(v1::ATOMIC_OP_UNSPECIFIED);
  if (atomic.op == v1::ATOMIC_OP_UNSPECIFIED || callee.getNumParams() < 2)
    return std::nullopt;
  return atomic;
}

} // namespace gpurace::analyzer
