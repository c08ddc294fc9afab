// `gpurace token create|list|revoke`, on the database itself: whoever can
// write the SQLite file, or connect to the PostgreSQL database as its
// owner, administers the server.
#include "server/cli/Commands.h"
#include "storage/SqlRaceStore.h"

#include <iostream>
#include <memory>

namespace gpurace {

namespace {

struct TokenFlags {
  std::string db = "gpurace.db";
  std::string name;
  std::string project;
  std::string role;
  int64_t id = 0;
};

Result<std::unique_ptr<SqlRaceStore>> openDb(const std::string &path) {
  return SqlRaceStore::open(path);
}

int create(TokenFlags &flags) {
  auto role = parseRole(flags.role);
  if (!role)
    return reportError("token create",
                       Status::invalid("--role: expected read, store or "
                                       "admin, got '" + flags.role + "'"));
  auto store = openDb(flags.db);
  if (!store.ok())
    return reportError("token create", store.status());
  std::string name = flags.name.empty() ? flags.role : flags.name;
  auto created = (*store)->createToken(name, flags.project, *role);
  if (!created.ok())
    return reportError("token create", created.status());
  std::cerr << "gpurace token create: token " << created->info.id << " ('"
            << name << "', role " << flags.role << ", project "
            << (flags.project.empty() ? "all" : flags.project)
            << "); it is shown once, only its hash is stored\n";
  std::cout << created->secret << "\n";
  return kExitOk;
}

int list(TokenFlags &flags) {
  auto store = openDb(flags.db);
  if (!store.ok())
    return reportError("token list", store.status());
  auto tokens = (*store)->listTokens();
  if (!tokens.ok())
    return reportError("token list", tokens.status());
  for (const TokenInfo &t : tokens.value())
    std::cout << t.id << "\t" << t.name << "\t" << roleName(t.role) << "\t"
              << (t.project.empty() ? "*" : t.project) << "\t"
              << (t.revoked ? "revoked" : "live") << "\n";
  return kExitOk;
}

int revoke(TokenFlags &flags) {
  auto store = openDb(flags.db);
  if (!store.ok())
    return reportError("token revoke", store.status());
  if (Status s = (*store)->revokeToken(flags.id); !s.ok())
    return reportError("token revoke", s);
  std::cout << "gpurace token revoke: token " << flags.id << " revoked\n";
  return kExitOk;
}

} // namespace

Subcommand tokenCommand() {
  Subcommand command;
  command.name = "token";
  command.summary = "Create, list and revoke API tokens";
  command.setup = [](CLI::App &app, const CommandContext &) {
    auto flags = std::make_shared<TokenFlags>();
    app.add_option("--db", flags->db, 
                   "SQLite file or postgresql://USER@HOST/DB URI (default: "
                   "gpurace.db)");
    CLI::App *c = app.add_subcommand("create", "Create a token; prints it once");
    c->add_option("--role", flags->role, "read, store or admin")->required();
    c->add_option("--project", flags->project,
                  "the one project it acts on (default: all)");
    c->add_option("--name", flags->name, "label shown by 'token list'");
    c->fallthrough();
    CLI::App *l = app.add_subcommand("list", "List tokens (never the secrets)");
    l->fallthrough();
    CLI::App *r = app.add_subcommand("revoke", "Revoke a token by id");
    r->add_option("ID", flags->id, "token id from 'token list'")->required();
    r->fallthrough();
    useActionUsage(app);
    app.require_subcommand(1, 1);
    return [flags, c, l]() {
      if (c->parsed())
        return create(*flags);
      if (l->parsed())
        return list(*flags);
      return revoke(*flags);
    };
  };
  return command;
}

} // namespace gpurace
