#include "common/agent_api/linux_facts.hpp"

namespace tfwsl::agent_api {
namespace {

using nlohmann::json;

json optional_json(const std::optional<long>& v) { return v ? json(*v) : json(); }
json optional_json(const std::optional<std::uint64_t>& v) { return v ? json(*v) : json(); }

json wsl_json(const WslFacts& w) {
  return {{"kind", to_string(w.kind)},
          {"kernel", w.kernel},
          {"dxg", w.dxg},
          {"dxg_error", w.dxg_error},
          {"wsl_lib_dir", w.wsl_lib_dir},
          {"wsl_lib_files", w.wsl_lib_files},
          {"ld_wsl_conf", w.ld_wsl_conf},
          {"ld_wsl_conf_text", w.ld_wsl_conf_text},
          {"automount_root", w.automount_root},
          {"gpu_disabled", w.gpu_disabled},
          {"distro", w.distro}};
}

json stack_json(const StackFacts& s) {
  json toolkits = json::array();
  for (const auto& t : s.toolkits) toolkits.push_back({{"path", t.path}, {"version", t.version}});
  return {{"toolkits", toolkits},
          {"nvcc", s.nvcc},
          {"ptxas", s.ptxas},
          {"docker", s.docker},
          {"nvidia_container_runtime", s.nvidia_container_runtime},
          {"cudnn_found", s.cudnn_found},
          {"cudnn_library", s.cudnn_library},
          {"cudnn_version", optional_json(s.cudnn_version)},
          {"cudnn_error", s.cudnn_error},
          {"python_path", s.python_path},
          {"python_version", s.python_version},
          {"python_error", s.python_error}};
}

json tf_json(const TfFacts& t) {
  return {{"ran", t.ran},
          {"installed", t.installed},
          {"version", t.version},
          {"build", t.build},
          {"gpus", t.gpus},
          {"matmul_device", t.matmul_device},
          {"error", t.error},
          {"stderr_tail", t.stderr_tail},
          {"stderr_text", t.stderr_text}};
}

json system_json(const SystemFacts& s) {
  json paths = json::array();
  for (const auto& d : s.data_paths)
    paths.push_back({{"path", d.path}, {"mount_point", d.mount_point}, {"fs_type", d.fs_type}, {"slow", d.slow}});
  return {{"mem_total_kb", optional_json(s.mem_total_kb)},
          {"disk_free_bytes", optional_json(s.disk_free_bytes)},
          {"disk_error", s.disk_error},
          {"data_paths", paths}};
}

// Reads the known fields of one object; the first problem is kept with the field's path, and every
// later read is a no-op, so a decoder reads straight through and checks `problem` once at the end.
class FactsFieldReader {
 public:
  FactsFieldReader(const json& object, std::string path) : m_object(object), m_path(std::move(path)) {}

  const json* field(const char* key) {
    if (!m_problem.empty()) return nullptr;
    if (!m_object.is_object()) {
      m_problem = m_path.substr(0, m_path.size() - 1) + ": expected an object";  // "stack.toolkits[0]."
      return nullptr;
    }
    auto it = m_object.find(key);
    if (it == m_object.end()) {
      m_problem = m_path + key + ": missing";
      return nullptr;
    }
    return &*it;
  }
  void read(const char* key, std::string& out) {
    if (const json* v = field(key)) v->is_string() ? void(out = v->get<std::string>()) : void(fail(key, "a string"));
  }
  void read(const char* key, bool& out) {
    if (const json* v = field(key)) v->is_boolean() ? void(out = v->get<bool>()) : void(fail(key, "true or false"));
  }
  void read(const char* key, std::vector<std::string>& out) {
    const json* v = field(key);
    if (!v) return;
    if (!v->is_array()) return void(fail(key, "a list of strings"));
    for (const auto& item : *v) {
      if (!item.is_string()) return void(fail(key, "a list of strings"));
      out.push_back(item.get<std::string>());
    }
  }
  void read(const char* key, std::optional<long>& out) {
    const json* v = field(key);
    if (!v || v->is_null()) return;
    if (!v->is_number_integer()) return void(fail(key, "an integer or null"));
    out = v->get<long>();
  }
  void read(const char* key, std::optional<std::uint64_t>& out) {
    const json* v = field(key);
    if (!v || v->is_null()) return;
    if (!v->is_number_unsigned()) return void(fail(key, "a non-negative integer or null"));
    out = v->get<std::uint64_t>();
  }
  // A nested object or list, for a reader of its own; nullptr (and a problem) when it is not one.
  const json* child(const char* key, bool list = false) {
    const json* v = field(key);
    if (v && (list ? !v->is_array() : !v->is_object())) return fail(key, list ? "a list" : "an object");
    return v;
  }
  void adopt(const std::string& problem) {
    if (m_problem.empty()) m_problem = problem;
  }
  const std::string& problem() const { return m_problem; }
  const std::string& path() const { return m_path; }

