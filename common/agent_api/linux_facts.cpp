#include "common/agent_api/linux_facts.hpp"

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/agent_api/field_table.hpp"

namespace tfwsl::agent_api {
namespace {

using nlohmann::json;

// ---- the fields of each part, once: the writer and the reader both walk these tables --------
// fields(part, visit) calls visit(key, member) for every member on the wire, in the wire's terms.

template <class T, class Visit>
requires std::same_as<std::remove_const_t<T>, WslFacts>
void fields(T& w, Visit&& visit) {
  visit("kind", w.kind);
  visit("kernel", w.kernel);
  visit("dxg", w.dxg);
  visit("dxg_error", w.dxg_error);
  visit("wsl_lib_dir", w.wsl_lib_dir);
  visit("wsl_lib_files", w.wsl_lib_files);
  visit("ld_wsl_conf", w.ld_wsl_conf);
  visit("ld_wsl_conf_text", w.ld_wsl_conf_text);
  visit("automount_root", w.automount_root);
  visit("gpu_disabled", w.gpu_disabled);
  visit("distro", w.distro);
}

template <class T, class Visit>
requires std::same_as<std::remove_const_t<T>, DriverFacts>
void fields(T& d, Visit&& visit) {
  visit("packages", d.packages);
  visit("dpkg_error", d.dpkg_error);
  visit("libcuda_copies", d.libcuda_copies);
}

template <class T, class Visit>
requires std::same_as<std::remove_const_t<T>, CudaToolkit>
void fields(T& t, Visit&& visit) {
  visit("path", t.path);
  visit("version", t.version);
}

template <class T, class Visit>
requires std::same_as<std::remove_const_t<T>, StackFacts>
void fields(T& s, Visit&& visit) {
  visit("toolkits", s.toolkits);
  visit("nvcc", s.nvcc);
  visit("ptxas", s.ptxas);
  visit("docker", s.docker);
  visit("nvidia_container_runtime", s.nvidia_container_runtime);
  visit("apt_version", s.apt_version);
  visit("cuda_repository_sources", s.cuda_repository_sources);
  visit("cuda_repository_lists", s.cuda_repository_lists);
  visit("cudnn_found", s.cudnn_found);
  visit("cudnn_library", s.cudnn_library);
  visit("cudnn_version", s.cudnn_version);
  visit("cudnn_error", s.cudnn_error);
  visit("python_path", s.python_path);
  visit("python_version", s.python_version);
  visit("python_error", s.python_error);
}

template <class T, class Visit>
requires std::same_as<std::remove_const_t<T>, TfFacts>
void fields(T& t, Visit&& visit) {
  visit("ran", t.ran);
  visit("installed", t.installed);
  visit("version", t.version);
  visit("build", t.build);
  visit("gpus", t.gpus);
  visit("matmul_device", t.matmul_device);
  visit("error", t.error);
  visit("stderr_tail", t.stderr_tail);
  visit("stderr_text", t.stderr_text);
}

template <class T, class Visit>
requires std::same_as<std::remove_const_t<T>, SystemFacts::DataPath>
void fields(T& d, Visit&& visit) {
  visit("path", d.path);
  visit("mount_point", d.mount_point);
  visit("fs_type", d.fs_type);
  visit("slow", d.slow);
}

template <class T, class Visit>
requires std::same_as<std::remove_const_t<T>, SystemFacts>
void fields(T& s, Visit&& visit) {
  visit("mem_total_kb", s.mem_total_kb);
  visit("disk_free_bytes", s.disk_free_bytes);
  visit("disk_error", s.disk_error);
  visit("data_paths", s.data_paths);
}

// The parts' table for field_table::written: this file's `fields` overloads.
constexpr auto k_table = [](const auto& part, auto&& visit) { fields(part, visit); };

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
  void read(const char* key, WslKind& out) {
    std::string kind;
    read(key, kind);
    if (m_problem.empty() && !parse_wsl_kind(kind, out)) m_problem = m_path + key + ": unknown WSL kind '" + kind + "'";
  }
  void read(const char* key, json& out) {
    if (const json* v = child(key)) out = *v;
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

template <class Part>
void read_fields(FactsFieldReader& r, Part& part);

// A list of parts (CUDA toolkits, data paths), each read by its own table.
template <class T>
void read_member(FactsFieldReader& r, const char* key, std::vector<T>& list) {
  if constexpr (std::is_same_v<T, std::string>) {
    r.read(key, list);
  } else if (const json* items = r.child(key, true)) {
    for (std::size_t i = 0; i < items->size(); ++i) {
      FactsFieldReader item((*items)[i], r.path() + key + "[" + std::to_string(i) + "].");
      T part;
      read_fields(item, part);
      r.adopt(item.problem());
      list.push_back(std::move(part));
    }
  }
}
template <class T>
void read_member(FactsFieldReader& r, const char* key, T& member) {
  r.read(key, member);
}

template <class Part>
void read_fields(FactsFieldReader& r, Part& part) {
  fields(part, [&r](const char* key, auto& member) { read_member(r, key, member); });
}

// Reads the part `key` of the top-level object with `read_part`.
template <class Part>
void read_part(FactsFieldReader& top, const char* key, Part& part) {
  const json* object = top.child(key);
  if (!object) return;
  FactsFieldReader r(*object, std::string(key) + ".");
  read_fields(r, part);
  top.adopt(r.problem());
}

}  // namespace

json to_json(const LinuxFacts& f) {
  using field_table::written;
  return {{"wsl", written(f.wsl, k_table)},
          {"gpu", to_json(f.gpu)},
          {"driver", written(f.driver, k_table)},
          {"stack", written(f.stack, k_table)},
          {"tf", written(f.tf, k_table)},
          {"system", written(f.system, k_table)},
          {"timed_out", f.timed_out}};
}

Result<LinuxFacts> parse_linux_facts(const json& j) {
  LinuxFacts out;
  FactsFieldReader top(j, "");
  if (!j.is_object()) return make_error(ErrorCode::parse, "agent facts: not a JSON object");
  read_part(top, "wsl", out.wsl);
  if (const json* gpu = top.child("gpu")) {
    auto parsed = parse_gpu(*gpu);
    if (parsed)
      out.gpu = *parsed;
    else
      top.adopt("gpu: " + parsed.error().message);
  }
  read_part(top, "driver", out.driver);
  read_part(top, "stack", out.stack);
  read_part(top, "tf", out.tf);
  read_part(top, "system", out.system);
  top.read("timed_out", out.timed_out);
  if (!top.problem().empty()) return make_error(ErrorCode::parse, "agent facts: " + top.problem());
  return out;
}

}  // namespace tfwsl::agent_api
