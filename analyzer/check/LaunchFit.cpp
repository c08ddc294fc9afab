#include "analyzer/check/LaunchFit.h"

#include "analyzer/check/Delinearization.h"
#include "analyzer/model/TermWalk.h"

#include <algorithm>

namespace gpurace::analyzer {

namespace {

constexpr const char *kParameterPrefix = "param:";

bool isParameter(const z3::expr &e) {
  return e.is_const() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED &&
         e.decl().name().str().rfind(kParameterPrefix, 0) == 0;
}

// The parameter's name in the source: its symbol's name is
// `param:NAME@PLACE`.
std::string parameterName(const z3::expr &parameter) {
  std::string name = parameter.decl().name().str().substr(std::string(kParameterPrefix).size());
  return name.substr(0, name.find('@'));
}

// Whether `term` is the thread's own: made of its coordinates and
// launch-wide values only, and not launch-wide itself.
bool fromCoordinates(const z3::expr &term, const SymbolSpace &symbols) {
  if (!symbols.isThreadDependent(term))
    return false;
  std::vector<z3::expr> coordinates;
  for (int axis = 0; axis < 3; ++axis) {
    coordinates.push_back(symbols.threadIdx(axis));
    coordinates.push_back(symbols.blockIdx(axis));
  }
  for (const z3::expr &symbol : uninterpretedTerms({term})) {
    bool coordinate = std::any_of(coordinates.begin(), coordinates.end(),
                                  [&](const z3::expr &c) { return z3::eq(c, symbol); });
    if (!coordinate && symbols.isThreadDependent(symbol))
      return false;
  }
  return true;
}

} // namespace

std::vector<RowExtent> rowExtents(const KernelModel &model, const SymbolSpace &symbols) {
  std::vector<RowExtent> extents;
  auto launch_wide = [&](const z3::expr &e) { return !symbols.isThreadDependent(e); };
  for (const MemoryAccess &access : model.accesses) {
    if (access.object->kind != MemoryObject::Kind::PointerParameter)
      continue;
    for (const RowSplit &split : rowSplits(access.offset, launch_wide)) {
      if (!isParameter(split.stride) || !fromCoordinates(split.rest, symbols))
        continue;
      z3::context &z3 = split.rest.ctx();
      int64_t element = static_cast<int64_t>(access.site.size_bytes());
      z3::expr fact = z3.int_val(0) <= split.rest &&
                      split.rest < split.stride * z3.int_val(element);
      fact = fact.simplify();
      if (std::none_of(extents.begin(), extents.end(),
                       [&](const RowExtent &known) { return z3::eq(known.fact, fact); }))
        extents.push_back({fact, parameterName(split.stride)});
    }
  }
  return extents;
}

std::vector<TileExtent> tileExtents(const KernelModel &model, const SymbolSpace &symbols) {
  std::vector<TileExtent> extents;
  for (const MemoryAccess &access : model.accesses) {
    if (!access.in_bounds || !fromCoordinates(*access.in_bounds, symbols))
      continue;
    z3::expr fact = access.in_bounds->simplify();
    std::string array = access.object ? access.object->name : std::string();
    auto known = std::find_if(extents.begin(), extents.end(),
                              [&](const TileExtent &e) { return z3::eq(e.fact, fact); });
    if (known == extents.end())
      extents.push_back({fact, {array}});
    else if (std::find(known->arrays.begin(), known->arrays.end(), array) == known->arrays.end())
      known->arrays.push_back(array);
  }
  return extents;
}

} // namespace gpurace::analyzer
