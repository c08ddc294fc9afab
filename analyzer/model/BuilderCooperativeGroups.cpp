// What a cooperative group says about the calling thread: ranks and sizes
// of blocks, tiles and grids are functions of the thread's coordinates and
// the launch, not opaque results, so cooperative-groups kernels index their
// data as precisely as those written with threadIdx. A type-erased
// thread_group (a helper's `thread_group g` parameter, the result of
// `tiled_partition(block, 16)`) is the group it was made from.
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/ExprCXX.h>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;

namespace {

struct Coordinates {
  z3::expr block_rank, block_size, block_id, grid_blocks;
};

} // namespace

std::optional<GroupShape> Builder::groupShape(const clang::Expr *object) const {
  const clang::Expr *e = object;
  while (e) {
    if (std::optional<GroupShape> shape = groupShapeOfType(e))
      return shape;
    const clang::Expr *inner = e->IgnoreParens()->IgnoreImplicit();
    if (auto *construct = dyn_cast<clang::CXXConstructExpr>(inner);
        construct && construct->getNumArgs() == 1)
      inner = construct->getArg(0); // a copy, or a slice to thread_group
    if (inner != e) {
      e = inner;
      continue;
    }
    if (auto *ref = dyn_cast<clang::DeclRefExpr>(e)) {
      auto it = group_shapes_.find(ref->getDecl());
      if (it != group_shapes_.end())
        return it->second;
    }
    if (auto *call = dyn_cast<clang::CallExpr>(e))
      return dynamicTile(*call);
    return std::nullopt;
  }
  return std::nullopt;
}

// `tiled_partition(parent, n)` with a constant n: a tile of n lanes, laid
// out as thread_block_tile<n> is (ranks in the block's order).
std::optional<GroupShape> Builder::dynamicTile(const clang::CallExpr &call) const {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  if (!callee || userQualifiedName(*callee) != "cooperative_groups::tiled_partition" ||
      call.getNumArgs() != 2)
    return std::nullopt;
  std::optional<GroupShape> parent = groupShape(call.getArg(0));
  clang::Expr::EvalResult size;
  if (!parent || (parent->kind != "thread_block" && parent->kind != "thread_block_tile") ||
      call.getArg(1)->isValueDependent() || !call.getArg(1)->EvaluateAsInt(size, ast_))
    return std::nullopt;
  uint64_t n = size.Val.getInt().getZExtValue();
  if (n == 0 || n > 32 || (n & (n - 1)) != 0)
    return std::nullopt;
  return GroupShape{"thread_block_tile", static_cast<unsigned>(n)};
}

void Builder::bindGroupShape(const clang::ValueDecl &var, const clang::Expr *from) const {
  std::optional<GroupShape> shape = from ? groupShape(from) : std::nullopt;
  if (shape)
    group_shapes_.insert_or_assign(&var, *shape);
  else
    group_shapes_.erase(&var);
}

void Builder::bindGroupParameters(const clang::FunctionDecl &callee,
                                  const clang::CallExpr &call) const {
  std::vector<const clang::Expr *> args = callArguments(call);
  for (unsigned i = 0; i < callee.getNumParams() && i < args.size(); ++i) {
    const clang::ParmVarDecl *param = callee.getParamDecl(i);
    if (isGroupClass(param->getType()))
      bindGroupShape(*param, args[i]);
  }
}

