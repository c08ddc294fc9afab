//===- Migrations.h - numbered schema migrations ----------------*- C++ -*-===//
//
// Migration N brings the schema from version N-1 to N, on SQLite and on
// PostgreSQL alike (an index that pays on one of them only is created
// there, and the other records the version all the same); the connection records the version a database is at
// (SQLite's user_version, a one-row table in PostgreSQL). Migrations are
// only ever appended.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_MIGRATIONS_H
#define GPURACE_STORAGE_MIGRATIONS_H

#include "storage/SqlConnection.h"

#include <string>

namespace gpurace::storage {

// The version the newest migration produces.
int latestSchemaVersion();

// Migration `version`'s DDL as `dialect` spells it; empty where the
// migration is for the other dialect only.
std::string migrationText(int version, sql::Dialect dialect);

// Applies every migration the database lacks, each in its own transaction, and
// returns the number applied. A file from a newer gpurace is refused.
int migrate(sql::Connection &db);

} // namespace gpurace::storage

#endif
