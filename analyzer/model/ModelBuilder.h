//===- ModelBuilder.h - the kernel model builder's state --------*- C++ -*-===//
//
// Private to analyzer/model: the Builder that symbolically executes a
// kernel for "any thread", shared by the units that build the model by
// concept (statements, loops, expressions, places in memory, calls,
// synchronization).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_MODELBUILDER_H
#define GPURACE_ANALYZER_MODEL_MODELBUILDER_H

#include "analyzer/model/DeviceUnit.h"
#include "analyzer/model/KernelModelBuilder.h"
#include "analyzer/model/LoopInduction.h"
#include "analyzer/model/SyncFunctions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/OperationKinds.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class AbstractConditionalOperator;
class ParmVarDecl;
class AsmStmt;
class CXXForRangeStmt;
class StmtExpr;
class SwitchCase;
class SwitchStmt;
class CXXMemberCallExpr;
class CXXConstructExpr;
class CXXConstructorDecl;
class ForStmt;
class IfStmt;
class ReturnStmt;
class SourceManager;
class VarDecl;
} // namespace clang

namespace gpurace::analyzer::builder {

// A value during symbolic execution: an integer or Bool term, or a pointer
// with a byte offset into a memory object, into the storage of a local
// variable of this thread (`local`, its root key), or into thread-private
// storage the model does not follow (neither).
struct Value {
  enum class Kind { Int, Bool, Pointer };
  Kind kind = Kind::Int;
  z3::expr expr;
  IntType type = kInt32;
  const MemoryObject *object = nullptr;
  std::string local;
};

// Where an lvalue designates: memory that threads share (object and byte
// offset), the storage of a local variable of this thread (its root key
// and byte offset), or thread-private storage the model does not follow
// (a temporary). Only the first can race.
struct Place {
  enum class Kind { Memory, Local, Private };
  Kind kind = Kind::Private;
  const MemoryObject *object = nullptr;
  std::optional<z3::expr> offset;
  std::string local_key;
  // The subscripts of fixed-size arrays on the way to it are within their
  // bounds: an access elsewhere is out of bounds, not a race.
  std::optional<z3::expr> in_bounds;
};

struct Frame {
  const clang::FunctionDecl *function;
  v1::CallFrame call;
  std::vector<std::pair<z3::expr, Value>> returns; // (path condition, value)
  // The object a member function is called on, as a pointer.
  std::optional<Value> this_value;
  // The call that entered the function.
  const clang::CallExpr *call_expr = nullptr;
};

// A variable that holds start + k * step at the head of a loop's iteration
// k: the for-header counter and the loop's other induction variables
// (LoopInduction.h). `step` is in the variable's own units for integers,
// in bytes for pointers.
struct SteppedVariable {
  std::string key;
  clang::QualType type;
  Value start;
  z3::expr step;
};

struct State {
  std::map<std::string, Value> env;
  z3::expr pc;
  z3::expr block, warp, grid; // synchronization counters
  std::map<LaneGroup, z3::expr> masked_warp; // by partial warp group
};

// Counts the synchronization a statement executes on every path. A counter
// the statement advances by a number its control flow decides (a barrier
// under a branch, in a callee) "varies"; the others advance by exactly
// their count, so that warp collectives in a branch leave the block
// barriers of a loop exact. Used for the per-iteration stride of the
// counters in loops and for the counters after a switch.
struct SyncCount {
  int block = 0, warp = 0, grid = 0;
  std::map<LaneGroup, int> masked_warp;
  bool block_varies = false, warp_varies = false, grid_varies = false;
  bool masked_varies = false;
  // Whether some path synchronizes: a callee's barriers count only as
  // varying, since its control flow is not tracked.
  bool any() const {
    return block || warp || grid || !masked_warp.empty() || block_varies || warp_varies ||
           grid_varies || masked_varies;
  }
  void add(const SyncCount &other) {
    block += other.block;
    warp += other.warp;
    grid += other.grid;
    for (const auto &[mask, n] : other.masked_warp)
      masked_warp[mask] += n;
    block_varies |= other.block_varies;
    warp_varies |= other.warp_varies;
    grid_varies |= other.grid_varies;
    masked_varies |= other.masked_varies;
  }
  // What `inner` counts, executed a number of times that varies by path.
  void addVarying(const SyncCount &inner) {
    block_varies |= inner.block || inner.block_varies;
    warp_varies |= inner.warp || inner.warp_varies;
    grid_varies |= inner.grid || inner.grid_varies;
    masked_varies |= !inner.masked_warp.empty() || inner.masked_varies;
    // The masks still name counters the statement may advance.
    for (const auto &[mask, n] : inner.masked_warp)
      masked_warp.emplace(mask, 0);
  }
};

// What one walk of a kernel found it had assumed wrongly, for the next:
//  - variables that enter a loop alike in every thread but that some
//    iteration leaves different from thread to thread (thread-local then);
//  - variables that enter a loop alike in the whole launch but that some
//    iteration leaves alike only within each block (one value per block);
//  - __shared__ scalars read as one thread's broadcast that the kernel
//    writes again later in the walk (a lock may order that write before a
//    read, which no barrier then separates).
struct WalkRevisions {
  std::set<std::pair<const clang::Stmt *, const clang::ValueDecl *>> varying_loop_values;
  std::set<std::pair<const clang::Stmt *, const clang::ValueDecl *>> block_loop_values;
  std::set<const clang::Decl *> rewritten_scalars;
};

class Builder {
public:
  Builder(const clang::FunctionDecl &kernel, DeviceUnit &unit,
          SymbolSpace &symbols, const ModelOptions &options, WalkRevisions &revisions)
      : kernel_(kernel), unit_(unit), ast_(unit.ast()), sources_(ast_.getSourceManager()),
        symbols_(symbols), arith_(symbols.arith()), options_(options),
        state_{{}, ctx().bool_val(true), zero64(), zero64(), zero64(), {}},
        revisions_(revisions) {}

