#include <nlohmann/json.hpp>
#include <sstream>

#include "common/text/utf_convert.hpp"
#include "common/util/ascii.hpp"
#include "common/util/nesting_depth.hpp"
#include "common/util/text_lines.hpp"
#include "linux/checks/file_text.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

// Printed JSON keys: installed, version, build{cuda_version,cudnn_version,cuda_compute_capabilities},
// gpus[], matmul_device, error. TF writes its log on stderr; stdout carries only our JSON line.
const char* tensorflow_probe_script() {
  return R"PY(
import json, sys
out = {"installed": False}
try:
    import tensorflow as tf
except Exception as e:
    out["error"] = "import tensorflow failed: %s: %s" % (type(e).__name__, e)
    print(json.dumps(out)); sys.exit(0)
out["installed"] = True
out["version"] = getattr(tf, "__version__", "")
try:
    info = tf.sysconfig.get_build_info()
    out["build"] = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in info.items()
                    if k in ("cuda_version", "cudnn_version", "cuda_compute_capabilities", "is_cuda_build")}
except Exception as e:
    out["build"] = {"error": str(e)}
try:
    gpus = tf.config.list_physical_devices("GPU")
    out["gpus"] = [g.name for g in gpus]
    if gpus:
        with tf.device("/GPU:0"):
            a = tf.random.uniform((64, 64))
            c = tf.matmul(a, a)
        out["matmul_device"] = c.device
except Exception as e:
    out["error"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(out))
)PY";
}

TfFacts probe_tensorflow(const ProbeEnvironment& env) {
  TfFacts f;
  ProcessRequest request;
  request.argv = {env.python, "-c", tensorflow_probe_script()};
  request.timeout = env.tf_timeout;
  // Full TF logs (level 0) so a failure says which library was missing; no oneDNN chatter.
  request.env = {{"TF_CPP_MIN_LOG_LEVEL", "0"}, {"TF_ENABLE_ONEDNN_OPTS", "0"}, {"PYTHONUNBUFFERED", "1"}};
  auto outcome = env.runner->run(request);
  if (!outcome) {
    f.error = "could not run " + env.python + ": " + outcome.error().message;
    return f;
  }
  // The facts travel as JSON, which must be UTF-8: a log with a stray byte, or cut inside a
  // character by the 64 KiB limit, is repaired here rather than failing the whole answer.
  const std::string log = valid_utf8(outcome->err);
  f.stderr_tail = last_nonblank_lines(log, 12, 400);  // a traceback's end
  constexpr std::size_t k_kept = 64 * 1024;
  f.stderr_text =
      valid_utf8(log.size() > k_kept ? std::string_view(log).substr(log.size() - k_kept) : std::string_view(log));
  if (outcome->timed_out) {
    f.error = "the TensorFlow probe ran past " + std::to_string(env.tf_timeout.count() / 1000) + " s and was stopped";
    return f;
  }
  // The JSON is the last stdout line that parses as an object (a library may print before it).
  nlohmann::json j;
  std::istringstream in(outcome->out);
  std::string line;
  while (std::getline(in, line)) {
    // The venv's Python is the user's (and the agent may run as root): a line nested deeper than any
    // answer is none, never copied (nlohmann::json copies a value level by level).
    if (deepest_nesting(trim(line), NestingSyntax::json).depth > k_nesting_limit) continue;
    auto parsed = nlohmann::json::parse(trim(line), nullptr, false);
    if (!parsed.is_discarded() && parsed.is_object()) j = parsed;
  }
  if (!j.is_object()) {
    f.error = "the TensorFlow probe exited with status " + std::to_string(outcome->exit_code) +
              " without a result (a crash while importing TensorFlow?)";
    return f;
  }
  f.ran = true;
  f.installed = j.value("installed", false);
  f.version = j.value("version", std::string());
  if (j.contains("build") && j["build"].is_object()) f.build = j["build"];
  if (j.contains("gpus") && j["gpus"].is_array())
    for (const auto& g : j["gpus"])
      if (g.is_string()) f.gpus.push_back(g.get<std::string>());
  f.matmul_device = j.value("matmul_device", std::string());
  f.error = j.value("error", std::string());
  return f;
}

}  // namespace tfwsl::linux_checks
