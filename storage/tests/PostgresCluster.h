//===- PostgresCluster.h - a private PostgreSQL server for tests -*- C++ -*-===//
//
// Tests of the PostgreSQL backend run against a real server: initdb and
// pg_ctl from Debian's postgresql package create one in a temporary
// directory, listening only on a Unix socket there, started once per test
// process and stopped when it exits. As root, the server runs as the
// unprivileged 'postgres' user (PostgreSQL refuses to run as root).
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_STORAGE_TESTS_POSTGRESCLUSTER_H
#define GPURACE_STORAGE_TESTS_POSTGRESCLUSTER_H

#include <string>

namespace gpurace::testing {

class PostgresCluster {
public:
  // The process's cluster, started on first use; nullptr when PostgreSQL
  // is not installed or does not start (unavailableReason() says why).
  // Tests skip fsync for speed; a benchmark asks for PostgreSQL's default
  // durability (`durable`), which the first call decides.
  static PostgresCluster *instance(bool durable = false);
  static const std::string &unavailableReason();

  // A new, empty database; returns its postgresql:// URI.
  std::string createDatabase();

  ~PostgresCluster();

private:
  PostgresCluster() = default;
  bool start(bool durable, std::string &why);

  std::string dir_;
  std::string bin_;
  bool running_ = false;
  int databases_ = 0;
};

} // namespace gpurace::testing

#endif
