//===- DatabaseBackup.h - a consistent copy of a live database --*- C++ -*-===//
//
// `gpurace db backup`: SQLite's online backup API copies the file page by
// page while the server keeps writing; PostgreSQL's own tool, pg_dump,
// takes a consistent snapshot of the database in its custom format
// (restored with pg_restore).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_DATABASEBACKUP_H
#define GPURACE_STORAGE_DATABASEBACKUP_H

#include "storage/SqliteConnection.h"

#include <string>

namespace gpurace::storage {

// Throws StatusError when the copy fails.
void backupSqlite(sql::SqliteConnection &db, const std::string &destination);

// Runs pg_dump (from PATH) on `url`.
Status backupPostgres(const std::string &url, const std::string &destination);

} // namespace gpurace::storage

#endif
