#include "server/HttpApi.h"

#include "proto/JsonCodec.h"
#include "server/HttpQuery.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace gpurace {

int httpStatus(StatusCode code) {
  switch (code) {
  case StatusCode::kOk:
    return 200;
  case StatusCode::kInvalidArgument:
  case StatusCode::kFailedPrecondition:
    return 400;
  case StatusCode::kUnauthenticated:
    return 401;
  case StatusCode::kPermissionDenied:
    return 403;
  case StatusCode::kNotFound:
    return 404;
  case StatusCode::kResourceExhausted:
    return 413;
  case StatusCode::kUnavailable:
    return 503;
  case StatusCode::kInternal:
    return 500;
  }
  return 500;
}

std::string errorJson(const Status &status) {
  nlohmann::json body = {{"error",
                          {{"code", statusCodeName(status.code)},
                           {"message", status.message}}}};
  // Messages quote what the client sent, which need not be UTF-8 (a path
  // with %FF in it): replaced, not thrown, since an exception out of the
  // error handler would end the server.
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

const char *const kJson = "application/json";

Caller callerOf(const httplib::Request &request) {
  Caller caller;
  std::string header = request.get_header_value("Authorization");
  const std::string bearer = "Bearer ";
  if (header.compare(0, bearer.size(), bearer) == 0)
    caller.token = header.substr(bearer.size());
  else if (!header.empty())
    caller.token = header;
  return caller;
}

void sendError(httplib::Response &response, const Status &status) {
  response.status = httpStatus(status.code);
  response.set_content(errorJson(status), kJson);
}

template <typename T>
void send(httplib::Response &response, const Result<T> &result) {
  if (!result.ok())
    return sendError(response, result.status());
  JsonWriteOptions options;
  options.pretty = false;
  // The dashboard reads zero counts and empty lists without special cases.
  options.always_print_primitive_fields = true;
  response.set_content(toJson(result.value(), options), kJson);
}

// Parses the body as the proto3 JSON of `message`.
Status parseBody(const httplib::Request &request,
                 google::protobuf::Message &message) {
  std::string error;
  if (request.body.empty())
    return Status::invalid("body: expected a JSON " +
                           message.GetDescriptor()->name() + " object");
  if (!fromJson(request.body, message, error))
    return Status::invalid("body: " + error);
  return {};
}

int64_t pathId(const httplib::Request &request) {
  // The route's pattern admits only digits; 18 of them fit in int64.
  const std::string text = request.matches[1].str();
  return text.size() > 18 ? -1 : std::stoll(text);
}

} // namespace

void HttpApi::install(httplib::Server &server) {
  server.Get("/healthz", [](const httplib::Request &, httplib::Response &res) {
    res.set_content(R"({"status":"ok"})", kJson);
  });
  installQueries(server);
  installRaceRoutes(server);
  installWrites(server);
  installDashboard(server);
  // Errors httplib raises itself (413 for an oversized body, 404 for an
  // unknown API path) get the API's error shape.
  server.set_error_handler([](const httplib::Request &req,
                              httplib::Response &res) {
    if (!res.body.empty())
      return;
    StatusCode code = res.status == 413   ? StatusCode::kResourceExhausted
                      : res.status == 404 ? StatusCode::kNotFound
                      : res.status < 500  ? StatusCode::kInvalidArgument
                                          : StatusCode::kInternal;
    std::string message =
        res.status == 413
            ? "body: request larger than the server's limit"
            : "no such API path: " + req.method + " " + req.path;
    res.set_content(errorJson({code, message}), kJson);
  });
}