  KernelModel build();
  // Whether the walk found that it assumed wrongly: `revisions` says what
  // now, and the model must be built again.
  bool revised() const { return revised_; }
  // Binds a parameter of scalar or pointer type, or the fields of a struct
  // passed by value, in the storage of `root` at byte `offset`.
  void bindParameter(const std::string &root, int64_t offset, const std::string &name,
                     clang::QualType type, unsigned depth);

private:
  void bindFloatParameter(const Place &at, const std::string &name, clang::QualType type);
  // `(int)x` of a value read straight from a floating-point parameter: the
  // integer that parameter converts to, the same for every thread.
  std::optional<Value> truncatedParameter(const Value &converted, clang::QualType to);
  z3::context &ctx() const { return symbols_.context(); }
  z3::expr zero64() const { return arith_.constant(0, kInt64); }

  // --- values -------------------------------------------------------------
  IntType intTypeOf(clang::QualType type) const;
  Value intValue(z3::expr e, IntType t) const { return {Value::Kind::Int, e, t, nullptr, {}}; }
  Value boolValue(z3::expr e) const { return {Value::Kind::Bool, e, kInt32, nullptr, {}}; }
  static Value pointerValue(z3::expr offset, const MemoryObject *object,
                            std::string local = {}) {
    return {Value::Kind::Pointer, offset, kInt64, object, std::move(local)};
  }
  // A value the model does not follow. `source` names what it stands for
  // when several sites share one (the memory object a value is loaded from).
  // Bounds of a bitwise operation the arithmetic cannot state exactly (no
  // constant operand), as facts of each thread about its fresh `result`.
  void boundBitwise(clang::BinaryOperatorKind op, const z3::expr &x, const z3::expr &y,
                    const z3::expr &result);
  // For `a & (n - 1)` (math mode): whether the mask `n - 1` is the first
  // operand; nothing for other expressions.
  std::optional<bool> lowBitsMaskOperand(const clang::Expr *at) const;
  // Facts that make `result` exactly `x & mask` when the mask is 2^e - 1
  // or all ones.
  void keepLowBits(const z3::expr &x, const z3::expr &mask, IntType t, const z3::expr &result);
  // Facts that make `result` exactly `x op bit` (&, | or ^) wherever `bit`
  // is a power of two.
  void keepSingleBit(clang::BinaryOperatorKind op, const z3::expr &x, const z3::expr &bit,
                     IntType t, const z3::expr &result);
  Value freshValue(clang::QualType type, v1::ImprecisionKind why,
                   const std::string &detail, const clang::Stmt *at,
                   const std::string &source = {});
  z3::expr asInt(const Value &v, IntType to) const;
  z3::expr asBool(const Value &v) const;
  // Whether a pointer is null, where the model knows what it points to: a
  // pointer parameter (or one derived from it) is null when the host
  // passed null, a launch-wide symbol host facts fix; shared and global
  // arrays and locals never are. Nothing for unresolved pointers.
  std::optional<z3::expr> isNull(const Value &pointer) const;
  // `p`, `!p`, `p == nullptr`: a pointer tested against null.
  Value nullTest(const Value &pointer, bool is_null, const clang::Expr &at);
  // `v` as a value of `type`: integers converted to its width.
  Value asType(const Value &v, clang::QualType type) const;
  // ite(condition, yes, no) of two pointers; one into a different object
  // or local points to unresolved memory.
  Value selectPointer(const z3::expr &condition, const Value &yes, const Value &no);
  // ite(condition, yes, no) as a value of `type`.
  Value selectValue(const z3::expr &condition, const Value &yes, const Value &no,
                    clang::QualType type);
  // The byte size of `type`; 1 where it has none (void, incomplete).
  int64_t sizeOf(clang::QualType type) const;
  // Stops the model at a construct it can neither follow nor
  // over-approximate soundly.
  [[noreturn]] void unsupported(const std::string &construct, const clang::Stmt &at) const;

