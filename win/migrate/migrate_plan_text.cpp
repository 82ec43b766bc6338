// The plan for people: the decision and why, the target, the requirement diff, the datasets. Every
// text from the project (file names, requirement lines, paths in the code), from nvidia-smi or from a
// profile is shown through visible_text (v below): the plan is read before migrate's question, and an
// escape sequence or a line break in a file name must not rewrite or forge what it says.
#include <fmt/format.h>

#include "common/util/byte_size_text.hpp"
#include "common/util/plural.hpp"
#include "common/util/visible_text.hpp"
#include "win/migrate/migrate_plan.hpp"

namespace tfwsl::migrate {
namespace {

std::string v(std::string_view text) { return visible_text(text); }

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 30)) return format_gib(bytes);
  if (bytes >= (1ull << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
  return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024.0);
}

std::string duration_text(std::uint64_t seconds) {
  if (seconds < 120) return fmt::format("{} s", seconds);
  if (seconds < 7200) return fmt::format("{} min", (seconds + 59) / 60);
  return fmt::format("{:.1f} h", static_cast<double>(seconds) / 3600.0);
}

void render_requirements(const MigratePlan& plan, std::string& out) {
  const Translation& t = plan.translation;
  out += "\nRequirements:\n";
  for (std::size_t i = 0; i < t.files.size(); ++i) {
    const auto& f = t.files[i];
    const char* action = i < plan.writes.size() ? to_string(plan.writes[i].action) : "create";
    out += fmt::format("  {} -> {}{} [{}]\n", v(f.source), v(f.target), f.changed ? "" : " (unchanged)", action);
  }
  for (const auto& tr : t.translated) {
    out += fmt::format("  {} -> {} ({}:{})\n", v(tr.from), v(tr.to), v(tr.file), tr.line);
    if (!tr.widened_pin.empty())
      out += fmt::format(
          "    the pin {} becomes the profile's series: the release tfwsl provisions and checks; pin it again in the "
          "translated file if the code needs exactly that release\n",
          v(tr.widened_pin));
  }
  for (const auto& d : t.dropped)
    out += fmt::format("  dropped {} ({}:{}): {}\n", v(d.package), v(d.file), d.line, v(d.reason));
  for (const auto& a : t.added) out += fmt::format("  added {}\n", v(a));
  if (!t.diff.empty()) {
    out += "\n";
    for (std::size_t start = 0; start < t.diff.size();) {
      auto nl = t.diff.find('\n', start);
      if (nl == std::string::npos) nl = t.diff.size();
      out += "  " + v(std::string_view(t.diff).substr(start, nl - start)) + "\n";
      start = nl + 1;
    }
  }
}

// The code's Windows paths that exist, each with where the code finds it after the import.
void render_mapped_paths(const MigratePlan& plan, std::string& out) {
  bool mapped = false;
  for (const auto& wp : plan.windows_paths) mapped = mapped || wp.exists;
  if (!mapped) return;
  out += "\nWindows paths in the code, and where the code finds them after the import:\n";
  for (const auto& wp : plan.windows_paths)
    if (wp.exists)
      out += fmt::format("  {} ({}:{}) -> {}\n", v(wp.ref.path), v(wp.ref.file), wp.ref.line, v(wp.linux_path));
}

void render_data(const MigratePlan& plan, std::string& out) {
  if (!plan.datasets.empty()) {
    out += "\nDatasets to import:\n";
    for (const auto& ds : plan.datasets) {
      out += fmt::format("  {} -> {}: {}, {}, about {}\n", v(ds.windows_path), v(ds.linux_path),
                         plural(ds.files, "file", "files"), size_text(ds.bytes), duration_text(ds.estimated_seconds));
    }
  }
  bool missing = false;
  for (const auto& wp : plan.windows_paths) missing = missing || !wp.exists;
  if (missing) {
    out += "\nWindows paths in the code that do not exist here (not imported):\n";
    for (const auto& wp : plan.windows_paths) {
      if (!wp.exists) out += fmt::format("  {} ({}:{})\n", v(wp.ref.path), v(wp.ref.file), wp.ref.line);
    }
  }
  render_mapped_paths(plan, out);
  if (!plan.datasets.empty()) {
    out += fmt::format("\nThe code's Windows paths map to Linux ones in {} (generated; the code is not rewritten).\n",
                       k_path_map_file);
  }
}

