//===- Tokens.h - API tokens, stored as hashes ------------------*- C++ -*-===//
#ifndef GPURACE_STORAGE_TOKENS_H
#define GPURACE_STORAGE_TOKENS_H

#include "storage/RaceStore.h"
#include "storage/SqlConnection.h"

namespace gpurace::storage {

CreatedToken createToken(sql::Connection &db, const std::string &name,
                         const std::string &project, Role role, int64_t now);
std::vector<TokenInfo> listTokens(sql::Connection &db);
void revokeToken(sql::Connection &db, int64_t id, int64_t now);
std::optional<TokenInfo> findToken(sql::Connection &db,
                                   const std::string &secret);
bool hasLiveTokens(sql::Connection &db);

} // namespace gpurace::storage

#endif
