#include "storage/TokenHash.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace gpurace {

namespace {
std::string toHex(const unsigned char *bytes, size_t n) {
  static const char *digits = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(digits[bytes[i] >> 4]);
    out.push_back(digits[bytes[i] & 15]);
  }
  return out;
}
} // namespace

std::string sha256Hex(const std::string &data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(),
                  nullptr))
    throw std::runtime_error("SHA-256 failed");
  return toHex(digest, length);
}

std::string generateTokenSecret() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1)
    throw std::runtime_error("no random bytes for a token");
  return "grt_" + toHex(bytes, sizeof(bytes));
}

} // namespace gpurace