std::optional<Value> Builder::cooperativeGroupQuery(const clang::CallExpr &call,
                                                    const clang::FunctionDecl &callee) {
  std::optional<GroupShape> shape = groupShape(callObject(call));
  if (!shape || shape->kind == "coalesced_group" || call.getNumArgs() != 0 ||
      !call.getType()->isIntegerType())
    return std::nullopt;
  const std::string &group = shape->kind;
  auto wide = [&](const z3::expr &e) { return arith_.convert(e, kUInt32, kUInt64); };
  auto axes = [&](auto coordinate, auto extent) {
    // z-major linearization, as CUDA numbers threads and blocks.
    return arith_.add(
        arith_.mul(arith_.add(arith_.mul(wide(coordinate(2)), wide(extent(1))),
                              wide(coordinate(1))),
                   wide(extent(0))),
        wide(coordinate(0)));
  };
  auto product = [&](auto extent) {
    return arith_.mul(arith_.mul(wide(extent(0)), wide(extent(1))), wide(extent(2)));
  };
  auto tid = [&](int a) { return symbols_.threadIdx(a); };
  auto bid = [&](int a) { return symbols_.blockIdx(a); };
  auto bdim = [&](int a) { return symbols_.blockDim(a); };
  auto gdim = [&](int a) { return symbols_.gridDim(a); };
  Coordinates at{axes(tid, bdim), product(bdim), axes(bid, gdim), product(gdim)};
  std::string name = callee.getNameAsString();
  bool size = name == "size" || name == "num_threads";
  std::optional<z3::expr> result;
  if (group == "thread_block") {
    if (name == "thread_rank")
      result = at.block_rank;
    else if (size)
      result = at.block_size;
  } else if (group == "grid_group") {
    if (name == "thread_rank")
      result = arith_.add(arith_.mul(at.block_id, at.block_size), at.block_rank);
    else if (size)
      result = arith_.mul(at.grid_blocks, at.block_size);
    else if (name == "block_rank")
      result = at.block_id;
    else if (name == "num_blocks")
      result = at.grid_blocks;
  } else if (std::optional<unsigned> tile = shape->tile_size) {
    z3::expr n = arith_.constant(*tile, kUInt64);
    if (name == "thread_rank")
      result = arith_.rem(at.block_rank, n, false);
    else if (size)
      result = n;
    else if (name == "meta_group_rank")
      result = arith_.div(at.block_rank, n, false);
    else if (name == "meta_group_size")
      result = arith_.div(arith_.add(at.block_size, arith_.constant(*tile - 1, kUInt64)), n,
                          false);
  }
  if (!result)
    return std::nullopt;
  IntType type = intTypeOf(call.getType());
  return intValue(arith_.convert(*result, kUInt64, type), type);
}

std::optional<std::array<z3::expr, 3>>
Builder::cooperativeGroupTriple(const clang::CallExpr &call) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  std::optional<GroupShape> shape = groupShape(callObject(call));
  std::string group = shape ? shape->kind : std::string();
  if (!callee || call.getNumArgs() != 0 ||
      (group != "thread_block" && group != "grid_group"))
    return std::nullopt;
  std::string name = callee->getNameAsString();
  auto each = [&](auto axis_value) {
    return std::array<z3::expr, 3>{axis_value(0), axis_value(1), axis_value(2)};
  };
  auto tid = [&](int a) { return symbols_.threadIdx(a); };
  auto bid = [&](int a) { return symbols_.blockIdx(a); };
  auto bdim = [&](int a) { return symbols_.blockDim(a); };
  auto gdim = [&](int a) { return symbols_.gridDim(a); };
  std::optional<std::array<z3::expr, 3>> result;
  if (group == "thread_block") {
    if (name == "group_index")
      result = each(bid);
    else if (name == "thread_index")
      result = each(tid);
    else if (name == "group_dim" || name == "dim_threads")
      result = each(bdim);
  } else {
    if (name == "block_index")
      result = each(bid);
    else if (name == "group_dim" || name == "dim_blocks")
      result = each(gdim);
    else if (name == "thread_index")
      result = each([&](int a) {
        return arith_.add(arith_.mul(bid(a), bdim(a)), tid(a));
      });
    else if (name == "dim_threads")
      result = each([&](int a) { return arith_.mul(gdim(a), bdim(a)); });
  }
  if (result)
    for (int axis = 0; axis < 3; ++axis) {
      model_.reads_thread_axis[axis] = true;
      model_.reads_block_axis[axis] = true;
    }
  return result;
}

} // namespace gpurace::analyzer::builder
