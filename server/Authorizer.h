//===- Authorizer.h - who may call what -------------------------*- C++ -*-===//
//
// Auth is on when the server was started with --require-auth or when the
// database holds any live token: a fresh local server answers everyone, and
// creating the first token locks it down. Roles are ordered read < store <
// admin; a token created for one project acts only on that project.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_AUTHORIZER_H
#define GPURACE_SERVER_AUTHORIZER_H

#include "storage/RaceStore.h"

#include <optional>
#include <string>

namespace gpurace {

struct AuthPolicy {
  bool require_auth = false;
  // Reads need no token even when auth is on.
  bool public_read = false;
};

// The bearer token a request carried, if any.
struct Caller {
  std::optional<std::string> token;
};

struct Principal {
  Role role = Role::kAdmin;
  // Empty: every project.
  std::string project;
  std::string name;
};

class Authorizer {
public:
  Authorizer(RaceStore &store, AuthPolicy policy)
      : store_(store), policy_(policy) {}

  // UNAUTHENTICATED without a valid token where one is needed,
  // PERMISSION_DENIED when its role is below `needed`.
  Result<Principal> authorize(const Caller &caller, Role needed);
  // PERMISSION_DENIED when the principal is bound to another project.
  static Status checkProject(const Principal &principal,
                             const std::string &project);

private:
  RaceStore &store_;
  AuthPolicy policy_;
};

} // namespace gpurace

#endif
