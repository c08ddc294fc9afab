//===- CudaOutParameters.cpp - what CUDA allocation calls leave in a pitch -===//
//
// cudaMallocPitch and cudaMalloc3D choose a row pitch the host cannot know
// (it depends on the device's alignment), but the runtime guarantees that
// a row fits in it: the pitch is at least the width in bytes asked for.
// It also keeps "corresponding pointers in any given row" aligned "for
// coalescing as the address is updated from row to row", and coalesced
// accesses are of up to 16 bytes (cuMemAllocPitch's ElementSizeBytes is 4,
// 8 or 16): a pitch is a multiple of 16, so that a row of shorts read as
// ints (`((int *)row)[i * (pitch / 2 / 2)]`) splits into whole words.
// cudaMalloc3D also records the extent it was given in the pitched
// pointer's xsize and ysize. Kernels indexed `row = base + y * pitch` are
// race-free only with these facts.
//
// Programs written for any device query its warp size and block limit and
// launch by them (`for (b = prop.warpSize; b <= 1024; b *= 2)`): every GPU
// the toolkit supports (compute capability 7.5 on) has the same ones.
//
//===----------------------------------------------------------------------===//
#include "analyzer/host/HostValues.h"

#include "analyzer/host/HostExpressions.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

namespace gpurace::analyzer {

using clang::dyn_cast;

namespace {

// The widest access that coalesces, in bytes: every row of a pitched
// allocation starts at a multiple of it past the first.
constexpr int64_t kPitchAlignment = 16;

// The make_cudaExtent(w, h, d) call an extent argument is, past the
// conversions and temporaries around it.
const clang::CallExpr *madeExtent(const clang::Expr &extent) {
  const clang::Expr *e = extent.IgnoreImplicit();
  if (auto *temp = dyn_cast<clang::MaterializeTemporaryExpr>(e))
    e = temp->getSubExpr()->IgnoreImplicit();
  if (auto *construct = dyn_cast<clang::CXXConstructExpr>(e); construct && construct->getNumArgs() == 1)
    e = construct->getArg(0)->IgnoreImplicit();
  auto *make = dyn_cast<clang::CallExpr>(e);
  const clang::FunctionDecl *callee = make ? make->getDirectCallee() : nullptr;
  return callee && callee->getName() == "make_cudaExtent" && make->getNumArgs() == 3 ? make
                                                                                    : nullptr;
}

// The value every supported GPU reports for a cudaDeviceProp field or a
// cudaDeviceAttr, where they all agree.
std::optional<int64_t> sharedDeviceProperty(const std::string &name) {
  if (name == "warpSize" || name == "cudaDevAttrWarpSize")
    return 32;
  if (name == "maxThreadsPerBlock" || name == "cudaDevAttrMaxThreadsPerBlock")
    return 1024;
  return std::nullopt;
}

// The cudaDeviceAttr constant an attribute argument names.
std::string attributeName(const clang::Expr &attribute) {
  auto *ref = dyn_cast<clang::DeclRefExpr>(attribute.IgnoreParenImpCasts());
  auto *constant = ref ? dyn_cast<clang::EnumConstantDecl>(ref->getDecl()) : nullptr;
  return constant ? constant->getNameAsString() : "";
}

} // namespace

std::optional<z3::expr> HostValues::deviceProperty(const clang::CallExpr &call,
                                                   const clang::VarDecl &var,
                                                   const std::string &field) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  std::string name = callee ? callee->getNameAsString() : "";
  std::string property, shown = var.getNameAsString();
  if ((name == "cudaGetDeviceProperties" || name == "cudaGetDeviceProperties_v2") &&
      call.getNumArgs() == 2 && referencedVar(call.getArg(0)) == &var) {
    property = field;
    shown += "." + field;
  } else if (name == "cudaDeviceGetAttribute" && call.getNumArgs() == 3 && field.empty() &&
             referencedVar(call.getArg(0)) == &var) {
    property = attributeName(*call.getArg(1));
  }
  std::optional<int64_t> shared = sharedDeviceProperty(property);
  if (!shared)
    return std::nullopt;
  return stated("host:device:" + property, arith_.constant(*shared, kInt64),
                "host '" + shown + "' is " + std::to_string(*shared) + " ('" + property +
                    "' of every GPU from compute capability 7.5 on)",
                &call);
}

std::optional<z3::expr> HostValues::extentField(const clang::Expr &extent,
                                                const std::string &field) {
  // A local extent initialized once by make_cudaExtent is that call.
  if (const clang::VarDecl *local = referencedVar(&extent))
    if (local->hasLocalStorage() && local->getInit() && !assignedOutsideInit(*local))
      if (const clang::CallExpr *make = madeExtent(*local->getInit()))
        return extentField(*make, field);
  if (const clang::CallExpr *make = madeExtent(extent)) {
    int index = field == "width" ? 0 : field == "height" ? 1 : 2;
    return value(make->getArg(index));
  }
  return structField(&extent, field);
}

std::optional<z3::expr> HostValues::cudaOutValue(const clang::CallExpr &call,
                                                 const clang::VarDecl &var,
                                                 const std::string &field) {
  const clang::FunctionDecl *callee = call.getDirectCallee();
  std::string name = callee ? callee->getNameAsString() : "";
  std::optional<z3::expr> width;
  std::string what;
  if (name == "cudaMallocPitch" && call.getNumArgs() == 4 && field.empty() &&
      referencedVar(call.getArg(1)) == &var) {
    width = value(call.getArg(2));
    what = "pitch";
  } else if (name == "cudaMalloc3D" && call.getNumArgs() == 2 &&
             referencedVar(call.getArg(0)) == &var) {
    if (field == "xsize")
      return extentField(*call.getArg(1), "width");
    if (field == "ysize")
      return extentField(*call.getArg(1), "height");
    if (field != "pitch")
      return std::nullopt;
    width = extentField(*call.getArg(1), "width");
    what = var.getNameAsString() + ".pitch";
  } else {
    return deviceProperty(call, var, field);
  }
  // The pitch itself is the device's choice: a symbol of its own per call.
  z3::expr pitch = symbols_.shared(unknownName(call) + ":" + what, kInt64);
  noteUnknown(pitch, "host '" + what + "' is the pitch '" + name + "' chooses", what, &call);
  if (!stated_.insert(pitch.decl().name().str()).second)
    return pitch;
  if (width)
    value_facts_.push_back(fact(arith_.lessEq(*width, pitch, true), v1::HOST_FACT_KIND_ALLOCATION,
                                "'" + what + "' from '" + name + "' >= the width it was asked for",
                                call));
  z3::expr sixteen = arith_.constant(kPitchAlignment, kInt64);
  value_facts_.push_back(fact(arith_.rem(pitch, sixteen, true) == arith_.constant(0, kInt64),
                              v1::HOST_FACT_KIND_ALLOCATION,
                              "'" + what + "' from '" + name + "' is a multiple of " +
                                  std::to_string(kPitchAlignment) + " bytes",
                              call));
  return pitch;
}

} // namespace gpurace::analyzer