void HttpApi::installQueries(httplib::Server &server) {
  server.Get("/api/v1/projects", [this](const httplib::Request &req,
                                        httplib::Response &res) {
    send(res, service_.listProjects(callerOf(req)));
  });
  server.Get("/api/v1/summary", [this](const httplib::Request &req,
                                       httplib::Response &res) {
    auto request = summaryRequest(req.params);
    if (!request.ok())
      return sendError(res, request.status());
    send(res, service_.getSummary(callerOf(req), request.value()));
  });
  server.Get("/api/v1/races", [this](const httplib::Request &req,
                                     httplib::Response &res) {
    auto request = listRacesRequest(req.params);
    if (!request.ok())
      return sendError(res, request.status());
    send(res, service_.listRaces(callerOf(req), request.value()));
  });
  server.Get("/api/v1/runs", [this](const httplib::Request &req,
                                    httplib::Response &res) {
    auto request = listRunsRequest(req.params);
    if (!request.ok())
      return sendError(res, request.status());
    send(res, service_.listRuns(callerOf(req), request.value()));
  });
  server.Get(R"(/api/v1/runs/([^/]+))", [this](const httplib::Request &req,
                                                httplib::Response &res) {
    auto request = getRunRequest(req.matches[1].str(), req.params);
    if (!request.ok())
      return sendError(res, request.status());
    send(res, service_.getRun(callerOf(req), request.value()));
  });
  server.Get("/api/v1/trend", [this](const httplib::Request &req,
                                     httplib::Response &res) {
    auto request = trendRequest(req.params);
    if (!request.ok())
      return sendError(res, request.status());
    send(res, service_.getTrend(callerOf(req), request.value()));
  });
}

void HttpApi::installRaceRoutes(httplib::Server &server) {
  server.Get(R"(/api/v1/races/(\d+))", [this](const httplib::Request &req,
                                               httplib::Response &res) {
    v1::GetRaceRequest request;
    request.set_id(pathId(req));
    send(res, service_.getRace(callerOf(req), request));
  });
  server.Get(R"(/api/v1/races/(\d+)/history)",
             [this](const httplib::Request &req, httplib::Response &res) {
               v1::GetRaceHistoryRequest request;
               request.set_id(pathId(req));
               send(res, service_.getRaceHistory(callerOf(req), request));
             });
  server.Put(R"(/api/v1/races/(\d+)/review)",
             [this](const httplib::Request &req, httplib::Response &res) {
               v1::SetReviewRequest request;
               if (Status s = parseBody(req, request); !s.ok())
                 return sendError(res, s);
               request.set_race_id(pathId(req));
               send(res, service_.setReview(callerOf(req), request));
             });
}

void HttpApi::installWrites(httplib::Server &server) {
  server.Post("/api/v1/analysis", [this](const httplib::Request &req,
                                         httplib::Response &res) {
    v1::UploadAnalysisRequest request;
    if (Status s = parseBody(req, request); !s.ok())
      return sendError(res, s);
    send(res, service_.uploadAnalysis(callerOf(req), request));
  });
  server.Post("/api/v1/admin/prune", [this](const httplib::Request &req,
                                            httplib::Response &res) {
    std::string keep = req.get_param_value("keep_runs");
    if (keep.empty() || keep.size() > 9 ||
        keep.find_first_not_of("0123456789") != std::string::npos)
      return sendError(res, Status::invalid("keep_runs: expected a positive "
                                            "integer"));
    auto pruned = service_.prune(callerOf(req), std::stoul(keep));
    if (!pruned.ok())
      return sendError(res, pruned.status());
    nlohmann::json body = {{"runsDeleted", pruned->runs_deleted},
                           {"racesDeleted", pruned->races_deleted}};
    res.set_content(body.dump(), kJson);
  });
}

void HttpApi::installDashboard(httplib::Server &server) {
  server.set_mount_point("/", web_root_);
  // Files that exist were served by the mount point; anything else outside
  // the API is a route of the dashboard itself.
  server.Get(".*", [this](const httplib::Request &req, httplib::Response &res) {
    if (req.path.rfind("/api/", 0) == 0)
      return sendError(res, Status::notFound("no such API path: GET " +
                                             req.path));
    std::ifstream index(web_root_ + "/index.html", std::ios::binary);
    if (!index)
      return sendError(res, Status::notFound("the dashboard is not installed: "
                                             "no index.html in the web root"));
    std::stringstream html;
    html << index.rdbuf();
    res.set_content(html.str(), "text/html; charset=utf-8");
  });
}

} // namespace gpurace
