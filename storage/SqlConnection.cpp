#include "storage/SqlConnection.h"

namespace gpurace::sql {

std::string Connection::containsText(const std::string &haystack,
                                     const std::string &needle) const {
  // Not LIKE: the needle is the user's text, and '%' or '_' in it must not
  // act as wildcards.
  const char *position = dialect() == Dialect::kPostgres ? "strpos" : "instr";
  return std::string(position) + "(" + haystack + ", " + needle + ") > 0";
}

} // namespace gpurace::sql
