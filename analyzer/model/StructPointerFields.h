//===- StructPointerFields.h - pointer fields of struct arguments -*- C++ -*-===//
//
// A kernel that takes a struct by value (`Params p`) reads and writes
// buffers through its pointer fields (`p.in`, `p.out`). Each such field is
// one more pointer parameter to the analysis, numbered after the kernel's
// own parameters (in parameter, then field order) and named `p.in`, so that
// the kernel model and the host code's launch facts, which see the kernel
// in two ASTs, number and name it alike; the launch then says which buffer
// each field holds, as for any pointer argument.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_MODEL_STRUCTPOINTERFIELDS_H
#define GPURACE_ANALYZER_MODEL_STRUCTPOINTERFIELDS_H

#include <string>
#include <vector>

namespace clang {
class FieldDecl;
class FunctionDecl;
} // namespace clang

namespace gpurace::analyzer {

struct StructPointerField {
  unsigned parameter = 0;                // the struct parameter's index
  const clang::FieldDecl *field = nullptr; // a direct field of its struct
  std::string name;                      // `p.in`
  int index = 0;                         // its number among pointer parameters
};

// The name the analysis gives parameter `i` of `kernel` (`argI` when it
// has none).
std::string parameterName(const clang::FunctionDecl &kernel, unsigned i);

// The pointer fields of the structs `kernel` takes by value, numbered from
// its parameter count on.
std::vector<StructPointerField> structPointerFields(const clang::FunctionDecl &kernel);

} // namespace gpurace::analyzer

#endif
