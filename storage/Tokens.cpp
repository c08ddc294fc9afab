#include "storage/Tokens.h"

#include "storage/RaceRows.h"
#include "storage/TokenHash.h"

namespace gpurace::storage {

using sql::Statement;
using sql::StatusError;

namespace {

const char *const kTokenColumns =
    "id, name, project, role, created_at, revoked_at IS NOT NULL";

TokenInfo readToken(const Statement &s) {
  TokenInfo t;
  t.id = s.integer(0);
  t.name = s.text(1);
  t.project = s.text(2);
  t.role = static_cast<Role>(s.integer(3));
  t.created_at_us = s.integer(4);
  t.revoked = s.integer(5) != 0;
  return t;
}

} // namespace

CreatedToken createToken(sql::Connection &db, const std::string &name,
                         const std::string &project, Role role, int64_t now) {
  if (name.size() > 256 || project.size() > 256)
    throw StatusError(Status::invalid("name: longer than 256 characters"));
  CreatedToken created;
  created.secret = generateTokenSecret();
  Statement insert =
      db.prepare("INSERT INTO api_tokens(name, project, role, token_hash, "
                 "created_at) VALUES (?, ?, ?, ?, ?) RETURNING id");
  insert.bind(1, name)
      .bind(2, project)
      .bind(3, static_cast<int64_t>(role))
      .bind(4, sha256Hex(created.secret))
      .bind(5, now);
  created.info = {insertedId(insert), name, project, role, now, false};
  return created;
}

std::vector<TokenInfo> listTokens(sql::Connection &db) {
  std::vector<TokenInfo> tokens;
  Statement s = db.prepare(std::string("SELECT ") + kTokenColumns +
                           " FROM api_tokens ORDER BY id");
  while (s.step())
    tokens.push_back(readToken(s));
  return tokens;
}

void revokeToken(sql::Connection &db, int64_t id, int64_t now) {
  db.prepare("UPDATE api_tokens SET revoked_at = ? "
             "WHERE id = ? AND revoked_at IS NULL")
      .bind(1, now)
      .bind(2, id)
      .run();
  if (db.changes() == 0)
    throw StatusError(Status::notFound("token " + std::to_string(id) +
                                       " not found or already revoked"));
}

std::optional<TokenInfo> findToken(sql::Connection &db,
                                   const std::string &secret) {
  Statement s = db.prepare(std::string("SELECT ") + kTokenColumns +
                           " FROM api_tokens WHERE token_hash = ? AND "
                           "revoked_at IS NULL");
  s.bind(1, sha256Hex(secret));
  if (!s.step())
    return std::nullopt;
  return readToken(s);
}

bool hasLiveTokens(sql::Connection &db) {
  Statement s = db.prepare(
      "SELECT EXISTS (SELECT 1 FROM api_tokens WHERE revoked_at IS NULL)");
  s.step();
  return s.integer(0) != 0;
}

} // namespace gpurace::storage
