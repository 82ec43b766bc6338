#include "common/agent_api/api_types.hpp"

namespace tfwsl::agent_api {

const char* to_string(WslKind kind) {
  switch (kind) {
    case WslKind::not_wsl:
      return "not-wsl";
    case WslKind::wsl1:
      return "wsl1";
    case WslKind::wsl2:
      return "wsl2";
  }
  return "not-wsl";
}

bool parse_wsl_kind(const std::string& text, WslKind& out) {
  if (text == "not-wsl")
    out = WslKind::not_wsl;
  else if (text == "wsl1")
    out = WslKind::wsl1;
  else if (text == "wsl2")
    out = WslKind::wsl2;
  else
    return false;
  return true;
}

namespace {

tl::unexpected<Error> shape_error(const char* what) {
  return make_error(ErrorCode::parse, std::string("agent response: ") + what);
}

}  // namespace

nlohmann::json to_json(const InfoResponse& i) {
  return {{"agent", i.agent},   {"commit", i.commit},      {"api", i.api}, {"distro", i.distro},
          {"kernel", i.kernel}, {"wsl", to_string(i.wsl)}, {"uid", i.uid}, {"uptime_s", i.uptime_s},
          {"pid", i.pid},       {"home", i.home}};
}

Result<InfoResponse> parse_info(const nlohmann::json& j) {
  if (!j.is_object()) return shape_error("/v1/info is not an object");
  InfoResponse out;
  try {
    out.agent = j.at("agent").get<std::string>();
    out.commit = j.value("commit", std::string());
    out.api = j.at("api").get<int>();
    out.distro = j.value("distro", std::string());
    out.kernel = j.value("kernel", std::string());
    if (!parse_wsl_kind(j.at("wsl").get<std::string>(), out.wsl)) return shape_error("/v1/info: unknown wsl kind");
    out.uid = j.value("uid", 0u);
    out.uptime_s = j.value("uptime_s", 0.0);
    out.pid = j.value("pid", 0L);
    out.home = j.value("home", std::string());
  } catch (const nlohmann::json::exception&) {
    return shape_error("/v1/info lacks agent/api/wsl or has wrong types");
  }
  return out;
}

nlohmann::json to_json(const GpuResponse& g) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : g.devices)
    devices.push_back({{"index", d.index},
                       {"name", d.name},
                       {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                       {"memory_bytes", d.memory_bytes}});
  return {{"libcuda",
           {{"loaded", g.libcuda_loaded},
            {"path", g.libcuda_path},
            {"error", g.libcuda_error},
            {"driver_version", g.cuda_driver_version ? nlohmann::json(*g.cuda_driver_version) : nlohmann::json()}}},
          {"devices", devices},
          {"nvml",
           {{"source", g.nvml_source},
            {"driver_version", g.nvml_driver_version},
            {"devices", g.nvml_device_names},
            {"error", g.nvml_error}}}};
}

Result<GpuResponse> parse_gpu(const nlohmann::json& j) {
  GpuResponse out;
  try {
    const auto& lib = j.at("libcuda");
    out.libcuda_loaded = lib.at("loaded").get<bool>();
    out.libcuda_path = lib.value("path", std::string());
    out.libcuda_error = lib.value("error", std::string());
    if (lib.contains("driver_version") && lib["driver_version"].is_number_integer())
      out.cuda_driver_version = lib["driver_version"].get<int>();
    for (const auto& d : j.at("devices")) {
      GpuDevice dev;
      dev.index = d.at("index").get<int>();
      dev.name = d.at("name").get<std::string>();
      auto cc = d.value("compute_capability", std::string("0.0"));
      auto dot = cc.find('.');
      if (dot != std::string::npos) {
        dev.cc_major = std::stoi(cc.substr(0, dot));
        dev.cc_minor = std::stoi(cc.substr(dot + 1));
      }
      dev.memory_bytes = d.value("memory_bytes", std::uint64_t{0});
      out.devices.push_back(dev);
    }
    const auto& nvml = j.at("nvml");
    out.nvml_source = nvml.value("source", std::string());
    out.nvml_driver_version = nvml.value("driver_version", std::string());
    out.nvml_error = nvml.value("error", std::string());
    if (nvml.contains("devices")) out.nvml_device_names = nvml["devices"].get<std::vector<std::string>>();
  } catch (const std::exception&) {
    return shape_error("/v1/gpu has missing fields or wrong types");
  }
  return out;
}

nlohmann::json to_json(const PathResolveRequest& r) { return {{"windows_path", r.windows_path}}; }

nlohmann::json to_json(const PathResolveResponse& r) {
  return {{"linux_path", r.linux_path}, {"slow_mount", r.slow_mount}, {"mount_type", r.mount_type}};
}

Result<PathResolveResponse> parse_path_resolve_response(const nlohmann::json& j) {
  PathResolveResponse out;
  try {
    out.linux_path = j.at("linux_path").get<std::string>();
    out.slow_mount = j.value("slow_mount", false);
    out.mount_type = j.value("mount_type", std::string());
  } catch (const nlohmann::json::exception&) {
    return shape_error("/v1/paths/resolve lacks linux_path");
  }
  return out;
}

}  // namespace tfwsl::agent_api