  // --- statements ---------------------------------------------------------
  void walk(const clang::Stmt *stmt);
  void walkDecl(const clang::VarDecl &var);
  void walkIf(const clang::IfStmt &stmt);
  void walkFor(const clang::ForStmt &stmt);
  // `head` runs at the start of each iteration, before the body (the
  // variable of a range-based for); `stepped`: induction variables already
  // known (the for-header counter).
  void walkLoop(const clang::Stmt &loop, const LoopShape &shape,
                std::vector<SteppedVariable> stepped, const clang::Stmt *head = nullptr);
  // What the `break`s of a loop leave in the variables the loop assigns:
  // after the loop, a thread that left through one holds their values
  // there at its exit iteration `exit_k` (a flag set in the last
  // iteration, `computed = ...; if (i == n - 1) break;`). Only values made
  // of what the loop's entry already knew and of its iteration `k` are
  // kept: a value loaded inside the loop is one iteration's, not the exit's.
  // Only for loops that no thread leaves by a return: the exit facts state
  // that every thread leaves by a break or the condition.
  // `way`: which break a thread leaves by, or the condition (the last).
  // A loop no thread leaves but by its condition, which the thread's
  // own values decide: the thread leaves at the head of its exit iteration
  // `exit_k`, the first where the condition fails.
  void leaveByCondition(const z3::expr &enters, const z3::expr &k, const z3::expr &exit_k,
                        const z3::expr &entry_pc, size_t locals_at_entry);
  void keepBreakValues(const std::vector<State> &breaks, const z3::expr &enters,
                       const z3::expr &k, const z3::expr &exit_k, const z3::expr &way,
                       const z3::expr &entry_pc, const std::set<std::string> &assigned,
                       size_t locals_at_entry);
  // The one iteration k in which `pc` can hold, where one of its
  // conjuncts is an equation of k with coefficient 1 or -1 (`i == c` with i
  // stepped by one), as a term without k.
  std::optional<z3::expr> onlyIteration(const z3::expr &pc, const z3::expr &k) const;
  // The loop's other induction variables, valued at the loop's entry.
  void addSteppedVariables(const LoopShape &shape, const std::set<std::string> &assigned,
                           std::vector<SteppedVariable> &stepped);
  // `v` at iteration `k` of a loop that steps it.
  std::set<std::string> resetVariables(const LoopShape &shape,
                                       const std::set<std::string> &assigned);
  Value steppedValue(const SteppedVariable &v, const z3::expr &k) const;
  // Its value after the loop, left in iteration exit_k: by the condition,
  // or by a break that may come after the iteration's step.
  Value steppedAtExit(const SteppedVariable &v, const z3::expr &k, const z3::expr &exit_k,
                      const std::vector<State> &breaks);
  // How far a synchronization counter has advanced since the loop's entry
  // at the head of iteration k: k * the per-iteration count when every
  // iteration synchronizes alike, otherwise a nondecreasing function of the
  // enclosing iterations (IterationSync in KernelModel.h), at least k * the
  // count every iteration runs.
  z3::expr advanceAtHead(int per_iteration, bool varies, const z3::expr &k, const char *name);
  // The counters a loop tracks, in one order: block, warp, grid, then the
  // partial warp groups `count` names; and their per-iteration counts.
  static std::vector<int> countsOf(const SyncCount &count);
  static std::vector<bool> variesOf(const SyncCount &count);
  std::vector<z3::expr> countersOf(const State &state, const SyncCount &count) const;
  static void setCounters(State &state, const SyncCount &count,
                          const std::vector<z3::expr> &values);
  // A symbol the same for every thread in the same iterations of the
  // enclosing loops: a shared function of their iteration symbols. With
  // `per_block`, the same only for threads of one block: blockIdx is an
  // argument too.
  z3::expr uniformInLoops(const std::string &name, IntType type,
                          const std::vector<z3::expr> &iterations, bool per_block = false);
  // Whether `e` is the same for all threads of a block in the same
  // iterations of `iterations` (it mentions no thread-local symbol but
  // those and blockIdx).
  bool blockUniform(const z3::expr &e, const std::vector<z3::expr> &iterations) const;
  void walkReturn(const clang::ReturnStmt &stmt);
  // A struct returned by value: the address of a temporary holding it,
  // which the caller copies from (the call's place); unknown where the
  // model cannot hold it.
  Value returnedObject(const clang::Expr &value);
  // The local the struct a call returns by value is held in, when the
  // call was walked and returned one object; nothing otherwise.
  std::optional<Place> returnedPlace(const clang::CallExpr &call);
  void walkSwitch(const clang::SwitchStmt &stmt);
  void enterCase(const clang::SwitchCase &label);
  void walkAsm(const clang::AsmStmt &stmt);
  void walkForRange(const clang::CXXForRangeStmt &stmt);
  void endPath() { state_.pc = ctx().bool_val(false); }

