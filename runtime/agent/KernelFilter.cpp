#include "runtime/agent/KernelFilter.h"

#include <cxxabi.h>
#include <fnmatch.h>

#include <cstdlib>
#include <memory>

namespace gpurace::rt {

namespace {

// The position of the '(' that opens the parameter list, skipping template
// arguments (which may contain parentheses).
size_t parameterListStart(const std::string &name) {
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<')
      ++depth;
    else if (name[i] == '>')
      --depth;
    else if (name[i] == '(' && depth == 0)
      return i;
  }
  return std::string::npos;
}

std::string withoutTemplateArguments(const std::string &name) {
  std::string out;
  int depth = 0;
  for (char c : name) {
    if (c == '<')
      ++depth;
    else if (c == '>')
      --depth;
    else if (depth == 0)
      out += c;
  }
  return out;
}

// A function template's demangled name starts with its return type:
// "void ns::reduce<float>" is the kernel "ns::reduce<float>".
std::string withoutReturnType(const std::string &name) {
  int depth = 0;
  for (size_t i = name.size(); i-- > 0;) {
    if (name[i] == '>')
      ++depth;
    else if (name[i] == '<')
      --depth;
    else if (depth == 0 && name[i] == ' ')
      return name.substr(i + 1);
  }
  return name;
}

std::string unqualified(const std::string &name) {
  int depth = 0;
  for (size_t i = name.size(); i-- > 1;) {
    if (name[i] == '>')
      ++depth;
    else if (name[i] == '<')
      --depth;
    else if (depth == 0 && name[i] == ':' && name[i - 1] == ':')
      return name.substr(i + 1);
  }
  return name;
}

} // namespace

std::string kernelName(const std::string &symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> demangled(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  std::string name = status == 0 && demangled ? demangled.get() : symbol;
  return withoutReturnType(name.substr(0, parameterListStart(name)));
}

std::vector<std::string> nameForms(const std::string &name) {
  std::vector<std::string> forms = {name, unqualified(name)};
  for (size_t i = 0, n = forms.size(); i < n; ++i)
    forms.push_back(withoutTemplateArguments(forms[i]));
  return forms;
}

KernelFilter::KernelFilter(std::vector<std::string> patterns)
    : patterns_(std::move(patterns)) {}

bool KernelFilter::accepts(const std::string &name) const {
  if (patterns_.empty())
    return true;
  std::vector<std::string> forms = nameForms(name);
  for (const std::string &pattern : patterns_)
    for (const std::string &form : forms)
      if (fnmatch(pattern.c_str(), form.c_str(), 0) == 0)
        return true;
  return false;
}

} // namespace gpurace::rt