// The GPUs as read here; a refusal's reason and way out are the first problem, said at the end.
void render_gpu(const GpuCheck& gpu, std::string& out) {
  if (!gpu.reading.checked) {
    out += fmt::format("GPU: not checked ({}): the plan goes on without it\n",
                       gpu.reading.not_checked.empty() ? std::string("not read") : v(gpu.reading.not_checked));
    return;
  }
  for (const auto& g : gpu.reading.gpus) {
    out += fmt::format("GPU: {}, compute capability {}.{}{}\n", v(g.name), g.major, g.minor,
                       gpu.refused() ? ": no stock TensorFlow wheel runs on it" : "");
  }
}

// The container route: the image, why, its size, and what the project's pins mean there.
void render_container(const ContainerRoutePlan& route, std::string& out) {
  out += fmt::format("\nRoute: container, profile {} (NVIDIA's TensorFlow {} image, run by Podman in {}): {}\n",
                     v(route.profile), v(route.tensorflow), v(route.distro), v(route.why));
  out += fmt::format("Image: {} ({}), downloads {}\n", v(route.image), v(route.pinned),
                     route.download_bytes ? "about " + format_bytes(*route.download_bytes)
                                          : std::string("a size not known before it runs"));
  for (const auto& n : route.notes) out += "Note: " + v(n) + "\n";
}

}  // namespace

std::string render_text(const MigratePlan& plan) {
  const TfDecision& d = plan.decision;
  std::string out = fmt::format("Decision: {}\n", to_string(d.decision));
  for (const auto& r : d.reasons) out += "  - " + v(r) + "\n";
  if (!d.choices.empty()) {
    out += "\nWhat you can do:\n";
    for (const auto& c : d.choices) out += "  - " + v(c) + "\n";
  }
  if (d.target && plan.container) {
    out += fmt::format("\nProfile: {} (the container route below{})\n", v(plan.container->profile),
                       plan.container->venv_profile.empty()
                           ? std::string()
                           : "; the pins alone would pick " + v(plan.container->venv_profile));
    out += fmt::format("Project in WSL: {} (mounted into the container)\n", v(plan.project_linux_path));
  } else if (d.target) {
    out += fmt::format("\nProfile: {} (TensorFlow {}, {} with Python {}, venv {})\n", v(d.target->name),
                       d.target->series.to_string(), v(d.target->distro), v(d.target->python), v(d.target->venv));
    out += fmt::format("Project in WSL: {}\n", v(plan.project_linux_path));
    if (d.python_project) {
      out += fmt::format("Python: the project declares {} ({}): {}\n", v(*d.python_project),
                         plan.scan.python ? v(plan.scan.python->file) : "",
                         d.python_ok.value_or(false) ? "the profile's fits" : "the profile's does not fit (see above)");
    }
    if (d.legacy_keras) out += "Keras 2 code: tf-keras in the venv and TF_USE_LEGACY_KERAS=1 in its environment\n";
  }
  out += d.target ? "" : "\n";
  render_gpu(plan.gpu, out);
  if (plan.container) render_container(*plan.container, out);
  if (d.decision != Decision::ambiguous && !plan.container) render_requirements(plan, out);
  render_data(plan, out);
  for (const auto& n : plan.scan.notes) out += "\nNote: " + v(n) + "\n";
  for (const auto& p : plan.problems) out += "\nProblem: " + v(p) + "\n";
  // On a GPU no stock wheel runs on, native Windows' TF 2.10 has no kernels for it either.
  if (d.decision == Decision::native_ok && !plan.force && !plan.gpu.refused() && !plan.container)
    out += "\nNative Windows can still run this project's GPU TensorFlow: pass --force to migrate anyway.\n";
  return out;
}

}  // namespace tfwsl::migrate
