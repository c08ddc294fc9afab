//===- Connect.h - a connection to what a --db setting names ----*- C++ -*-===//
#ifndef GPURACE_STORAGE_CONNECT_H
#define GPURACE_STORAGE_CONNECT_H

#include "storage/SqlConnection.h"

#include <memory>
#include <string>

namespace gpurace::sql {

// A postgresql:// (or postgres://) URI opens PostgreSQL; anything else is a
// SQLite file, created if absent. Throws StatusError when it cannot open.
std::unique_ptr<Connection> connect(const std::string &db);

} // namespace gpurace::sql

#endif
