#include "linux/provision/container_probe.hpp"

#include <nlohmann/json.hpp>

#include "common/util/text_lines.hpp"

namespace tfwsl::provision {
namespace {

constexpr std::string_view k_marker = "tfwsl-container-probe: ";

}  // namespace

const std::string& container_probe_script() {
  static const std::string k_script = R"(import json
r = {"tensorflow": "", "gpus": [], "op_on_gpu": False, "error": ""}
try:
    import tensorflow as tf
    r["tensorflow"] = tf.__version__
    r["gpus"] = [d.name for d in tf.config.list_physical_devices("GPU")]
    tf.config.set_soft_device_placement(False)
    with tf.device("/GPU:0"):
        x = tf.reduce_sum(tf.random.normal([256, 256]))
    r["op_on_gpu"] = x.device.endswith("GPU:0")
except Exception as e:
    r["error"] = (type(e).__name__ + ": " + str(e)).splitlines()[0][:500] if str(e) else type(e).__name__
print("tfwsl-container-probe: " + json.dumps(r), flush=True)
)";
  return k_script;
}

Result<ContainerProbe> parse_container_probe(std::string_view out) {
  std::string_view found;
  for (const auto& line : lines_of(out))
    if (line.rfind(k_marker, 0) == 0) found = line.substr(k_marker.size());
  if (found.empty()) return make_error(ErrorCode::parse, "the container printed no probe line (the probe did not run)");
  const auto j = nlohmann::json::parse(found, nullptr, false);
  if (!j.is_object()) return make_error(ErrorCode::parse, "the container's probe line is not a JSON object");
  // The image's output is not ours: a key of the wrong type reads as absent, never as a throw.
  auto text = [&j](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  ContainerProbe probe;
  probe.tensorflow = text("tensorflow");
  probe.error = text("error");
  const auto op = j.find("op_on_gpu");
  probe.op_on_gpu = op != j.end() && op->is_boolean() && op->get<bool>();
  if (j.contains("gpus") && j["gpus"].is_array())
    for (const auto& g : j["gpus"])
      if (g.is_string()) probe.gpus.push_back(g.get<std::string>());
  return probe;
}

}  // namespace tfwsl::provision
