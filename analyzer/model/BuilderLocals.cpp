//===- BuilderLocals.cpp - storage of a thread's local variables ------------===//
//
// Local variables are private to a thread, so they never race, but their
// values feed indices. A scalar holds one value under its root key; an
// array or struct holds a value per (byte offset, size) written so far,
// under `root@offset:size`. What the model does not know is a fresh value:
// an element never written, a write at an index too vague to place.
//
//===----------------------------------------------------------------------===//
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>

#include <tuple>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;
using clang::isa;

namespace {

// At most this many elements are enumerated for an access at a symbolic
// index; beyond it the access makes the whole local unknown.
constexpr int64_t kMaxCandidates = 64;

// The (offset, size) of an element key of `root`, or nothing when `key`
// is not one.
std::optional<std::pair<int64_t, int64_t>> elementOf(const std::string &key,
                                                     const std::string &root) {
  if (key.size() <= root.size() + 1 || key.compare(0, root.size(), root) != 0 ||
      key[root.size()] != '@')
    return std::nullopt;
  size_t colon = key.find(':', root.size());
  if (colon == std::string::npos)
    return std::nullopt;
  return std::make_pair(std::stoll(key.substr(root.size() + 1, colon - root.size() - 1)),
                        std::stoll(key.substr(colon + 1)));
}

// Drops the values of `root` that overlap bytes [offset, offset + size).
void eraseOverlapping(std::map<std::string, Value> &env, const std::string &root,
                      int64_t offset, int64_t size) {
  std::string prefix = root + "@";
  for (auto it = env.lower_bound(prefix);
       it != env.end() && it->first.compare(0, prefix.size(), prefix) == 0;) {
    auto element = elementOf(it->first, root);
    bool overlaps = element && element->first < offset + size &&
                    offset < element->first + element->second;
    it = overlaps ? env.erase(it) : std::next(it);
  }
}

const clang::Expr *skipWrappers(const clang::Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    if (auto *full = dyn_cast<clang::FullExpr>(e))
      e = full->getSubExpr();
    else if (auto *bind = dyn_cast<clang::CXXBindTemporaryExpr>(e))
      e = bind->getSubExpr();
    else if (auto *temporary = dyn_cast<clang::MaterializeTemporaryExpr>(e))
      e = temporary->getSubExpr();
    // Implicit, or `T{a, b}` of a struct (a functional cast of a list).
    else if (auto *cast = dyn_cast<clang::CastExpr>(e);
             cast && cast->getCastKind() == clang::CK_NoOp)
      e = cast->getSubExpr();
    // `T(x)` and `static_cast<T>(x)` of a class: the constructor call.
    else if (auto *conversion = dyn_cast<clang::CastExpr>(e);
             conversion && conversion->getCastKind() == clang::CK_ConstructorConversion)
      e = conversion->getSubExpr();
    else
      return e;
  }
}

} // namespace

void Builder::declareLocal(const std::string &root, clang::QualType type) {
  loaded_copies_.erase(root);
  locals_.insert_or_assign(root, std::make_pair(nullptr, type));
}

bool Builder::isAggregate(const std::string &root) const {
  auto it = locals_.find(root);
  if (it == locals_.end())
    return false;
  clang::QualType type = it->second.second.getCanonicalType();
  return type->isRecordType() || type->isArrayType();
}

std::string Builder::elementKey(const std::string &root, int64_t offset,
                                int64_t size) const {
  return root + "@" + std::to_string(offset) + ":" + std::to_string(size);
}

