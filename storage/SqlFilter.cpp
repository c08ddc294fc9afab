#include "storage/SqlFilter.h"

namespace gpurace::storage {

void SqlFilter::add(const std::string &clause, std::vector<Value> values) {
  clauses_ += " AND " + clause;
  for (auto &v : values)
    values_.push_back(std::move(v));
}

void SqlFilter::addIn(const std::string &column,
                      const std::vector<int64_t> &values) {
  if (values.empty())
    return;
  std::string marks;
  for (size_t i = 0; i < values.size(); ++i)
    marks += i ? ", ?" : "?";
  clauses_ += " AND " + column + " IN (" + marks + ")";
  values_.insert(values_.end(), values.begin(), values.end());
}

std::string SqlFilter::where() const { return " WHERE 1 = 1" + clauses_; }

int SqlFilter::bind(sql::Statement &statement, int first) const {
  for (const Value &v : values_) {
    if (const auto *i = std::get_if<int64_t>(&v))
      statement.bind(first++, *i);
    else
      statement.bind(first++, std::get<std::string>(v));
  }
  return first;
}

} // namespace gpurace::storage
