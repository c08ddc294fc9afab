#include "storage/SqlConnection.h"

#include <algorithm>

namespace gpurace::sql {

namespace {

// Rows per INSERT of insertRows: a bounded number of statement texts, each
// short enough to plan quickly.
constexpr size_t kRowsPerInsert = 64;

} // namespace

void Connection::insertRows(const std::string &table,
                            const std::vector<std::string> &columns,
                            const Rows &rows) {
  std::string names, row = "(";
  for (size_t c = 0; c < columns.size(); ++c) {
    names += (c ? ", " : "") + columns[c];
    row += c ? ", ?" : "?";
  }
  row += ")";
  for (size_t first = 0; first < rows.size(); first += kRowsPerInsert) {
    size_t count = std::min(kRowsPerInsert, rows.size() - first);
    std::string values;
    for (size_t r = 0; r < count; ++r)
      values += (r ? ", " : "") + row;
    Statement s =
        prepare("INSERT INTO " + table + "(" + names + ") VALUES " + values);
    int p = 0;
    for (size_t r = first; r < first + count; ++r)
      for (size_t c = 0; c < columns.size(); ++c) {
        const Rows::Value &v = rows.at(r, c);
        switch (v.kind) {
        case Rows::Value::Kind::kInteger:
          s.bind(++p, v.integer);
          break;
        case Rows::Value::Kind::kText:
          s.bind(++p, v.bytes);
          break;
        case Rows::Value::Kind::kBlob:
          s.bindBlob(++p, v.bytes);
          break;
        }
      }
    s.runDeferred();
  }
}

std::string Connection::containsText(const std::string &haystack,
                                     const std::string &needle) const {
  // Not LIKE: the needle is the user's text, and '%' or '_' in it must not
  // act as wildcards.
  const char *position = dialect() == Dialect::kPostgres ? "strpos" : "instr";
  return std::string(position) + "(" + haystack + ", " + needle + ") > 0";
}

} // namespace gpurace::sql