Value Builder::readLocal(const Place &where, clang::QualType type, const clang::Stmt *at) {
  const std::string &root = where.local_key;
  auto [decl, root_type] = locals_.count(root) ? locals_.at(root)
                                               : std::make_pair(nullptr, clang::QualType());
  std::string name = decl ? "'" + decl->getNameAsString() + "'" : "a temporary";
  std::optional<int64_t> offset = Arith::numeral(where.offset->simplify(), true);
  if (type->isRecordType() || type->isArrayType())
    return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "aggregate value of " + name, at);
  if (!isAggregate(root)) {
    bool whole = offset && *offset == 0 &&
                 (root_type.isNull() || sizeOf(type) == sizeOf(root_type));
    auto it = state_.env.find(root);
    if (whole && it != state_.env.end())
      return asType(it->second, type);
    Value fresh = freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                             "value of " + name + " not followed", at);
    if (whole)
      state_.env.insert_or_assign(root, fresh);
    return fresh;
  }
  auto element = [&](int64_t at_offset) {
    std::string key = elementKey(root, at_offset, sizeOf(type));
    auto it = state_.env.find(key);
    if (it != state_.env.end())
      return asType(it->second, type);
    // Not written yet (or no longer known): one unknown value, kept so
    // that two reads agree.
    auto loaded = loaded_copies_.find(root);
    Value fresh = loaded != loaded_copies_.end()
                      ? freshValue(type, v1::IMPRECISION_KIND_LOADED_VALUE,
                                   "value loaded from " + loaded->second, at, loaded->second)
                      : freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                                   "element of " + name + " not followed", at);
    state_.env.insert_or_assign(key, fresh);
    return fresh;
  };
  if (offset)
    return element(*offset);
  std::optional<std::vector<int64_t>> candidates = candidateOffsets(root, type);
  if (!candidates)
    return freshValue(type, v1::IMPRECISION_KIND_UNMODELED_EXPRESSION,
                      "element of " + name + " at an index not followed", at);
  Value result = element(candidates->back());
  for (auto it = candidates->rbegin() + 1; it != candidates->rend(); ++it)
    result = selectValue(*where.offset == arith_.constant(*it, kInt64), element(*it),
                         result, type);
  return result;
}

void Builder::writeLocal(const Place &where, clang::QualType type, const Value &value) {
  const std::string &root = where.local_key;
  Value stored = asType(value, type);
  std::optional<int64_t> offset = Arith::numeral(where.offset->simplify(), true);
  if (!isAggregate(root)) {
    auto it = locals_.find(root);
    bool whole = offset && *offset == 0 &&
                 (it == locals_.end() || sizeOf(type) == sizeOf(it->second.second));
    if (whole)
      state_.env.insert_or_assign(root, stored);
    else
      forgetLocal(root);
    return;
  }
  if (type->isRecordType() || type->isArrayType()) {
    forgetLocal(root);
    return;
  }
  if (offset) {
    writeElement(root, *offset, sizeOf(type), stored);
    return;
  }
  std::optional<std::vector<int64_t>> candidates = candidateOffsets(root, type);
  if (!candidates) {
    forgetLocal(root);
    return;
  }
  // The write hits one of the candidates: each keeps its old value unless
  // the index selects it.
  std::vector<std::pair<int64_t, Value>> updated;
  for (int64_t candidate : *candidates) {
    Value old = readLocal(Place{Place::Kind::Local, nullptr,
                                arith_.constant(candidate, kInt64), root},
                          type, nullptr);
    updated.emplace_back(candidate,
                         selectValue(*where.offset == arith_.constant(candidate, kInt64),
                                     stored, old, type));
  }
  for (const auto &[candidate, v] : updated)
    writeElement(root, candidate, sizeOf(type), v);
}

void Builder::writeElement(const std::string &root, int64_t offset, int64_t size,
                           const Value &value) {
  // Values of other shapes that overlap the written bytes are stale.
  eraseOverlapping(state_.env, root, offset, size);
  state_.env.insert_or_assign(elementKey(root, offset, size), value);
}

std::optional<std::vector<int64_t>> Builder::candidateOffsets(const std::string &root,
                                                              clang::QualType type) const {
  auto it = locals_.find(root);
  if (it == locals_.end() || type->isIncompleteType() || type->isDependentType())
    return std::nullopt;
  int64_t total = sizeOf(it->second.second);
  int64_t size = sizeOf(type);
  int64_t align = ast_.getTypeAlignInChars(type).getQuantity();
  if (align <= 0 || size > total || (total - size) / align + 1 > kMaxCandidates)
    return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t offset = 0; offset + size <= total; offset += align)
    out.push_back(offset);
  return out;
}

