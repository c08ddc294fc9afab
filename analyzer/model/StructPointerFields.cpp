//===- StructPointerFields.cpp - pointer fields of struct arguments --------===//

#include "analyzer/model/StructPointerFields.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>

namespace gpurace::analyzer {

std::string parameterName(const clang::FunctionDecl &kernel, unsigned i) {
  std::string name = kernel.getParamDecl(i)->getNameAsString();
  return name.empty() ? "arg" + std::to_string(i) : name;
}

std::vector<StructPointerField> structPointerFields(const clang::FunctionDecl &kernel) {
  std::vector<StructPointerField> fields;
  int next = static_cast<int>(kernel.getNumParams());
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    clang::QualType type = kernel.getParamDecl(i)->getType().getCanonicalType();
    const clang::RecordDecl *record = type->getAsRecordDecl();
    if (!record || !record->getDefinition() || record->isUnion() || record->isInvalidDecl())
      continue;
    for (const clang::FieldDecl *field : record->getDefinition()->fields())
      if (!field->isBitField() && !field->getName().empty() &&
          field->getType().getCanonicalType()->isPointerType())
        fields.push_back({i, field, parameterName(kernel, i) + "." + field->getNameAsString(),
                          next++});
  }
  return fields;
}

} // namespace gpurace::analyzer