 private:
  const json* fail(const char* key, const char* expected) {
    if (m_problem.empty()) m_problem = m_path + key + ": expected " + expected;
    return nullptr;
  }
  const json& m_object;
  std::string m_path;
  std::string m_problem;
};

void read_wsl(FactsFieldReader& r, WslFacts& w) {
  std::string kind;
  r.read("kind", kind);
  if (r.problem().empty() && !parse_wsl_kind(kind, w.kind)) r.adopt(r.path() + "kind: unknown WSL kind '" + kind + "'");
  r.read("kernel", w.kernel);
  r.read("dxg", w.dxg);
  r.read("dxg_error", w.dxg_error);
  r.read("wsl_lib_dir", w.wsl_lib_dir);
  r.read("wsl_lib_files", w.wsl_lib_files);
  r.read("ld_wsl_conf", w.ld_wsl_conf);
  r.read("ld_wsl_conf_text", w.ld_wsl_conf_text);
  r.read("automount_root", w.automount_root);
  r.read("gpu_disabled", w.gpu_disabled);
  r.read("distro", w.distro);
}

void read_driver(FactsFieldReader& r, DriverFacts& d) {
  r.read("packages", d.packages);
  r.read("dpkg_error", d.dpkg_error);
  r.read("libcuda_copies", d.libcuda_copies);
}

void read_stack(FactsFieldReader& r, StackFacts& s) {
  if (const json* list = r.child("toolkits", true)) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      FactsFieldReader t((*list)[i], r.path() + "toolkits[" + std::to_string(i) + "].");
      CudaToolkit toolkit;
      t.read("path", toolkit.path);
      t.read("version", toolkit.version);
      r.adopt(t.problem());
      s.toolkits.push_back(toolkit);
    }
  }
  r.read("nvcc", s.nvcc);
  r.read("ptxas", s.ptxas);
  r.read("docker", s.docker);
  r.read("nvidia_container_runtime", s.nvidia_container_runtime);
  r.read("cudnn_found", s.cudnn_found);
  r.read("cudnn_library", s.cudnn_library);
  r.read("cudnn_version", s.cudnn_version);
  r.read("cudnn_error", s.cudnn_error);
  r.read("python_path", s.python_path);
  r.read("python_version", s.python_version);
  r.read("python_error", s.python_error);
}

void read_tf(FactsFieldReader& r, TfFacts& t) {
  r.read("ran", t.ran);
  r.read("installed", t.installed);
  r.read("version", t.version);
  if (const json* build = r.child("build")) t.build = *build;
  r.read("gpus", t.gpus);
  r.read("matmul_device", t.matmul_device);
  r.read("error", t.error);
  r.read("stderr_tail", t.stderr_tail);
  r.read("stderr_text", t.stderr_text);
}

void read_system(FactsFieldReader& r, SystemFacts& s) {
  r.read("mem_total_kb", s.mem_total_kb);
  r.read("disk_free_bytes", s.disk_free_bytes);
  r.read("disk_error", s.disk_error);
  if (const json* list = r.child("data_paths", true)) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      FactsFieldReader p((*list)[i], r.path() + "data_paths[" + std::to_string(i) + "].");
      SystemFacts::DataPath d;
      p.read("path", d.path);
      p.read("mount_point", d.mount_point);
      p.read("fs_type", d.fs_type);
      p.read("slow", d.slow);
      r.adopt(p.problem());
      s.data_paths.push_back(d);
    }
  }
}

// Reads the part `key` of the top-level object with `read_part`.
template <class Part, class ReadPart>
void read_part(FactsFieldReader& top, const char* key, Part& part, ReadPart read_part_fields) {
  const json* object = top.child(key);
  if (!object) return;
  FactsFieldReader r(*object, std::string(key) + ".");
  read_part_fields(r, part);
  top.adopt(r.problem());
}

}  // namespace

json to_json(const LinuxFacts& f) {
  return {{"wsl", wsl_json(f.wsl)},
          {"gpu", to_json(f.gpu)},
          {"driver",
           {{"packages", f.driver.packages},
            {"dpkg_error", f.driver.dpkg_error},
            {"libcuda_copies", f.driver.libcuda_copies}}},
          {"stack", stack_json(f.stack)},
          {"tf", tf_json(f.tf)},
          {"system", system_json(f.system)},
          {"timed_out", f.timed_out}};
}

Result<LinuxFacts> parse_linux_facts(const json& j) {
  LinuxFacts out;
  FactsFieldReader top(j, "");
  if (!j.is_object()) return make_error(ErrorCode::parse, "agent facts: not a JSON object");
  read_part(top, "wsl", out.wsl, read_wsl);
  if (const json* gpu = top.child("gpu")) {
    auto parsed = parse_gpu(*gpu);
    if (parsed)
      out.gpu = *parsed;
    else
      top.adopt("gpu: " + parsed.error().message);
  }
  read_part(top, "driver", out.driver, read_driver);
  read_part(top, "stack", out.stack, read_stack);
  read_part(top, "tf", out.tf, read_tf);
  read_part(top, "system", out.system, read_system);
  top.read("timed_out", out.timed_out);
  if (!top.problem().empty()) return make_error(ErrorCode::parse, "agent facts: " + top.problem());
  return out;
}

}  // namespace tfwsl::agent_api