void Builder::initLocal(const std::string &root, int64_t offset, clang::QualType type,
                        const clang::Expr *init) {
  if (!init)
    return;
  const clang::Expr *e = skipWrappers(init);
  type = type.getCanonicalType();
  Place at{Place::Kind::Local, nullptr, arith_.constant(offset, kInt64), root};
  if (auto *list = dyn_cast<clang::InitListExpr>(e)) {
    if (auto *array = ast_.getAsConstantArrayType(type)) {
      clang::QualType element = array->getElementType();
      int64_t size = sizeOf(element);
      uint64_t count = array->getSize().getZExtValue();
      for (unsigned i = 0; i < list->getNumInits() && i < count; ++i)
        initLocal(root, offset + i * size, element, list->getInit(i));
      if (list->hasArrayFiller() && count <= static_cast<uint64_t>(kMaxCandidates))
        for (uint64_t i = list->getNumInits(); i < count; ++i)
          initLocal(root, offset + static_cast<int64_t>(i) * size, element,
                    list->getArrayFiller());
      return;
    }
    const clang::RecordDecl *record = type->getAsRecordDecl();
    if (record && record->getDefinition() && !record->isUnion() &&
        !record->isInvalidDecl()) {
      const clang::ASTRecordLayout &layout = ast_.getASTRecordLayout(record->getDefinition());
      unsigned bases = 0;
      if (auto *cxx = dyn_cast<clang::CXXRecordDecl>(record->getDefinition()))
        bases = cxx->getNumBases();
      for (unsigned i = 0; i < bases && i < list->getNumInits(); ++i)
        eval(list->getInit(i));
      for (const clang::FieldDecl *field : record->getDefinition()->fields()) {
        unsigned index = bases + field->getFieldIndex();
        if (index >= list->getNumInits())
          break;
        if (field->isBitField()) {
          eval(list->getInit(index));
          continue;
        }
        int64_t bits = static_cast<int64_t>(layout.getFieldOffset(field->getFieldIndex()));
        initLocal(root, offset + bits / 8, field->getType(), list->getInit(index));
      }
      return;
    }
    if (list->getNumInits() == 1 && !type->isRecordType() && !type->isArrayType()) {
      initLocal(root, offset, type, list->getInit(0));
      return;
    }
    eval(list);
    return;
  }
  if (isa<clang::ImplicitValueInitExpr, clang::CXXScalarValueInitExpr>(e) &&
      (type->isIntegralOrEnumerationType() || type->isPointerType())) {
    writeLocal(at, type, intValue(arith_.constant(0, intTypeOf(type)), intTypeOf(type)));
    return;
  }
  if (auto *construct = dyn_cast<clang::CXXConstructExpr>(e)) {
    const clang::CXXConstructorDecl *ctor = construct->getConstructor();
    // `Flows flows;` of a plain struct runs nothing: walking it would hand
    // out `this`, and an object whose address escaped is forgotten by
    // every loop that writes through a pointer.
    if (ctor && ctor->isTrivial() && ctor->isDefaultConstructor())
      return;
    if (ctor && ctor->isTrivial() && ctor->isCopyOrMoveConstructor() &&
        construct->getNumArgs() == 1) {
      copyInto(root, offset, type, construct->getArg(0));
      return;
    }
    if (!this->construct(root, offset, *construct))
      eval(construct);
    return;
  }
  if (auto *call = dyn_cast<clang::CallExpr>(e))
    if (auto triple = cooperativeGroupTriple(*call)) {
      for (int axis = 0; axis < 3; ++axis)
        writeLocal({Place::Kind::Local, nullptr, arith_.constant(offset + 4 * axis, kInt64), root},
                   ast_.UnsignedIntTy, intValue((*triple)[axis], kUInt32));
      return;
    }
  if (type->isRecordType() || type->isArrayType()) {
    auto *call = dyn_cast<clang::CallExpr>(e);
    if (e->isGLValue())
      copyInto(root, offset, type, e);
    else if (std::optional<Place> returned = call ? returnedPlace(*call) : std::nullopt)
      copyPlace(root, offset, sizeOf(type), *returned);
    else if (!call)
      eval(e);
    return;
  }
  writeLocal(at, type, eval(init));
}

