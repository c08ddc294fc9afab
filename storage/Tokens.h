//===- Tokens.h - API tokens, stored as hashes ------------------*- C++ -*-===//
#ifndef GPURACE_STORAGE_TOKENS_H
#define GPURACE_STORAGE_TOKENS_H

#include "storage/RaceStore.h"
#include "storage/Sqlite.h"

namespace gpurace::storage {

CreatedToken createToken(sqlite::Database &db, const std::string &name,
                         const std::string &project, Role role, int64_t now);
std::vector<TokenInfo> listTokens(sqlite::Database &db);
void revokeToken(sqlite::Database &db, int64_t id, int64_t now);
std::optional<TokenInfo> findToken(sqlite::Database &db,
                                   const std::string &secret);
bool hasLiveTokens(sqlite::Database &db);

} // namespace gpurace::storage

#endif
