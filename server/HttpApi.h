//===- HttpApi.h - the HTTP/JSON API and the dashboard files ----*- C++ -*-===//
//
// Routes under /api/v1 translate HTTP to RaceService calls: bodies and
// responses are the proto3 JSON of service.proto, errors are
// {"error": {"code": "INVALID_ARGUMENT", "message": "..."}} with the HTTP
// status of the code. Every other path serves the dashboard from the web
// root, with index.html for paths the dashboard routes itself.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_HTTPAPI_H
#define GPURACE_SERVER_HTTPAPI_H

#include "server/RaceService.h"

#include <httplib.h>

#include <string>

namespace gpurace {

int httpStatus(StatusCode code);
std::string errorJson(const Status &status);

class HttpApi {
public:
  HttpApi(RaceService &service, std::string web_root)
      : service_(service), web_root_(std::move(web_root)) {}

  void install(httplib::Server &server);

private:
  void installQueries(httplib::Server &server);
  void installRaceRoutes(httplib::Server &server);
  void installWrites(httplib::Server &server);
  void installDashboard(httplib::Server &server);

  RaceService &service_;
  std::string web_root_;
};

} // namespace gpurace

#endif
