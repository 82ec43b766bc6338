#include "linux/venv/venv_requirements.hpp"

#include <fmt/format.h>
#include <sys/utsname.h>

#include <cstdlib>
#include <sstream>

#include "common/provision/environment_marker.hpp"
#include "common/util/ascii.hpp"
#include "common/util/regular_file.hpp"
#include "common/version/version_spec.hpp"
#include "linux/provision/venv_contents.hpp"

namespace tfwsl::venv {
namespace {

// Bounded reads of regular files only: a requirements file (or its -r include) or a pyvenv.cfg
// that is a FIFO would block the check, /dev/zero would never end (docs/safety-sweep.md, C10).
constexpr std::uintmax_t k_max_requirements_bytes = 16u << 20;
constexpr std::uintmax_t k_max_pyvenv_cfg_bytes = 1u << 20;

Result<std::string> read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return make_error(ErrorCode::invalid_input, fmt::format("requirements file {} is a folder, not a file", path));
  const RegularFileRead read = read_regular_file(path, k_max_requirements_bytes);
  if (read.problem == FileReadProblem::none) return read.bytes;
  return make_error(read.problem == FileReadProblem::missing      ? ErrorCode::not_found
                    : read.problem == FileReadProblem::unreadable ? ErrorCode::io
                                                                  : ErrorCode::invalid_input,
                    fmt::format("requirements file {} {}", path, read_problem_text(read, k_max_requirements_bytes)));
}

std::string machine_name() {
  utsname u{};
  return ::uname(&u) == 0 ? std::string(u.machine) : std::string();
}

// pyvenv.cfg's include-system-site-packages = true: the venv also sees the system's packages,
// which this check does not read.
bool includes_system_site_packages(const std::filesystem::path& venv) {
  std::istringstream in(read_regular_file(venv / "pyvenv.cfg", k_max_pyvenv_cfg_bytes).bytes);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq != std::string::npos && trim(std::string_view(line).substr(0, eq)) == "include-system-site-packages")
      return ascii_lower(trim(std::string_view(line).substr(eq + 1))) == "true";
  }
  return false;
}

struct Verdict {
  std::string reason;  // empty: met (or not for this machine)
  bool pip_decides = false;
};

struct Checker {
  std::filesystem::path venv;
  std::vector<provision::InstalledDistribution> installed = provision::venv_distributions(venv);
  provision::MarkerEnvironment markers =
      provision::linux_marker_environment(provision::venv_python_version(venv).value_or(""), machine_name());
  bool system_site_packages = includes_system_site_packages(venv);
  std::vector<Requirement> constraints;

  Verdict judge(const parse::PipRequirementLine& line) const {
    switch (line.kind) {
      case parse::PipLineKind::direct_reference:
        return {"a URL or path: pip decides whether it is installed", true};
      case parse::PipLineKind::editable:
        return {"an editable install: pip decides whether it is installed", true};
      case parse::PipLineKind::unparsed:
        return {"not a requirement tfwsl can read: pip decides what it means", true};
      case parse::PipLineKind::requirement:
        break;
    }
    auto req = parse_requirement(line.text);
    if (!req) return {req.error().message, true};
    if (!req->marker.empty()) {
      auto applies = provision::evaluate_marker(req->marker, markers);
      if (!applies) return {applies.error().message + " (pip decides)", true};
      if (!*applies) return {};  // not for this platform or this Python
    }
    auto state = provision::check_installed(installed, *req);
    if (state.met()) {
      // A -c constraint narrows what is installed: the same distribution must meet it too.
      for (const auto& c : constraints) {
        if (c.name != req->name || c.spec.is_any()) continue;
        if (auto constrained = provision::check_installed(installed, c); !constrained.met())
          return {constrained.reason, false};
      }
      return {};
    }
    const bool absent = state.state == provision::RequirementState::State::not_installed;
    if (system_site_packages && absent)
      return {state.reason + " in the venv (it may be in the system site-packages the venv includes: pip decides)",
              true};
    return {state.reason, false};
  }
};

}  // namespace

std::vector<UnmetRequirement> RequirementsCheck::decided_unmet() const {
  std::vector<UnmetRequirement> out;
  for (const auto& u : unmet)
    if (!u.pip_decides) out.push_back(u);
  return out;
}

std::string expand_home(const std::string& path) {
  if (path != "~" && !path.starts_with("~/")) return path;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "") + path.substr(1);
}

Status require_venv(const std::filesystem::path& venv) {
  std::error_code ec;
  if (std::filesystem::exists(venv / "bin/python", ec) && std::filesystem::is_regular_file(venv / "pyvenv.cfg", ec))
    return {};
  return make_error(ErrorCode::not_found, fmt::format("{} is not a venv: run tfwsl provision first", venv.string()));
}

Result<RequirementsCheck> check_venv_requirements(const std::filesystem::path& venv,
                                                  const std::vector<std::string>& files,
                                                  const std::vector<std::string>& packages) {
  auto read = parse::read_pip_requirements(files, read_text_file);
  if (!read) return tl::unexpected(read.error());
  std::vector<parse::PipRequirementLine> lines = read->lines;
  for (const auto& spec : packages) {
    auto parsed = parse::parse_pip_requirements_text(spec, "--package");
    if (parsed.lines.size() != 1 || !parsed.includes.empty())
      return make_error(ErrorCode::invalid_input,
                        fmt::format("--package '{}' is not one requirement (e.g. numpy>=1.26)", spec));
    lines.push_back(parsed.lines.front());
    lines.back().line = 0;  // named by the command line, not by a file's line
  }
  Checker checker{venv};
  for (const auto& line : lines)
    if (line.constraint && line.kind == parse::PipLineKind::requirement)
      if (auto c = parse_requirement(line.text)) checker.constraints.push_back(*c);
  RequirementsCheck out;
  out.files = read->files;
  for (const auto& line : lines) {
    if (line.constraint) continue;
    ++out.requirements;
    Verdict verdict = checker.judge(line);
    if (!verdict.reason.empty())
      out.unmet.push_back({line.text, line.line ? fmt::format("{}:{}", line.file, line.line) : line.file,
                           std::move(verdict.reason), verdict.pip_decides});
  }
  return out;
}

}  // namespace tfwsl::venv