  // --- expressions --------------------------------------------------------
  std::optional<Value> floatConstant(const clang::Expr &expr);
  Value eval(const clang::Expr *expr);
  Value evalCast(const clang::CastExpr &cast);
  Value evalUnary(const clang::UnaryOperator &op);
  Value evalBinary(const clang::BinaryOperator &op);
  Value evalArithmetic(clang::BinaryOperatorKind op, const Value &a,
                       const Value &b, clang::QualType type,
                       const clang::Expr *at);
  Value evalConditional(const clang::AbstractConditionalOperator &op);
  // `op`'s value with each branch's value given by `branch`, walked under
  // the path condition that takes it.
  Value eitherBranch(const clang::AbstractConditionalOperator &op,
                     llvm::function_ref<Value(const clang::Expr *)> branch);
  // The value of `condition ? yes : no`, of type `type`.
  Value choose(const z3::expr &condition, const Value &yes, const Value &no,
               clang::QualType type);
  Value evalCall(const clang::CallExpr &call);
  // Member calls of libcu++'s cuda::atomic_ref and cuda::atomic; nothing
  // when `call` is not one.
  std::optional<Value> evalScopedAtomic(const clang::CXXMemberCallExpr &call,
                                        bool value_used);
  // An atomic function, `atomicAdd(p, v)` or nvcc's `__nv_atomic_*`
  // builtins (classifyNvAtomicBuiltin): the address first, operands after.
  Value evalAtomic(const clang::CallExpr &call, const ScopedAtomicCall &atomic,
                   bool value_used);
  // The atomic access of `call` to the memory `pointer` points into, with
  // the fences its order puts before (a release) and after (an acquire).
  void recordOrderedAtomic(const clang::Expr &call, const Value &pointer,
                           const ScopedAtomicCall &atomic, bool value_used);
  // `__ldg(p)`, `__stcs(p, v)` and the other loads and stores with a cache
  // hint: the plain read or write of `*p` they are, since the hint changes
  // where the data is cached, not what it races with.
  Value evalCacheHinted(const clang::CallExpr &call, v1::AccessKind kind);
  Value evalDeclRef(const clang::DeclRefExpr &ref);
  Value evalStmtExpr(const clang::StmtExpr &expr);
  Value evalThis(const clang::Expr &at);
  Value assign(const clang::Expr *lhs, const Value &value);
  Value assignTo(const Place &where, const clang::Expr *lhs, const Value &value);
  // The current value of `where` for a read-modify-write: the write is the
  // access recorded, so no separate read is.
  Value valueForUpdate(const Place &where, const clang::Expr *lhs);
  Value load(const clang::Expr *lvalue_expr);
  // The read of `where`, a value of `type`, that `at` makes.
  Value loadFrom(const Place &where, clang::QualType type, const clang::Expr &at);
  // A value loaded from a device global that no device code writes is the
  // same for every thread that loads it at the same offset: a function of
  // the offset shared by all threads. So is one loaded through a pointer
  // parameter, in a launch where nothing writes the buffer it points into
  // (KernelModel::parameter_contents).
  void sameForEveryThread(const Value &loaded, const MemoryObject &object,
                          const z3::expr &offset);
  // A read of __shared__ memory in a kernel that never fences: what every
  // thread of the block reading the same offset at this point, in the same
  // iterations and between the same barriers, sees (FenceReach.h says why).
  // Nothing for pointers and places without a known offset.
  // A value every thread of a block holds alike at this point of the walk:
  // a function of the block, the barriers passed, `offset` where given,
  // and the iterations of the enclosing loops.
  z3::expr sharedInBlock(const std::string &name, IntType type,
                         const std::optional<z3::expr> &offset, const v1::Imprecision &why);
  std::optional<Value> agreedSharedRead(const Place &where, clang::QualType type,
                                        const clang::Expr &at);
  // What a read of a __shared__ scalar sees when one thread per block wrote
  // it before a barrier the reader has passed (`if (tid == 0) last = ...;
  // __syncthreads(); if (last) ...`): the writer's value, a function of the
  // block. Nothing when the writes do not have that shape.
  std::optional<Value> broadcastValue(const MemoryObject &object);
  // What a read of a __shared__ scalar sees where the reading thread
  // stored it last with nothing between (`found = false; while (!found)`):
  // its own value, in the first iterations of the loops entered since, and
  // `otherwise` elsewhere.
  Value ownStoreOr(const MemoryObject &object, const Value &otherwise);
  // The walk passed what may let another thread's store be seen without
  // racing with a later read: a barrier, fence, atomic or opaque call.
  void passOrderingPoint() { ++ordering_points_; }
  // `e` as evaluated by the thread of the reader's block at `writer`
  // coordinates: other thread-local symbols become functions of the block.
  std::optional<z3::expr> asWriter(const z3::expr &e, const std::array<int64_t, 3> &writer);
  std::optional<Value> builtinCoordinate(const clang::Expr *expr);
  Place place(const clang::Expr *expr);
  // What a pointer value points to.
  Place placeOf(const Value &pointer);
  Value pointerFrom(const Place &where, const clang::Expr *at);
  std::optional<uint64_t> fixedExtent(const clang::Expr &array) const;
  // Somewhere in memory the model cannot name: checked against everything.
  Place unresolvedPlace(const clang::Expr &at);