void Builder::copyInto(const std::string &root, int64_t offset, clang::QualType type,
                       const clang::Expr *source) {
  // `c ? shared[lane] : identity`: each branch is read under its condition
  // (one place for both would be a pointer into either object, and any
  // memory at all); what the copy holds is not followed.
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(source->IgnoreParens())) {
    z3::expr condition = asBool(eval(conditional->getCond()));
    z3::expr saved = state_.pc;
    for (bool taken : {true, false}) {
      state_.pc = saved && (taken ? condition : !condition);
      const clang::Expr *branch = taken ? conditional->getTrueExpr() : conditional->getFalseExpr();
      if (Place from = place(branch); from.kind == Place::Kind::Memory)
        recordAccess(from, branch, v1::ACCESS_KIND_READ, v1::ATOMIC_OP_UNSPECIFIED,
                     v1::MEMORY_SCOPE_UNSPECIFIED);
    }
    state_.pc = saved;
    loaded_copies_.erase(root);
    eraseOverlapping(state_.env, root, offset, sizeOf(type));
    return;
  }
  Place from = place(source);
  if (from.kind == Place::Kind::Memory)
    recordAccess(from, source, v1::ACCESS_KIND_READ, v1::ATOMIC_OP_UNSPECIFIED,
                 v1::MEMORY_SCOPE_UNSPECIFIED);
  copyPlace(root, offset, sizeOf(type), from);
}

void Builder::copyPlace(const std::string &root, int64_t offset, int64_t size,
                        const Place &from) {
  std::optional<int64_t> start =
      from.kind == Place::Kind::Local ? Arith::numeral(from.offset->simplify(), true)
                                      : std::nullopt;
  std::vector<std::tuple<int64_t, int64_t, Value>> copied;
  if (start && isAggregate(from.local_key)) {
    std::string prefix = from.local_key + "@";
    for (auto it = state_.env.lower_bound(prefix);
         it != state_.env.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
      auto element = elementOf(it->first, from.local_key);
      if (element && element->first >= *start &&
          element->first + element->second <= *start + size)
        copied.emplace_back(element->first - *start + offset, element->second, it->second);
    }
  }
  if (from.kind == Place::Kind::Memory && from.object)
    loaded_copies_.insert_or_assign(root, from.object->name);
  else if (auto loaded = loaded_copies_.find(from.local_key); loaded != loaded_copies_.end())
    loaded_copies_.insert_or_assign(root, std::string(loaded->second));
  else
    loaded_copies_.erase(root);
  // What the destination held there is overwritten, known or not.
  eraseOverlapping(state_.env, root, offset, size);
  for (const auto &[at, bytes, value] : copied)
    writeElement(root, at, bytes, value);
}

void Builder::forgetLocal(const std::string &root) {
  loaded_copies_.erase(root);
  auto it = locals_.find(root);
  if (it == locals_.end() || it->second.second->isReferenceType())
    return; // a reference is never reseated
  if (!isAggregate(root)) {
    std::string name = it->second.first ? it->second.first->getNameAsString() : root;
    state_.env.insert_or_assign(
        root, freshValue(it->second.second, v1::IMPRECISION_KIND_UNKNOWN_ALIASING,
                         "value of '" + name + "' written through a pointer", nullptr));
    return;
  }
  std::string prefix = root + "@";
  auto first = state_.env.lower_bound(prefix);
  auto last = first;
  while (last != state_.env.end() && last->first.compare(0, prefix.size(), prefix) == 0)
    ++last;
  state_.env.erase(first, last);
}

void Builder::forgetExposed() {
  for (const std::string &root : exposed_)
    forgetLocal(root);
}

Place Builder::temporary(const clang::Expr &init) {
  std::string root = "temp" + std::to_string(temporaries_++);
  declareLocal(root, init.getType());
  initLocal(root, 0, init.getType(), &init);
  return Place{Place::Kind::Local, nullptr, zero64(), root};
}

} // namespace gpurace::analyzer::builder
