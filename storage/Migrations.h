//===- Migrations.h - numbered schema migrations ----------------*- C++ -*-===//
//
// Migration N brings the schema from version N-1 to N; PRAGMA user_version
// records the version a file is at. Migrations are only ever appended.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_MIGRATIONS_H
#define GPURACE_STORAGE_MIGRATIONS_H

#include "storage/Sqlite.h"

namespace gpurace::storage {

// The version the newest migration produces.
int latestSchemaVersion();

// Applies every migration the file lacks, each in its own transaction, and
// returns the number applied. A file from a newer gpurace is refused.
int migrate(sqlite::Database &db);

} // namespace gpurace::storage

#endif