  // --- thread-local storage ------------------------------------------------
  // A local variable's storage: scalars hold one value under their root
  // key, arrays and structs one per (byte offset, size) written so far.
  void declareLocal(const std::string &root, clang::QualType type);
  bool isAggregate(const std::string &root) const;
  std::string elementKey(const std::string &root, int64_t offset, int64_t size) const;
  Value readLocal(const Place &where, clang::QualType type, const clang::Stmt *at);
  void writeLocal(const Place &where, clang::QualType type, const Value &value);
  // Stores `value` as the `size` bytes at `offset` of `root`.
  void writeElement(const std::string &root, int64_t offset, int64_t size,
                    const Value &value);
  // The byte offsets a read or write of `type` at a symbolic offset into
  // `root` may touch; nothing when there are too many to enumerate.
  std::optional<std::vector<int64_t>> candidateOffsets(const std::string &root,
                                                       clang::QualType type) const;
  // Initializes `root` at `offset` from `init` (scalars, init lists, copies).
  void initLocal(const std::string &root, int64_t offset, clang::QualType type,
                 const clang::Expr *init);
  // Copies what is known of an aggregate at `source` into `root`; a copy
  // from memory is a read of it.
  void copyInto(const std::string &root, int64_t offset, clang::QualType type,
                const clang::Expr *source);
  // Copies the `size` bytes known at `from` into `root` at `offset`.
  void copyPlace(const std::string &root, int64_t offset, int64_t size, const Place &from);
  // Every value in `root` becomes unknown (a write the model cannot place).
  void forgetLocal(const std::string &root);
  // Locals whose address was taken may have been written through a pointer.
  void forgetExposed();
  // A new root for a temporary holding `init`, as its place.
  Place temporary(const clang::Expr &init);
  // Runs a constructor whose body the walk enters on the thread's own
  // object at `root` + `offset`; false where it does not (the caller then
  // only evaluates the arguments) (BuilderConstructors.cpp).
  bool construct(const std::string &root, int64_t offset,
                 const clang::CXXConstructExpr &construct);
  // The member and base initializers of `constructor`, on the object at
  // `root` + `offset`.
  void initializeMembers(const std::string &root, int64_t offset,
                         const clang::CXXConstructorDecl &constructor);

