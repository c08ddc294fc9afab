#include "storage/Connect.h"

#include "storage/PostgresConnection.h"
#include "storage/SqliteConnection.h"

namespace gpurace::sql {

std::unique_ptr<Connection> connect(const std::string &db) {
  if (isPostgresUrl(db))
    return std::make_unique<PostgresConnection>(db);
  return std::make_unique<SqliteConnection>(db);
}

} // namespace gpurace::sql
