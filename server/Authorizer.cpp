#include "server/Authorizer.h"

namespace gpurace {

Result<Principal> Authorizer::authorize(const Caller &caller, Role needed) {
  bool token_given = caller.token && !caller.token->empty();
  if (!token_given) {
    auto live = store_.hasLiveTokens();
    if (!live.ok())
      return live.status();
    bool auth_on = policy_.require_auth || live.value();
    if (!auth_on)
      return Principal{Role::kAdmin, "", "anonymous"};
    if (needed == Role::kRead && policy_.public_read)
      return Principal{Role::kRead, "", "anonymous"};
    return Status{StatusCode::kUnauthenticated,
                  "missing API token: pass --token or set GPURACE_TOKEN "
                  "(HTTP: 'Authorization: Bearer <token>')"};
  }
  auto found = store_.findToken(*caller.token);
  if (!found.ok())
    return found.status();
  if (!found->has_value())
    return Status{StatusCode::kUnauthenticated, "unknown or revoked API token"};
  const TokenInfo &token = **found;
  if (token.role < needed)
    return Status{StatusCode::kPermissionDenied,
                  std::string("token '") + token.name + "' has role " +
                      roleName(token.role) + "; this call needs role " +
                      roleName(needed)};
  return Principal{token.role, token.project, token.name};
}

Status Authorizer::checkProject(const Principal &principal,
                                const std::string &project) {
  if (principal.project.empty() || principal.project == project)
    return {};
  return {StatusCode::kPermissionDenied,
          "token '" + principal.name + "' is for project '" +
              principal.project + "', not '" + project + "'"};
}

} // namespace gpurace
