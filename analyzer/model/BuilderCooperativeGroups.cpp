// What a cooperative group says about the calling thread: ranks and sizes
// of blocks, tiles and grids are functions of the thread's coordinates and
// the launch, not opaque results, so cooperative-groups kernels index their
// data as precisely as those written with threadIdx.
#include "analyzer/model/ModelBuilder.h"

namespace gpurace::analyzer::builder {

namespace {

struct Coordinates {
  z3::expr block_rank, block_size, block_id, grid_blocks;
};

} // namespace

std::optional<Value> Builder::cooperativeGroupQuery(const clang::CallExpr &call,
                                                    const clang::FunctionDecl &callee) {
  std::string group = cooperativeGroupKind(callObject(call));
  if (group.empty() || group == "coalesced_group" || call.getNumArgs() != 0 ||
      !call.getType()->isIntegerType())
    return std::nullopt;
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
  } else if (std::optional<unsigned> tile = tileSize(callObject(call))) {
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
  std::string group = cooperativeGroupKind(callObject(call));
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
