#include "common/ProjectPaths.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/reflection.h>

#include <filesystem>
#include <set>
#include <sstream>

namespace gpurace {

namespace fs = std::filesystem;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

namespace {

// String fields that hold one source path, and lists of them.
const std::set<std::string> &pathFields() {
  static const std::set<std::string> names = {
      "file", "files_analyzed", "partial_files", "included_inputs"};
  return names;
}

// String fields whose text is a unified diff.
bool isDiffField(const FieldDescriptor &field) {
  return field.name() == "diff" ||
         (field.containing_type()->options().map_entry() &&
          field.name() == "value" &&
          field.containing_type()->name() == "DiffsEntry");
}

std::string relativizeDiff(const std::string &diff, const std::string &root) {
  std::istringstream in(diff);
  std::string line, out;
  while (std::getline(in, line)) {
    if (line.rfind("--- ", 0) == 0 || line.rfind("+++ ", 0) == 0)
      line = line.substr(0, 4) + pathUnderRoot(line.substr(4), root);
    out += line + "\n";
  }
  if (!diff.empty() && diff.back() != '\n' && !out.empty())
    out.pop_back();
  return out;
}

std::string rewritten(const FieldDescriptor &field, const std::string &value,
                      const std::string &root) {
  bool map_key = field.containing_type()->options().map_entry() &&
                 field.name() == "key" &&
                 field.containing_type()->name() == "DiffsEntry";
  if (map_key || pathFields().count(field.name()))
    return pathUnderRoot(value, root);
  if (isDiffField(field))
    return relativizeDiff(value, root);
  return value;
}

void rewriteStrings(Message &message, const FieldDescriptor &field,
                    const std::string &root) {
  const Reflection &r = *message.GetReflection();
  if (field.is_repeated()) {
    for (int i = 0; i < r.FieldSize(message, &field); ++i)
      r.SetRepeatedString(
          &message, &field, i,
          rewritten(field, r.GetRepeatedString(message, &field, i), root));
  } else if (r.HasField(message, &field)) {
    r.SetString(&message, &field,
                rewritten(field, r.GetString(message, &field), root));
  }
}

} // namespace

std::string findProjectRoot(const std::string &root_flag,
                            const std::string &start, std::string &error) {
  std::error_code ec;
  if (!root_flag.empty()) {
    if (!fs::is_directory(root_flag, ec)) {
      error = "--root: '" + root_flag + "' is not a directory";
      return "";
    }
    return fs::canonical(root_flag, ec).string();
  }
  for (fs::path dir = fs::weakly_canonical(start, ec); !dir.empty();
       dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", ec))
      return dir.string();
    if (dir == dir.root_path())
      break;
  }
  return "";
}

std::string pathUnderRoot(const std::string &path, const std::string &root) {
  if (root.empty() || path.empty())
    return path;
  std::error_code ec;
  fs::path full = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec)
    return path;
  fs::path relative = full.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..")
    return path;
  return relative.string();
}

void relativizeSourcePaths(Message &message, const std::string &root) {
  if (root.empty())
    return;
  const Reflection &r = *message.GetReflection();
  const auto *descriptor = message.GetDescriptor();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor &field = *descriptor->field(i);
    if (field.cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      rewriteStrings(message, field, root);
    } else if (field.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (field.is_repeated()) {
        for (int j = 0; j < r.FieldSize(message, &field); ++j)
          relativizeSourcePaths(*r.MutableRepeatedMessage(&message, &field, j),
                                root);
      } else if (r.HasField(message, &field)) {
        relativizeSourcePaths(*r.MutableMessage(&message, &field), root);
      }
    }
  }
}

} // namespace gpurace