  // --- calls ----------------------------------------------------------------
  Value inlineCall(const clang::FunctionDecl &definition, const clang::CallExpr &call,
                   const clang::Expr *object);
  // A call through a function pointer (BuilderIndirectCalls.cpp).
  Value indirectCall(const clang::CallExpr &call);
  // thread_rank(), size(), meta_group_rank(), ... of a block, tile or grid
  // group, as functions of the coordinates (BuilderCooperativeGroups.cpp).
  std::optional<Value> cooperativeGroupQuery(const clang::CallExpr &call,
                                             const clang::FunctionDecl &callee);
  // Integer library functions of the device headers that are arithmetic
  // the model states exactly: `min`/`max` (and `umin`, `llmax`, ...), and
  // `__umul24`/`__mul24` (BuilderCalls.cpp).
  std::optional<Value> libraryArithmetic(const clang::CallExpr &call,
                                         const clang::FunctionDecl &callee);
  // The x, y and z of a group query that returns a dim3 (`group_index()`,
  // `thread_index()`, `group_dim()`, `dim_threads()`, `block_index()`,
  // `dim_blocks()`).
  std::optional<std::array<z3::expr, 3>> cooperativeGroupTriple(const clang::CallExpr &call);
  // The group an object is: by its type, or, for a thread_group, by the
  // block or tile it was made from (BuilderCooperativeGroups.cpp).
  std::optional<GroupShape> groupShape(const clang::Expr *object) const;
  std::optional<GroupShape> dynamicTile(const clang::CallExpr &call) const;
  // Records what a thread_group variable or parameter holds.
  void bindGroupShape(const clang::ValueDecl &var, const clang::Expr *from) const;
  // Binds the group parameters of an inlined or counted callee to its
  // arguments' groups; the caller restores the previous bindings.
  void bindGroupParameters(const clang::FunctionDecl &callee,
                           const clang::CallExpr &call) const;
  z3::expr choiceOfTarget(const clang::Expr &callee, size_t count);
  // Binds a parameter of an inlined call; `unknown` for a recursive call.
  void bindArgument(const clang::ParmVarDecl &param, const Value &value, bool unknown,
                    const clang::Expr &call);
  // The values an inlined function's parameters take from `args`:
  // addresses for references, copies for aggregates.
  std::vector<Value> argumentValues(const clang::FunctionDecl &definition,
                                    const std::vector<const clang::Expr *> &args);
  // Whether the walk enters a callee: the user's code, and the library
  // functions that synchronize.
  bool walksCallee(const clang::FunctionDecl &definition) const;
  Value returnValue(const Frame &done, const clang::CallExpr &call);
  // The result of a block barrier that returns one (`__syncthreads_or`).
  std::optional<Value> barrierResult(const clang::CallExpr &call,
                                     const clang::FunctionDecl &callee, const SyncFunction &sync);
  // The arguments of `call` in the order of the callee's parameters (an
  // operator called as a member has its object as argument 0).
  std::vector<const clang::Expr *> callArguments(const clang::CallExpr &call) const;
  std::optional<Value> implicitObject(const clang::CallExpr &call, const clang::Expr *object);
  // A call whose body the model does not walk: its result is unknown, and
  // locals it can reach through its arguments may change.
  Value opaqueCall(const clang::CallExpr &call, const clang::FunctionDecl *callee,
                   const clang::Expr *object, const std::string &why);
  // `a = b` of a trivially copyable struct.
  Value assignAggregate(const clang::Expr *lhs, const clang::Expr *rhs);
  unsigned activeCalls(const clang::FunctionDecl &function) const;

