//===- BuilderSync.cpp - barriers, fences and broadcasts --------------------===//
//
// Synchronization sites and counters, and values one thread of a block
// broadcasts to the others through a __shared__ scalar.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include "analyzer/model/SourceLocations.h"
#include "analyzer/model/TermWalk.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

namespace {

// cuda::atomic_thread_fence's scope argument; the intrinsics' own scope
// otherwise.
v1::MemoryScope fenceScope(const clang::Expr &call, v1::MemoryScope declared,
                           const clang::ASTContext &ast) {
  auto *c = dyn_cast<clang::CallExpr>(&call);
  if (!c || c->getNumArgs() < 2 || isa<clang::CXXDefaultArgExpr>(c->getArg(1)))
    return declared;
  return libcuScope(c->getArg(1), ast).value_or(declared);
}

} // namespace

std::optional<Value> Builder::broadcastValue(const MemoryObject &object) {
  // One write, not in a loop, every write of the scalar a plain store, and
  // a block barrier between it and this read. A write after this read
  // without a barrier would race on the scalar itself, and is reported.
  auto writes = scalar_writes_.find(&object);
  // (The declaration is looked up only once some scalar was revised.)
  if ((!revisions_.rewritten_scalars.empty() &&
       revisions_.rewritten_scalars.count(declOf(object))) ||
      writes == scalar_writes_.end() || writes->second.size() != 1 ||
      scalar_write_sites_[&object] != 1 || !iterations_.empty())
    return std::nullopt;
  const SharedScalarWrite &write = writes->second.front();
  auto barriers_between =
      Arith::numeral(arith_.sub(state_.block, write.block_barriers).simplify(), true);
  if (write.in_loop || write.value.kind == Value::Kind::Pointer || !barriers_between ||
      *barriers_between <= 0)
    return std::nullopt;
  // The writer: the thread whose threadIdx the write's condition fixes
  // (`tid == 0`); axes the condition leaves free do not matter to it.
  std::array<int64_t, 3> writer = {0, 0, 0};
  bool fixed = false;
  std::vector<z3::expr> conjuncts{write.pc.simplify()};
  while (!conjuncts.empty()) {
    z3::expr c = conjuncts.back();
    conjuncts.pop_back();
    if (c.is_and()) {
      for (unsigned i = 0; i < c.num_args(); ++i)
        conjuncts.push_back(c.arg(i));
      continue;
    }
    if (!c.is_app() || c.decl().decl_kind() != Z3_OP_EQ)
      continue;
    for (int axis = 0; axis < 3; ++axis)
      for (int side = 0; side < 2; ++side)
        if (z3::eq(c.arg(side), symbols_.threadIdx(axis)))
          if (auto v = Arith::numeral(c.arg(1 - side), false)) {
            writer[axis] = *v;
            fixed = true;
          }
  }
  // A condition that names no writer (`if (found) flag = 1`) may be met by
  // any thread, and which one wrote last is not known.
  if (!fixed)
    return std::nullopt;
  std::optional<z3::expr> executed = asWriter(write.pc, writer);
  std::optional<z3::expr> value = asWriter(write.value.expr, writer);
  if (!executed || !value)
    return std::nullopt;
  // Without a writer in this block the scalar holds what it held before.
  z3::expr unwritten = symbols_.freshLocal("unwritten", write.value.type);
  v1::Imprecision why;
  why.set_kind(v1::IMPRECISION_KIND_LOADED_VALUE);
  why.set_detail("value of " + object.name + " when no thread of the block wrote it");
  why.set_source(object.name);
  model_.imprecisions[unwritten.decl().name().str()] = why;
  broadcast_read_.insert(&object);
  Value out = write.value;
  z3::expr otherwise =
      write.value.kind == Value::Kind::Bool ? arith_.toBool(unwritten) : unwritten;
  out.expr = executed->simplify().is_true() ? *value : z3::ite(*executed, *value, otherwise);
  return out;
}

Value Builder::ownStoreOr(const MemoryObject &object, const Value &otherwise) {
  // Between the store and the read the thread passed no barrier, fence,
  // atomic or opaque call, nor another store to the scalar: any other
  // thread's store it could see there races with the read and is reported
  // on its own, so the read is what the thread stored. A loop entered
  // since runs its body before its second head, hence only the first
  // iterations.
  auto own = own_stores_.find(&object);
  if (own == own_stores_.end() || own->second.ordering_points != ordering_points_ ||
      own->second.depth > iterations_.size())
    return otherwise;
  const Value &stored = own->second.value;
  if (stored.kind == Value::Kind::Pointer || otherwise.kind == Value::Kind::Pointer)
    return otherwise;
  // `found = false` stores the integer 0 into a bool.
  z3::expr value = otherwise.kind == Value::Kind::Bool ? asBool(stored)
                                                       : asInt(stored, otherwise.type);
  z3::expr first = own->second.pc;
  for (size_t i = own->second.depth; i < iterations_.size(); ++i)
    first = first && iterations_[i] == zero64();
  Value out = otherwise;
  out.expr = z3::ite(first, value, otherwise.expr);
  return out;
}

