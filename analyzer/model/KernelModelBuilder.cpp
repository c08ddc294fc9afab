//===- KernelModelBuilder.cpp - kernel AST to KernelModel -------------------===//
//
// The entry point, parameters, and what the builder writes into the model:
// accesses, memory objects and source locations. The walk itself is split
// by concept over the Builder*.cpp units.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/KernelModelBuilder.h"

#include "analyzer/model/FenceReach.h"
#include "analyzer/model/ModelBuilder.h"
#include "analyzer/model/SourceLocations.h"
#include "analyzer/model/StructPointerFields.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <array>
#include <map>
#include <optional>
#include <set>

namespace gpurace::analyzer {

IntType intTypeOf(clang::QualType type, const clang::ASTContext &ast) {
  type = type.getCanonicalType();
  if (type->isPointerType() || !type->isIntegralOrEnumerationType())
    return kInt64;
  unsigned width = static_cast<unsigned>(ast.getTypeSize(type));
  if (width != 8 && width != 16 && width != 32 && width != 64)
    width = 64;
  return {width, type->isSignedIntegerOrEnumerationType()};
}

std::string parameterSymbolName(const std::string &parameter) {
  return "param:" + parameter;
}

std::string truncatedParameterName(const std::string &parameter) {
  return "(int)" + parameter;
}

std::string pointerBaseSymbolName(const std::string &parameter) {
  return "base:" + parameter;
}

std::string pointerNullSymbolName(const std::string &parameter) {
  return "null:" + parameter;
}

UnsupportedConstruct::UnsupportedConstruct(const std::string &construct,
                                           const std::string &location)
    : std::runtime_error("unsupported construct: " + construct +
                         (location.empty() ? "" : " at " + location)),
      construct_(construct), location_(location) {}

namespace builder {

using clang::dyn_cast;
using clang::isa;

// --- model output -----------------------------------------------------------

std::string Builder::currentFunctionName() const {
  const clang::FunctionDecl *f = frames_.empty() ? &kernel_ : frames_.back().function;
  return f->getQualifiedNameAsString();
}

v1::SourceLocation Builder::locationOf(const clang::Stmt &stmt) const {
  return toLocation(stmt.getSourceRange(), sources_, currentFunctionName());
}

std::string Builder::localKey(const clang::ValueDecl &decl) {
  // Numbered in the order the walk meets them, not by address: the
  // environment is iterated when paths merge, and that order decides the
  // terms and the numbering of fresh symbols, hence the solver's work.
  auto [it, inserted] = local_ids_.emplace(decl.getCanonicalDecl(), local_ids_.size());
  std::string key = "local" + std::to_string(it->second);
  if (inserted)
    locals_.emplace(key, std::make_pair(&decl, decl.getType()));
  return key;
}

void Builder::unsupported(const std::string &construct, const clang::Stmt &at) const {
  v1::SourceLocation where = locationOf(at);
  throw UnsupportedConstruct(construct + " in '" + kernel_.getNameAsString() + "'",
                             where.file() + ":" + std::to_string(where.line()) + ":" +
                                 std::to_string(where.column()));
}

void Builder::recordAccess(const Place &where, const clang::Expr *expr,
                           v1::AccessKind kind, v1::AtomicOp op,
                           v1::MemoryScope scope) {
  if (!where.object || where.object->space == v1::MEMORY_SPACE_CONSTANT)
    return;
  if (kind != v1::ACCESS_KIND_READ && shared_scalars_.count(where.object))
    ++scalar_write_sites_[where.object];
  // A store other than the plain one assignTo records again.
  if (kind != v1::ACCESS_KIND_READ && where.object == unknown_)
    own_stores_.clear();
  else if (kind != v1::ACCESS_KIND_READ)
    own_stores_.erase(where.object);
  if (kind == v1::ACCESS_KIND_ATOMIC)
    passOrderingPoint();
  MemoryAccess access{{}, where.object, *where.offset, state_.pc,
                      {state_.block, state_.warp, state_.grid, state_.masked_warp},
                      iterations_, order_++};
  access.strong = !isa<clang::CallExpr>(expr) && expr->getType().isVolatileQualified();
  access.in_bounds = where.in_bounds;
  v1::AccessSite &site = access.site;
  *site.mutable_location() = locationOf(*expr);
  site.set_kind(kind);
  site.set_atomic_op(op);
  site.set_scope(scope);
  site.set_space(where.object->space);
  site.set_expression(sourceText(expr->getSourceRange(), sources_));
  site.set_base_object(where.object->name);
  site.set_kernel(kernel_.getNameAsString());
  clang::QualType type = expr->getType();
  if (auto *member = dyn_cast<clang::CXXMemberCallExpr>(expr);
      member && kind == v1::ACCESS_KIND_ATOMIC)
    type = scopedAtomicValueType(*member);
  else if (auto *call = dyn_cast<clang::CallExpr>(expr);
           call && (kind == v1::ACCESS_KIND_ATOMIC || call->getType()->isVoidType()) &&
           call->getNumArgs() > 0 && call->getArg(0)->getType()->isPointerType())
    // An atomic or a store by call (`__stcs(p, v)`) accesses what its
    // first argument points to.
    type = call->getArg(0)->getType()->getPointeeType();
  if (type->isReferenceType())
    type = type.getNonReferenceType();
  site.set_size_bytes(sizeOf(type));
  for (const Frame &frame : frames_)
    *site.add_call_stack() = frame.call;
  *site.mutable_excerpt() = excerptAround(site.location(), sources_,
                                          expr->getBeginLoc(),
                                          options_.excerpt_context);
  // Stable id: what is accessed and how, and which occurrence of that text
  // in the function it is; never the line number.
  std::string key = currentFunctionName() + "|" + normalizedText(*expr, ast_) +
                    "|" + std::to_string(kind) + "|" +
                    std::to_string(site.call_stack_size());
  unsigned ordinal = site_ordinals_[key]++;
  site.set_site_id(key + "#" + std::to_string(ordinal)); // hashed later
  model_.accesses.push_back(std::move(access));
}

const MemoryObject *Builder::objectFor(const clang::ValueDecl &decl,
                                       MemoryObject::Kind kind,
                                       v1::MemorySpace space,
                                       int parameter_index) {
  auto it = objects_.find(decl.getCanonicalDecl());
  if (it != objects_.end())
    return it->second;
  auto object = std::make_unique<MemoryObject>();
  object->kind = kind;
  object->name = decl.getNameAsString();
  object->space = space;
  object->parameter_index = parameter_index;
  if (auto *var = llvm::dyn_cast<clang::VarDecl>(&decl);
      var && (kind == MemoryObject::Kind::DeviceGlobal || kind == MemoryObject::Kind::SharedArray) &&
      !var->getType()->isIncompleteType() && !var->getType()->isDependentType() &&
      var->getType()->isConstantSizeType())
    object->bytes = static_cast<uint64_t>(ast_.getTypeSizeInChars(var->getType()).getQuantity());
  const MemoryObject *raw = object.get();
  model_.objects.push_back(std::move(object));
  objects_[decl.getCanonicalDecl()] = raw;
  auto *var = llvm::dyn_cast<clang::VarDecl>(&decl);
  if (var && kind == MemoryObject::Kind::DeviceGlobal && unit_.globalWrites().readOnly(*var))
    read_only_objects_.insert(raw);
  return raw;
}

const MemoryObject *Builder::unknownObject() {
  if (!unknown_) {
    auto object = std::make_unique<MemoryObject>();
    object->kind = MemoryObject::Kind::Unknown;
    object->name = "<unresolved pointer>";
    unknown_ = object.get();
    model_.objects.push_back(std::move(object));
  }
  return unknown_;
}

KernelModel Builder::build() {
  model_.kernel_name = kernel_.getNameAsString();
  shared_reads_agree_ = !mayFence(kernel_, ast_);
  model_.kernel_location =
      toLocation(kernel_.getSourceRange(), sources_, kernel_.getQualifiedNameAsString());
  for (const StructPointerField &field : structPointerFields(kernel_))
    struct_pointer_fields_.emplace(field.name, field.index);
  for (unsigned i = 0; i < kernel_.getNumParams(); ++i) {
    const clang::ParmVarDecl *param = kernel_.getParamDecl(i);
    std::string name = parameterName(kernel_, i);
    clang::QualType type = param->getType();
    if (type->isPointerType() || type->isReferenceType()) {
      const MemoryObject *object = objectFor(*param, MemoryObject::Kind::PointerParameter,
                                             v1::MEMORY_SPACE_GLOBAL, static_cast<int>(i));
      state_.env.insert_or_assign(localKey(*param), pointerValue(zero64(), object));
      continue;
    }
    bindParameter(localKey(*param), 0, name, type, 0);
  }
  walk(kernel_.getBody());
  reviseBroadcasts();
  return std::move(model_);
}

void Builder::bindParameter(const std::string &root, int64_t offset,
                            const std::string &name, clang::QualType type, unsigned depth) {
  type = type.getCanonicalType();
  Place at{Place::Kind::Local, nullptr, arith_.constant(offset, kInt64), root};
  if (type->isPointerType() && depth > 0) {
    // A pointer field of a struct argument is one more pointer parameter
    // (StructPointerFields.h); one nested deeper may alias every other
    // global pointer.
    auto object = std::make_unique<MemoryObject>();
    object->kind = MemoryObject::Kind::Unknown;
    object->name = name;
    if (auto field = struct_pointer_fields_.find(name);
        depth == 1 && field != struct_pointer_fields_.end()) {
      object->kind = MemoryObject::Kind::PointerParameter;
      object->parameter_index = field->second;
    }
    writeLocal(at, type, pointerValue(zero64(), object.get()));
    model_.objects.push_back(std::move(object));
    return;
  }
  if (const clang::RecordDecl *record = type->getAsRecordDecl()) {
    // Fields of a struct passed by value are the same for every thread,
    // like parameters (`img.width`); nesting beyond a few levels is left
    // to fresh values.
    if (depth >= 3 || !record->getDefinition() || record->isUnion() ||
        record->isInvalidDecl())
      return;
    const clang::ASTRecordLayout &layout = ast_.getASTRecordLayout(record->getDefinition());
    for (const clang::FieldDecl *field : record->getDefinition()->fields())
      if (!field->isBitField() && !field->getName().empty())
        bindParameter(root,
                      offset + static_cast<int64_t>(
                                   layout.getFieldOffset(field->getFieldIndex()) / 8),
                      name + "." + field->getNameAsString(), field->getType(), depth + 1);
    return;
  }
  if (type->isRealFloatingType()) {
    bindFloatParameter(at, name, type);
    return;
  }
  if (!type->isIntegralOrEnumerationType())
    return; // arrays become fresh when read
  IntType t = intTypeOf(type);
  z3::expr symbol = symbols_.shared(parameterSymbolName(name), t);
  model_.parameters.emplace_back(name, symbol);
  if (!type->isBooleanType())
    model_.parameter_ranges.push_back(arith_.inRange(symbol, t));
  writeLocal(at, type, type->isBooleanType() ? boolValue(arith_.toBool(symbol))
                                             : intValue(symbol, t));
}

// A floating-point parameter is opaque (its arithmetic is not modelled),
// but the integer it converts to is a parameter like any other, one value
// for every thread, which the host's facts can pin: a stencil's direction
// `(int)dir.s0` that the host set to 1.0.
void Builder::bindFloatParameter(const Place &at, const std::string &name,
                                 clang::QualType type) {
  Value opaque = freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                            "floating-point parameter '" + name + "'", nullptr);
  float_parameters_.emplace(opaque.expr.decl().name().str(),
                            FloatParameter{truncatedParameterName(name),
                                           symbols_.shared(parameterSymbolName(
                                                               truncatedParameterName(name)),
                                                           kInt64)});
  writeLocal(at, type, opaque);
}

std::optional<Value> Builder::truncatedParameter(const Value &converted, clang::QualType to) {
  if (converted.kind != Value::Kind::Int || !converted.expr.is_const() ||
      !to->isIntegralOrEnumerationType() || to->isBooleanType())
    return std::nullopt;
  auto parameter = float_parameters_.find(converted.expr.decl().name().str());
  if (parameter == float_parameters_.end())
    return std::nullopt;
  FloatParameter &read = parameter->second;
  if (!read.shown) {
    // Only a parameter some index converts is shown in witnesses.
    model_.parameters.emplace_back(read.name, read.truncated);
    read.shown = true;
  }
  IntType t = intTypeOf(to);
  return intValue(arith_.convert(read.truncated, kInt64, t), t);
}

} // namespace builder

KernelModel buildKernelModel(const clang::FunctionDecl &kernel, DeviceUnit &unit,
                             SymbolSpace &symbols, const ModelOptions &options) {
  // A walk assumes what it can only confirm later (loop values that stay
  // alike, broadcasts that are the scalar's only write); where it finds
  // otherwise, the kernel is walked again with the assumption dropped.
  // Each walk drops at least one, so this ends.
  builder::WalkRevisions revisions;
  SymbolSpace::Mark before = symbols.mark();
  while (true) {
    builder::Builder walk(kernel, unit, symbols, options, revisions);
    KernelModel model = walk.build();
    if (!walk.revised())
      return model;
    symbols.rollBack(before);
  }
}

KernelModel buildKernelModel(const clang::FunctionDecl &kernel, clang::ASTContext &ast,
                             SymbolSpace &symbols, const ModelOptions &options) {
  DeviceUnit unit(ast);
  return buildKernelModel(kernel, unit, symbols, options);
}

} // namespace gpurace::analyzer