  // --- model output -------------------------------------------------------
  void recordAccess(const Place &where, const clang::Expr *expr,
                    v1::AccessKind kind, v1::AtomicOp op, v1::MemoryScope scope);
  void recordSync(const clang::Expr &call, const SyncFunction &sync);
  void recordFence(const clang::Expr &at, v1::MemoryScope scope);
  std::optional<LaneGroup> warpBarrierLanes(const clang::Expr &call,
                                           const SyncFunction &sync) const;
  const MemoryObject *objectFor(const clang::ValueDecl &decl,
                                MemoryObject::Kind kind, v1::MemorySpace space,
                                int parameter_index);
  const MemoryObject *unknownObject();
  // The object of a pointer that is `yes`'s or `no`'s: one buffer of a few
  // known ones, or unknown.
  const MemoryObject *eitherObject(const Value &yes, const Value &no);
  bool handsOutTickets(const clang::CallExpr &call, v1::AtomicOp op) const;
  std::string currentFunctionName() const;
  v1::SourceLocation locationOf(const clang::Stmt &stmt) const;
  std::string localKey(const clang::ValueDecl &decl);
  SyncCount countSync(const clang::Stmt *stmt) const {
    std::set<const clang::FunctionDecl *> calling;
    return countSync(stmt, calling);
  }
  // `calling`: the callees being counted, so that recursion ends.
  SyncCount countSync(const clang::Stmt *stmt,
                      std::set<const clang::FunctionDecl *> &calling) const;
  // The variables `stmt` may assign, and the roots of locals it may write
  // through a pointer or reference (the exposed ones, when it writes
  // through any).
  std::set<std::string> assignedIn(const clang::Stmt *stmt);
  // What a loop's writes keep true of a variable it over-approximates:
  // `offset *= 2` from 1 never goes below 1, `s >>= 1` from n stays in
  // [0, n]. Nothing when the writes move it both ways or otherwise.
  std::optional<z3::expr> monotoneBound(const clang::Stmt &loop, const clang::VarDecl &var,
                                        const z3::expr &at_entry, const z3::expr &value,
                                        IntType type) const;
  // The counters among `keys` a loop increments at most once per iteration
  // (boundedIncrement, LoopInduction.h), found once per walk of the loop:
  // `n` in `if (keep) out[n++] = v;`. None in the wrap-around model, where a
  // count may wrap.
  struct CountedVariable {
    std::string key;
    const clang::VarDecl *var;
    int64_t amount;
  };
  std::vector<CountedVariable> countedVariables(const clang::Stmt &loop,
                                                const std::set<std::string> &keys) const;
  // Each such counter is at most its entry value plus `iterations`
  // increments (one more where the condition counts and ran once more).
  void boundIncrements(const std::vector<CountedVariable> &counted, const LoopShape &shape,
                       const State &entry, const z3::expr &iterations, bool condition_ran);
  // A loop that runs the same known number of times in every thread
  // (BuilderConstantLoops.cpp): its trip count, and each variable it
  // scales by a constant from a constant start with its value at the head
  // of each iteration and past the last (`values[trips]`).
  struct TabulatedVariable {
    std::string key;
    IntType type;
    z3::expr head;
    std::vector<int64_t> values;
  };
  struct ConstantLoop {
    int64_t trips = 0;
    std::vector<TabulatedVariable> variables;
  };
  // Evaluates the loop's condition `enters` (at the head of iteration `k`)
  // iteration by iteration and states the variables' values for `k`;
  // nothing where the condition reads anything else.
  std::optional<ConstantLoop> constantLoop(const clang::Stmt &loop, const LoopShape &shape,
                                           const State &entry, const z3::expr &k,
                                           const z3::expr &enters);
  // Runs a canonical `for` loop of at most 16 iterations, straight-line
  // code that reads and writes the thread's own variables only and fills
  // an array of them, iteration by iteration (BuilderConstantLoops.cpp);
  // false, having done nothing, for others.
  bool unrollRegisterLoop(const clang::ForStmt &loop);
  // After a constant loop that no thread breaks out of: its trip count, the
  // iteration every thread leaves in, and the values it leaves.
  void leaveConstantLoop(const ConstantLoop &loop, const std::vector<SteppedVariable> &stepped,
                         const z3::expr &trips, const z3::expr &exit_k, const z3::expr &entry_pc);
  // A loop variable that `havoc` gives one value for all threads in the
  // same iterations (of the block, with `per_block`): `head` at iteration k.
  struct SharedLoopValue {
    std::string key;
    const clang::ValueDecl *var;
    bool per_block;
    z3::expr head;
  };
  std::vector<SharedLoopValue> havoc(const std::set<std::string> &roots,
                                     const clang::Stmt &loop,
                                     const std::vector<z3::expr> &iterations);
  // What the innermost loop of `iterations_` keeps true of the variables
  // it scales by a constant factor f (BuilderScaling.cpp): facts at the
  // head of its iteration k, each with the variables it is about (none
  // for those about f^k alone), and the f^k of each factor.
  struct ScalingFact {
    std::vector<std::string> about;
    z3::expr fact;
  };
  struct LoopScaling {
    std::vector<ScalingFact> facts;
    std::vector<std::pair<int64_t, z3::expr>> powers;
  };
  LoopScaling scaling(const LoopShape &shape, const State &entry);
  // The same at the iteration `exit_k` in which every thread leaves, for
  // the variables in `kept` (those whose value there is their head value
  // at `exit_k`), and f^exit_k against a thread's own f^k: the iteration
  // before the exit's is one factor below it. Powers of two are recorded
  // in the model's `powers_of_two`, not stated as facts.
  std::vector<z3::expr> scalingAtExit(const LoopScaling &scaling, const std::set<std::string> &kept,
                                      const z3::expr &k, const z3::expr &exit_k);
  // After a loop's body (iterations_ still holding its k): whether each
  // shared value stays shared into the next iteration, at the end of the
  // body and at each `continue`. Those that do not are revised.
  // `head_pc`: the path condition inside the loop, at its head.
  void confirmSharedLoopValues(const clang::Stmt &loop,
                               const std::vector<SharedLoopValue> &shared,
                               const std::vector<State> &continues, const z3::expr &head_pc);
  // The iteration at which every thread of a block (of the launch, when
  // nothing in it names the block) leaves a loop: when the condition and
  // each break's own condition are the same for those threads. `entry_pc`
  // is the path into the loop, which may differ from thread to thread.
  struct SharedExit {
    z3::expr iteration;
    bool per_block;
  };
  std::optional<SharedExit> sharedExit(const z3::expr &enters, const std::vector<State> &breaks,
                                       const z3::expr &entry_pc, const z3::expr &k,
                                       const z3::expr &trips);
  void merge(const State &then_state, const State &else_state,
             const z3::expr &condition);
  // The partial-mask sync counter of `state` (zero before the first one).
  z3::expr maskedCount(const State &state, const LaneGroup &mask) const {
    auto it = state.masked_warp.find(mask);
    return it == state.masked_warp.end() ? zero64() : it->second;
  }

