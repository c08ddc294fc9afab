//===- SqlFilter.h - WHERE clauses with bound values ------------*- C++ -*-===//
//
// Filters are assembled from fixed SQL fragments chosen by which request
// fields are set; every value goes in as a bound parameter.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_SQLFILTER_H
#define GPURACE_STORAGE_SQLFILTER_H

#include "storage/SqlConnection.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gpurace::storage {

class SqlFilter {
public:
  using Value = std::variant<int64_t, std::string>;

  // Adds "AND <clause>"; each '?' in it takes the next value.
  void add(const std::string &clause, std::vector<Value> values);
  // Adds "AND <column> IN (?, ?, ...)" for a non-empty list.
  void addIn(const std::string &column, const std::vector<int64_t> &values);

  std::string where() const;
  // Binds the values from parameter `first` on; returns the next index.
  int bind(sql::Statement &statement, int first = 1) const;

private:
  std::string clauses_;
  std::vector<Value> values_;
};

} // namespace gpurace::storage

#endif
