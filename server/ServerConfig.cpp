#include "server/ServerConfig.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

namespace gpurace {

namespace {

using Setter = std::function<void(const nlohmann::json &, ServerConfig &)>;

template <typename T> Setter field(T ServerConfig::*member) {
  return [member](const nlohmann::json &value, ServerConfig &config) {
    config.*member = value.get<T>();
  };
}

const std::map<std::string, Setter> &setters() {
  static const std::map<std::string, Setter> all = {
      {"db", field(&ServerConfig::db)},
      {"listen", field(&ServerConfig::grpc_listen)},
      {"http", field(&ServerConfig::http_listen)},
      {"web_root", field(&ServerConfig::web_root)},
      {"require_auth", field(&ServerConfig::require_auth)},
      {"public_read", field(&ServerConfig::public_read)},
      {"insecure_no_auth", field(&ServerConfig::insecure_no_auth)},
      {"max_request_bytes", field(&ServerConfig::max_request_bytes)},
      {"max_page_size", field(&ServerConfig::max_page_size)},
      {"keep_runs", field(&ServerConfig::keep_runs)},
      {"ack_every", field(&ServerConfig::ack_every)},
      {"tls_cert", field(&ServerConfig::tls_cert)},
      {"tls_key", field(&ServerConfig::tls_key)},
  };
  return all;
}

} // namespace

Status loadServerConfig(const std::string &path, ServerConfig &config) {
  std::ifstream in(path);
  if (!in)
    return Status::invalid(path + ": cannot read the config file");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error &e) {
    return Status::invalid(path + ": not valid JSON: " + e.what());
  }
  if (!json.is_object())
    return Status::invalid(path + ": expected a JSON object");
  for (const auto &[key, value] : json.items()) {
    auto setter = setters().find(key);
    if (setter == setters().end())
      return Status::invalid(path + ": unknown key '" + key + "'");
    try {
      setter->second(value, config);
    } catch (const nlohmann::json::exception &e) {
      return Status::invalid(path + ": key '" + key + "': wrong type (" +
                             value.type_name() + ")");
    }
  }
  return {};
}

std::string resolveWebRoot(const std::string &configured) {
  if (!configured.empty())
    return configured;
  const std::string source_web = GPURACE_SOURCE_WEB_DIR;
  if (std::filesystem::exists(source_web + "/dist/index.html"))
    return source_web + "/dist";
  return source_web;
}

} // namespace gpurace