  const clang::FunctionDecl &kernel_;
  DeviceUnit &unit_;
  clang::ASTContext &ast_;
  const clang::SourceManager &sources_;
  SymbolSpace &symbols_;
  const Arith &arith_;
  ModelOptions options_;
  KernelModel model_;
  State state_;
  std::vector<Frame> frames_;
  std::vector<z3::expr> iterations_;
  std::map<const clang::Decl *, const MemoryObject *> objects_;
  // The objects of pointers into one of several buffers, by their buffers.
  std::map<std::vector<const MemoryObject *>, const MemoryObject *> choices_;
  const MemoryObject *unknown_ = nullptr;
  // The device globals no device code writes (DeviceGlobalWrites).
  std::set<const MemoryObject *> read_only_objects_;
  // The pointer fields of struct parameters, by name, with their numbers
  // among the pointer parameters (StructPointerFields.h).
  std::map<std::string, int> struct_pointer_fields_;
  // The kernel never fences (FenceReach.h): threads that read one
  // __shared__ word between the same barriers agree on its value.
  bool shared_reads_agree_ = false;
  WalkRevisions &revisions_;
  bool revised_ = false;
  // The __shared__ scalars read as a broadcast in this walk.
  std::set<const MemoryObject *> broadcast_read_;
  // The writer's thread-local symbols as functions of its block, each made
  // once: every read of a broadcast sees the same value, not one of its own.
  struct WriterSymbol {
    z3::expr symbol;
    std::array<int64_t, 3> writer;
    z3::expr of_block;
  };
  std::vector<WriterSymbol> writer_symbols_;
  // The broadcasts read from scalars the kernel writes again are revised.
  void reviseBroadcasts();
  // The declaration an object was made for (none for unresolved memory).
  const clang::Decl *declOf(const MemoryObject &object) const;
  // The contents of each read-only device global (and of each buffer of a
  // pointer parameter), by the width and signedness it is read with.
  std::map<std::pair<const MemoryObject *, int>, z3::func_decl> read_only_contents_;
  // Writes to __shared__ scalars so far, for values that one thread of a
  // block broadcasts to the others across a barrier.
  struct SharedScalarWrite {
    Value value;
    z3::expr pc;
    z3::expr block_barriers;
    bool in_loop;
  };
  std::set<const MemoryObject *> shared_scalars_;
  // The last store to each __shared__ scalar since the last ordering
  // point, with the loop depth it was made at; a loop's own are dropped
  // when it ends.
  struct OwnStore {
    Value value;
    z3::expr pc;
    size_t depth;
    unsigned ordering_points;
  };
  std::map<const MemoryObject *, OwnStore> own_stores_;
  unsigned ordering_points_ = 0;
  std::map<const MemoryObject *, std::vector<SharedScalarWrite>> scalar_writes_;
  std::map<const MemoryObject *, unsigned> scalar_write_sites_;
  unsigned order_ = 0;
  std::map<std::string, unsigned> site_ordinals_;
  std::map<const clang::Decl *, size_t> local_ids_;
  // Roots of local variables by key: their declaration and type.
  std::map<std::string, std::pair<const clang::ValueDecl *, clang::QualType>> locals_;
  // Roots whose address the walk has taken.
  std::set<std::string> exposed_;
  // Roots copied from memory (`uchar4 p = in[i]`), by the name of the
  // object: an element not known since is a value loaded from it, one
  // source of imprecision however many fields are read.
  std::map<std::string, std::string> loaded_copies_;
  unsigned temporaries_ = 0;
  // The switches being walked, innermost last.
  struct SwitchContext {
    const clang::SwitchStmt *stmt;
    Value condition;
    IntType type;
    State entry;
    std::set<std::string> assigned;
  };
  std::vector<SwitchContext> switches_;
  // The states at the `break`s of each enclosing loop (a break inside a
  // switch of the loop leaves the switch: `switch_depth` tells them apart).
  struct LoopExits {
    size_t switch_depth;
    // The call depth of the loop's own function.
    size_t frame_depth;
    std::vector<State> breaks;
    // The states at its `continue`s: what the next iteration starts from.
    std::vector<State> continues;
    // A return leaves the loop's function from inside it.
    bool returns = false;
  };
  std::vector<LoopExits> loop_exits_;
  // What each thread_group variable holds (bindGroupShape); mutable as
  // counting a callee's barriers binds its parameters too.
  mutable std::map<const clang::ValueDecl *, GroupShape> group_shapes_;
  // The expression statement being walked: its value is discarded.
  const clang::Expr *discarded_ = nullptr;
  // Floating-point parameters (and fields of struct parameters), by the
  // name of the opaque symbol reading one gives: the parameter's name and
  // the integer it converts to (bindFloatParameter).
  struct FloatParameter {
    std::string name;
    z3::expr truncated;
    bool shown = false;
  };
  std::map<std::string, FloatParameter> float_parameters_;
};

} // namespace gpurace::analyzer::builder

#endif
