//===- Commands.h - the server's subcommands, one per file ------*- C++ -*-===//
#ifndef GPURACE_SERVER_CLI_COMMANDS_H
#define GPURACE_SERVER_CLI_COMMANDS_H

#include "common/Subcommand.h"
#include "server/RaceClient.h"

namespace gpurace {

Subcommand serveCommand();
Subcommand uploadCommand();
Subcommand racesCommand();
Subcommand tokenCommand();
Subcommand dbCommand();

// --server, --token and --tls-ca, with GPURACE_SERVER and GPURACE_TOKEN as
// fallbacks, on a command that talks to a server.
void addClientFlags(CLI::App &app, ClientOptions &options);
// Fills what the flags left empty from the environment.
void applyClientEnvironment(ClientOptions &options);

// Help for a command with actions (`token create`, `db prune`): its usage
// line reads "ACTION", the word its help text uses.
void useActionUsage(CLI::App &app);

// Prints "gpurace <command>: error: <message>" and returns exit code 1.
int reportError(const std::string &command, const Status &status);

} // namespace gpurace

#endif