void Builder::reviseBroadcasts() {
  for (const MemoryObject *object : broadcast_read_)
    if (scalar_write_sites_[object] != 1) {
      revisions_.rewritten_scalars.insert(declOf(*object));
      revised_ = true;
    }
}

const clang::Decl *Builder::declOf(const MemoryObject &object) const {
  for (const auto &[decl, known] : objects_)
    if (known == &object)
      return decl;
  return nullptr;
}

std::optional<z3::expr> Builder::asWriter(const z3::expr &e,
                                          const std::array<int64_t, 3> &writer) {
  z3::expr_vector from(ctx()), to(ctx());
  z3::expr_vector block(ctx());
  for (int axis = 0; axis < 3; ++axis) {
    from.push_back(symbols_.threadIdx(axis));
    to.push_back(arith_.constant(writer[axis], kUInt32));
    block.push_back(arith_.convert(symbols_.blockIdx(axis), kUInt32, kInt64));
  }
  bool unfollowed = walkTerms({e}, [&](const z3::expr &t) {
    if (t.decl().decl_kind() != Z3_OP_UNINTERPRETED || !symbols_.isThreadDependent(t))
      return TermVisit::Descend;
    bool coordinate = false;
    for (int axis = 0; axis < 3; ++axis)
      coordinate |= z3::eq(t, symbols_.threadIdx(axis)) || z3::eq(t, symbols_.blockIdx(axis));
    if (coordinate)
      return TermVisit::Descend;
    // Loop functions and Bool symbols of the writer are not followed.
    if (t.num_args() > 0 || t.is_bool())
      return TermVisit::Stop;
    auto known = std::find_if(writer_symbols_.begin(), writer_symbols_.end(),
                              [&](const WriterSymbol &w) {
                                return w.writer == writer && z3::eq(w.symbol, t);
                              });
    if (known != writer_symbols_.end()) {
      from.push_back(t);
      to.push_back(known->of_block);
      return TermVisit::Descend;
    }
    IntType type{t.get_sort().is_bv() ? t.get_sort().bv_size() : 64u, true};
    z3::func_decl of_block = symbols_.freshSharedFunction(t.decl().name().str() + "@writer", 3, type);
    z3::expr replaced = of_block(block);
    writer_symbols_.push_back({t, writer, replaced});
    auto why = model_.imprecisions.find(t.decl().name().str());
    if (why != model_.imprecisions.end())
      model_.imprecisions[of_block.name().str()] = why->second;
    std::vector<KernelModel::TicketAtomic> broadcast;
    for (const KernelModel::TicketAtomic &ticket : model_.tickets)
      if (z3::eq(ticket.result, t) && !symbols_.isThreadDependent(ticket.address))
        broadcast.push_back({replaced, ticket.address, ticket.object, true});
    model_.tickets.insert(model_.tickets.end(), broadcast.begin(), broadcast.end());
    from.push_back(t);
    to.push_back(replaced);
    return TermVisit::Descend;
  });
  if (unfollowed)
    return std::nullopt;
  z3::expr copy = e;
  return copy.substitute(from, to);
}

void Builder::recordFence(const clang::Expr &at, v1::MemoryScope scope) {
  passOrderingPoint();
  v1::SyncSite site;
  *site.mutable_location() = locationOf(at);
  site.set_kind(v1::SYNC_KIND_FENCE);
  site.set_scope(scope);
  site.set_kernel(kernel_.getNameAsString());
  site.set_expression(sourceText(at.getSourceRange(), sources_));
  model_.fences.push_back({site, state_.pc, order_++});
}

