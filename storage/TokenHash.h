//===- TokenHash.h - API token secrets and their hashes ---------*- C++ -*-===//
#ifndef GPURACE_STORAGE_TOKENHASH_H
#define GPURACE_STORAGE_TOKENHASH_H

#include <string>

namespace gpurace {

// Lower-case hex SHA-256 of `data`.
std::string sha256Hex(const std::string &data);

// A new secret: "grt_" and 32 random bytes in hex, from the OS's CSPRNG.
std::string generateTokenSecret();

} // namespace gpurace

#endif
