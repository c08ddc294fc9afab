#include "analyzer/model/SymbolSpace.h"
#include "analyzer/model/TermWalk.h"

#include <unordered_set>

namespace gpurace::analyzer {

namespace {
const char *const kAxes[3] = {"x", "y", "z"};

std::array<z3::expr, 3> coordinates(const Arith &arith, const char *name) {
  auto make = [&](int axis) {
    return arith.symbol(std::string(name) + "." + kAxes[axis], kUInt32);
  };
  return {make(0), make(1), make(2)};
}
} // namespace

SymbolSpace::SymbolSpace(z3::context &context, OverflowMode mode)
    : arith_(context, mode), thread_idx_(coordinates(arith_, "threadIdx")),
      block_idx_(coordinates(arith_, "blockIdx")),
      block_dim_(coordinates(arith_, "blockDim")),
      grid_dim_(coordinates(arith_, "gridDim")), locals_(context),
      renamed_{z3::expr_vector(context), z3::expr_vector(context),
               z3::expr_vector(context), z3::expr_vector(context)} {
  for (int axis = 0; axis < 3; ++axis) {
    addLocal(thread_idx_[axis]);
    addLocal(block_idx_[axis]);
  }
}

std::string SymbolSpace::uniqueName(const std::string &hint) {
  return hint + "!" + std::to_string(next_id_++);
}

void SymbolSpace::addLocal(const z3::expr &symbol) {
  for (auto &known : for_thread_)
    known.clear();
  locals_.push_back(symbol);
  std::string name = symbol.decl().name().str();
  for (int t = 0; t < kThreads; ++t)
    renamed_[t].push_back(context().constant(
        (name + "@" + std::to_string(t + 1)).c_str(), symbol.get_sort()));
}

void SymbolSpace::rollBack(const Mark &mark) {
  for (auto &known : for_thread_)
    known.clear();
  locals_.resize(static_cast<unsigned>(mark.locals));
  for (z3::expr_vector &renamed : renamed_)
    renamed.resize(static_cast<unsigned>(mark.locals));
  next_id_ = mark.next_id;
}

z3::expr SymbolSpace::freshLocal(const std::string &hint, IntType type) {
  z3::expr symbol = arith_.symbol(uniqueName(hint), type);
  addLocal(symbol);
  return symbol;
}

z3::expr SymbolSpace::freshLocalBool(const std::string &hint) {
  z3::expr symbol = context().bool_const(uniqueName(hint).c_str());
  addLocal(symbol);
  return symbol;
}

z3::expr SymbolSpace::freshShared(const std::string &hint, IntType type) {
  return arith_.symbol(uniqueName(hint), type);
}

z3::expr SymbolSpace::shared(const std::string &name, IntType type) const {
  return arith_.symbol(name, type);
}

z3::func_decl SymbolSpace::freshSharedFunction(const std::string &hint,
                                               unsigned arity, IntType type) {
  z3::sort_vector domain(context());
  for (unsigned i = 0; i < arity; ++i)
    domain.push_back(arith_.sortOf(kInt64));
  return z3::function(uniqueName(hint).c_str(), domain, arith_.sortOf(type));
}

z3::expr SymbolSpace::forThread(const z3::expr &e, int thread) const {
  auto &known = for_thread_[thread - 1];
  if (auto it = known.find(e.id()); it != known.end())
    return it->second.second;
  z3::expr copy = e;
  z3::expr renamed = copy.substitute(locals_, renamed_[thread - 1]);
  known.emplace(e.id(), std::pair{e, renamed});
  return renamed;
}

bool SymbolSpace::isThreadDependent(const z3::expr &e,
                                    const std::vector<z3::expr> &same_for_all) const {
  return mentionsLocals(e, 0, same_for_all);
}

bool SymbolSpace::mentionsLocalsSince(const z3::expr &e, size_t mark,
                                      const std::vector<z3::expr> &except) const {
  return mentionsLocals(e, mark, except);
}

bool SymbolSpace::mentionsLocals(const z3::expr &e, size_t first,
                                 const std::vector<z3::expr> &except) const {
  std::unordered_set<unsigned> local_ids;
  for (unsigned i = static_cast<unsigned>(first); i < locals_.size(); ++i)
    local_ids.insert(locals_[i].id());
  for (const z3::expr &uniform : except)
    local_ids.erase(uniform.id());
  return walkTerms({e}, [&](const z3::expr &current) {
    return local_ids.count(current.id()) ? TermVisit::Stop : TermVisit::Descend;
  });
}

z3::expr SymbolSpace::coordinateBounds(int thread) const {
  z3::expr bounds = context().bool_val(true);
  for (int axis = 0; axis < 3; ++axis) {
    z3::expr tid = forThread(thread_idx_[axis], thread);
    z3::expr bid = forThread(block_idx_[axis], thread);
    bounds = bounds && arith_.less(tid, block_dim_[axis], false) &&
             arith_.less(bid, grid_dim_[axis], false);
    if (arith_.mode() == OverflowMode::Math)
      bounds = bounds && tid >= 0 && bid >= 0;
  }
  return bounds;
}

z3::expr SymbolSpace::linearThreadId(int thread) const {
  auto tid = [&](int axis) {
    return arith_.convert(forThread(thread_idx_[axis], thread), kUInt32, kInt64);
  };
  auto dim = [&](int axis) { return arith_.convert(block_dim_[axis], kUInt32, kInt64); };
  return arith_.add(tid(0), arith_.mul(dim(0), arith_.add(tid(1), arith_.mul(dim(1), tid(2)))));
}

z3::expr SymbolSpace::sameRankTheorem() const {
  z3::expr same_coordinates = context().bool_val(true);
  for (int axis = 0; axis < 3; ++axis)
    same_coordinates = same_coordinates &&
                       forThread(thread_idx_[axis], 1) == forThread(thread_idx_[axis], 2);
  return z3::implies(same_coordinates, linearThreadId(1) == linearThreadId(2));
}

std::set<std::string> symbolNames(std::vector<z3::expr> terms, bool values_only) {
  std::set<std::string> names;
  walkTerms(std::move(terms), [&](const z3::expr &e) {
    if (e.decl().decl_kind() == Z3_OP_UNINTERPRETED)
      names.insert(e.decl().name().str());
    return values_only ? TermVisit::DescendIntoBranches : TermVisit::Descend;
  });
  return names;
}

} // namespace gpurace::analyzer