void Builder::recordSync(const clang::Expr &call, const SyncFunction &sync) {
  if (sync.kind == v1::SYNC_KIND_FENCE)
    recordFence(call, fenceScope(call, sync.scope, ast_));
  // A barrier inside a library collective (CUB's BlockReduce) is shown
  // where the user's code calls into the library.
  const clang::Expr *shown = &call;
  for (auto frame = frames_.rbegin();
       frame != frames_.rend() && sources_.isInSystemHeader(shown->getBeginLoc()); ++frame)
    if (frame->call_expr)
      shown = frame->call_expr;
  v1::SyncSite site;
  *site.mutable_location() = locationOf(*shown);
  site.set_kind(sync.kind);
  site.set_scope(sync.scope);
  site.set_kernel(kernel_.getNameAsString());
  site.set_expression(sourceText(shown->getSourceRange(), sources_));
  site.set_site_id(currentFunctionName() + "|" + site.expression() + "|" +
                   std::to_string(model_.sync_sites.size()));
  model_.sync_sites.push_back(site);
  passOrderingPoint();
  z3::expr one = arith_.constant(1, kInt64);
  if (sync.orders_block) {
    model_.barriers.push_back({site, state_.pc, iterations_, Barrier::Scope::Block, {}});
    state_.block = arith_.add(state_.block, one);
    state_.warp = arith_.add(state_.warp, one);
  } else if (sync.orders_warp) {
    std::optional<LaneGroup> mask = warpBarrierLanes(call, sync);
    model_.barriers.push_back({site, state_.pc, iterations_, Barrier::Scope::Warp, mask});
    if (mask && !mask->wholeWarp())
      state_.masked_warp.insert_or_assign(*mask,
                                          arith_.add(maskedCount(state_, *mask), one));
    else
      state_.warp = arith_.add(state_.warp, one);
  }
  if (sync.orders_grid) {
    model_.barriers.push_back({site, state_.pc, iterations_, Barrier::Scope::Grid, {}});
    state_.grid = arith_.add(state_.grid, one);
    state_.block = arith_.add(state_.block, one);
    state_.warp = arith_.add(state_.warp, one);
  }
}

std::optional<LaneGroup> Builder::warpBarrierLanes(const clang::Expr &call,
                                                  const SyncFunction &sync) const {
  auto *c = dyn_cast<clang::CallExpr>(&call);
  std::optional<GroupShape> group = c ? groupShape(callObject(*c)) : std::nullopt;
  if (sync.kind == v1::SYNC_KIND_TILE_SYNC || group) {
    auto size = group ? group->tile_size : std::nullopt;
    if (!size)
      return std::nullopt; // coalesced groups: the lanes are not known
    LaneGroup tile;
    tile.tile_size = *size;
    return tile;
  }
  if (sync.kind != v1::SYNC_KIND_SYNCWARP && sync.kind != v1::SYNC_KIND_WARP_COLLECTIVE)
    return std::nullopt;
  if (!c || c->getNumArgs() == 0 || isa<clang::CXXDefaultArgExpr>(c->getArg(0)))
    return LaneGroup{};
  clang::Expr::EvalResult mask;
  if (c->getArg(0)->isValueDependent() || !c->getArg(0)->EvaluateAsInt(mask, ast_))
    return std::nullopt;
  LaneGroup lanes;
  lanes.mask = static_cast<uint32_t>(mask.Val.getInt().getZExtValue());
  return lanes;
}

// Statically counts the synchronization in `stmt` when it is the same on
// every path through it.
SyncCount Builder::countSync(const clang::Stmt *stmt,
                              std::set<const clang::FunctionDecl *> &calling) const {
  SyncCount count;
  if (!stmt)
    return count;
  if (isa<clang::IfStmt, clang::ForStmt, clang::WhileStmt, clang::DoStmt,
          clang::SwitchStmt, clang::ConditionalOperator>(stmt)) {
    SyncCount inner;
    for (const clang::Stmt *child : stmt->children())
      inner.add(countSync(child, calling));
    count.addVarying(inner);
    return count;
  }
  if (auto *call = dyn_cast<clang::CallExpr>(stmt)) {
    if (const clang::FunctionDecl *callee = call->getDirectCallee()) {
      if (auto sync = classifySyncFunction(*callee, groupShape(callObject(*call)))) {
        std::optional<LaneGroup> mask = warpBarrierLanes(*call, *sync);
        bool partial = !sync->orders_block && !sync->orders_grid && mask &&
                       !mask->wholeWarp();
        count.block += sync->orders_block || sync->orders_grid;
        count.warp += !partial && (sync->orders_block || sync->orders_warp ||
                                   sync->orders_grid);
        count.grid += sync->orders_grid;
        if (partial)
          ++count.masked_warp[*mask];
      } else if (const clang::FunctionDecl *definition = nullptr;
                 callee->hasBody(definition) && !callee->hasAttr<clang::CUDAGlobalAttr>() &&
                 !calling.count(definition)) {
        calling.insert(definition);
        std::map<const clang::ValueDecl *, GroupShape> caller_groups = group_shapes_;
        bindGroupParameters(*definition, *call);
        SyncCount inner = countSync(definition->getBody(), calling);
        group_shapes_ = std::move(caller_groups);
        calling.erase(definition);
        count.addVarying(inner); // a callee's own control flow is not tracked
      }
    }
  }
  for (const clang::Stmt *child : stmt->children())
    count.add(countSync(child, calling));
  return count;
}

} // namespace gpurace::analyzer::builder
