// Constructors of the thread's own objects: a local or a temporary of a
// class whose constructor has a body the walk enters is built as the
// program builds it, its member initializers writing its fields and its
// body running with `this` at the object. A CUB-style helper built inline
// (`BlockStore(temp_storage).Store(out, items)`) then keeps the thread's
// rank that its constructor stored, instead of an unknown field.
#include "analyzer/model/ModelBuilder.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>

namespace gpurace::analyzer::builder {

using clang::dyn_cast;

bool Builder::construct(const std::string &root, int64_t offset,
                        const clang::CXXConstructExpr &construct) {
  const clang::CXXConstructorDecl *constructor = construct.getConstructor();
  const clang::FunctionDecl *definition = nullptr;
  if (!constructor || !construct.getType()->isRecordType() ||
      !constructor->hasBody(definition) || !walksCallee(*definition) ||
      activeCalls(*definition) > 0 || frames_.size() >= options_.max_inline_depth)
    return false;
  auto *body = dyn_cast<clang::CXXConstructorDecl>(definition);
  const clang::CXXRecordDecl *record = body ? body->getParent() : nullptr;
  if (!record || record->isUnion() || record->isInvalidDecl() || !record->hasDefinition())
    return false;
  std::vector<const clang::Expr *> args(construct.arg_begin(), construct.arg_end());
  std::vector<Value> values = argumentValues(*body, args);
  for (unsigned i = 0; i < body->getNumParams() && i < values.size(); ++i)
    bindArgument(*body->getParamDecl(i), values[i], false, construct);
  Place self{Place::Kind::Local, nullptr, arith_.constant(offset, kInt64), root};
  Frame frame{body, {}, {}, pointerFrom(self, &construct), nullptr};
  frame.call.set_callee(body->getQualifiedNameAsString());
  *frame.call.mutable_call_site() = locationOf(construct);
  z3::expr entry_pc = state_.pc;
  frames_.push_back(std::move(frame));
  initializeMembers(root, offset, *body);
  walk(body->getBody());
  frames_.pop_back();
  // A return in the body ends its path; the caller continues on all.
  state_.pc = entry_pc;
  return true;
}

void Builder::initializeMembers(const std::string &root, int64_t offset,
                                const clang::CXXConstructorDecl &constructor) {
  const clang::CXXRecordDecl *record = constructor.getParent()->getDefinition();
  const clang::ASTRecordLayout &layout = ast_.getASTRecordLayout(record);
  for (const clang::CXXCtorInitializer *init : constructor.inits()) {
    const clang::Expr *value = init->getInit();
    if (!value)
      continue;
    const clang::FieldDecl *field = init->getMember();
    if (field && !field->isBitField() && field->getParent() == record) {
      int64_t bits = static_cast<int64_t>(layout.getFieldOffset(field->getFieldIndex()));
      initLocal(root, offset + bits / 8, field->getType(), value);
    } else if (const clang::Type *base = init->getBaseClass();
               base && !init->isBaseVirtual() && base->getAsCXXRecordDecl()) {
      int64_t at = layout.getBaseClassOffset(base->getAsCXXRecordDecl()).getQuantity();
      initLocal(root, offset + at, clang::QualType(base, 0), value);
    } else {
      // A bit-field, an indirect member of an anonymous union, a
      // delegating constructor: its value is evaluated, not placed.
      eval(value);
    }
  }
}

} // namespace gpurace::analyzer::builder
