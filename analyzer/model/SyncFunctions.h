//===- SyncFunctions.h - CUDA synchronization by name -----------*- C++ -*-===//
//
// Recognizes the barriers, warp primitives, fences and atomics of CUDA and
// cooperative groups among the functions a kernel calls.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_SYNCFUNCTIONS_H
#define GPURACE_ANALYZER_MODEL_SYNCFUNCTIONS_H

#include "gpurace/v1/analysis.pb.h"

#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class CXXMemberCallExpr;
class Expr;
class FunctionDecl;
class NamedDecl;
class QualType;
} // namespace clang

namespace gpurace::analyzer {

struct SyncFunction {
  v1::SyncKind kind = v1::SYNC_KIND_UNSPECIFIED;
  v1::MemoryScope scope = v1::MEMORY_SCOPE_UNSPECIFIED;
  // Which threads the call orders: all of the block, the lanes of a warp
  // (or tile), or the whole grid. Fences order nothing by themselves.
  bool orders_block = false;
  bool orders_warp = false;
  bool orders_grid = false;
};

// The object a member function is called on: the implicit object of a
// member call, or the base of `group.f()` when f is static (the toolkit's
// tile and block sync() are). For the free functions of cooperative groups
// that take the group first (`cg::sync(tile)`, `cg::reduce(tile, v, op)`),
// that group.
const clang::Expr *callObject(const clang::CallExpr &call);

// What a cooperative group is: its class ("thread_block",
// "thread_block_tile", "grid_group", "coalesced_group") and, for a tile,
// its size.
struct GroupShape {
  std::string kind;
  std::optional<unsigned> tile_size;
};

// A qualified name without the ABI namespace the toolkit's cooperative
// groups live in (cooperative_groups::__v1::thread_block_tile is
// cooperative_groups::thread_block_tile to the user).
std::string userQualifiedName(const clang::NamedDecl &decl);

// Whether `type` is (a reference to) a cooperative-groups class.
bool isGroupClass(clang::QualType type);

// The group an object's static type shows; none for the type-erased
// thread_group, whose class is decided where it was made.
std::optional<GroupShape> groupShapeOfType(const clang::Expr *object);

// `object` is the shape of the group a call is made on, if it is one.
std::optional<SyncFunction> classifySyncFunction(const clang::FunctionDecl &callee,
                                                 const std::optional<GroupShape> &object);

struct AtomicFunction {
  v1::AtomicOp op = v1::ATOMIC_OP_UNSPECIFIED;
  v1::MemoryScope scope = v1::MEMORY_SCOPE_DEVICE;
};

std::optional<AtomicFunction> classifyAtomicFunction(const clang::FunctionDecl &callee);

// A member call of libcu++'s cuda::atomic_ref<T, Scope> or cuda::atomic<T,
// Scope>. Its memory order makes it a release (a fence before it, of the
// atomic's scope) and/or an acquire (a fence after it).
struct ScopedAtomicCall {
  v1::AtomicOp op = v1::ATOMIC_OP_UNSPECIFIED;
  v1::MemoryScope scope = v1::MEMORY_SCOPE_SYSTEM;
  bool releases = false;
  bool acquires = false;
};

std::optional<ScopedAtomicCall> classifyScopedAtomic(const clang::CXXMemberCallExpr &call,
                                                     const clang::ASTContext &ast);

// nvcc's atomic builtins (CUDA 12.8 on): `__nv_atomic_fetch_add(p, v,
// order, scope)` and the other fetch operations, `__nv_atomic_load_n`,
// `__nv_atomic_store_n`, `__nv_atomic_exchange_n` and
// `__nv_atomic_compare_exchange_n`, with the order and scope their
// arguments give (seq_cst and system where they are not constants).
std::optional<ScopedAtomicCall> classifyNvAtomicBuiltin(const clang::CallExpr &call,
                                                        const clang::ASTContext &ast);

// `__nv_atomic_thread_fence(order, scope)`: the scope of the fence; none
// for a relaxed one, which orders nothing, or for another call.
std::optional<v1::MemoryScope> nvThreadFence(const clang::CallExpr &call,
                                             const clang::ASTContext &ast);

// Whether `type` is cuda::atomic_ref<...>, which refers to memory elsewhere.
bool isAtomicRef(clang::QualType type);

// T of the cuda::atomic_ref<T, S> or cuda::atomic<T, S> a call is made on.
clang::QualType scopedAtomicValueType(const clang::CXXMemberCallExpr &call);

// A cuda::thread_scope argument as a memory scope, when it is a constant.
std::optional<v1::MemoryScope> libcuScope(const clang::Expr *scope,
                                          const clang::ASTContext &ast);

} // namespace gpurace::analyzer

#endif
