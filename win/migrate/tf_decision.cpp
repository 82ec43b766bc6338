#include "win/migrate/tf_decision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "common/diagnose/python_fit.hpp"
#include "common/diagnose/signature_base.hpp"
#include "common/diagnose/tensorflow_range.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/environment_marker.hpp"
#include "common/util/ascii.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::migrate {
namespace {

// TensorFlow builds that never run on Linux x86-64 with CUDA: not a pin the decision weighs.
bool is_other_platform_build(const std::string& name) {
  return name == "tensorflow-macos" || name == "tensorflow-metal";
}

// TensorFlow's pins, and those of the packages released in lockstep with it (tensorflow-text 2.20
// runs only with TensorFlow 2.20), whose versions are TensorFlow's.
std::vector<TfPin> tensorflow_pins(const ProjectScan& scan, const MigrateFacts& facts) {
  std::vector<TfPin> pins;
  for (const auto& file : scan.requirements) {
    for (const auto& req : file.parsed.requirements) {
      const std::string name = normalize_package_name(req.package);
      const bool lockstep =
          !req.spec.empty() && std::find(facts.tensorflow_lockstep.begin(), facts.tensorflow_lockstep.end(), name) !=
                                   facts.tensorflow_lockstep.end();
      if (!(parse::is_tensorflow_distribution(name) || lockstep) || is_other_platform_build(name) ||
          marker_excludes_linux(req.marker))
        continue;
      const bool and_cuda = std::find(req.extras.begin(), req.extras.end(), "and-cuda") != req.extras.end();
      if (req.group == "build-system") continue;  // what builds the package is not what runs it
      pins.push_back({file.path, req.line, req.package, req.spec, req.conda, and_cuda, req.group,
                      file.parsed.format == parse::RequirementsFormat::conda_environment, file.constraints});
    }
  }
  return pins;
}

Result<VersionSpec> pep440_of(const std::string& spec, bool conda) {
  return VersionSpec::parse(diagnose::to_pep440_spec(spec, conda));
}

// Whether the spec allows a release of the series (x.y.*), or a pre-release of it the spec pins.
bool series_allowed(const VersionSpec& spec, const Version& series) {
  if (spec.admits_series(series.truncated(2))) return true;
  for (const auto& clause : spec.clauses()) {
    if (clause.op == VersionClause::Op::equal && clause.version.is_prerelease() &&
        clause.version.same_minor_series(series))
      return true;
  }
  return false;
}

// The pins together: every clause of every pin must hold (the files are installed together).
std::string combined_pep440(const std::vector<TfPin>& pins) {
  std::string out;
  for (const auto& p : pins) {
    std::string one = diagnose::to_pep440_spec(p.spec, p.conda);
    if (!one.empty()) out += (out.empty() ? "" : ",") + one;
  }
  return out;
}

std::optional<diagnose::TensorflowRange> allows(const std::string& pep440, bool and_cuda) {
  const auto& base = diagnose::builtin_signature_base();
  if (!base) return std::nullopt;
  parse::DeclaredRequirement req;
  req.package = "tensorflow";
  req.spec = pep440;
  if (and_cuda) req.extras.push_back("and-cuda");
  return diagnose::tensorflow_allows(req, *base);
}

// A `keras` requirement that admits no Keras 2.x but some 3.x: the project is written for Keras 3 (TF >= 2.16).
bool requires_keras3(const ProjectScan& scan) {
  for (const auto& file : scan.requirements) {
    for (const auto& req : file.parsed.requirements) {
      if (normalize_package_name(req.package) != "keras" || req.spec.empty()) continue;
      auto spec = pep440_of(req.spec, req.conda);
      if (spec && !spec->admits_series(version_literal("2")) && spec->admits_series(version_literal("3"))) return true;
    }
  }
  return false;
}

// A `keras` requirement that admits no Keras 3.x, or tf-keras already named: the code expects Keras 2.
bool pins_keras2(const ProjectScan& scan) {
  for (const auto& file : scan.requirements) {
    for (const auto& req : file.parsed.requirements) {
      const std::string name = normalize_package_name(req.package);
      if (name == "tf-keras") return true;
      if (name != "keras" || req.spec.empty()) continue;
      auto spec = pep440_of(req.spec, req.conda);
      if (spec && !spec->admits_series(version_literal("3"))) return true;
    }
  }
  return false;
}

// The project's Python against the target: TensorFlow's own range (profiles/compat.yaml) decides
// `python_ok`; a venv Python the project's spec does not allow is said too.
void check_python(const PythonDeclaration& python, const ShippedProfile& target, bool venv_fits, TfDecision& d) {
  parse::DeclaredRequirement py;
  py.package = "python";
  py.spec = python.spec;
  py.conda = python.conda;
  parse::DeclaredRequirement tf;
  tf.package = "tensorflow";
  tf.spec = "==" + target.series.to_string() + ".*";
  auto conflict = diagnose::python_conflict(py, tf, builtin_compat_db());
  d.python_ok = !conflict.has_value();
  if (conflict) {
    d.reasons.push_back(fmt::format("the project declares Python {} ({}), TensorFlow {} supports Python {} only",
                                    python.spec, python.file, target.series.to_string(),
                                    (*conflict)["tensorflow_python"].get<std::string>()));
  } else if (!venv_fits) {
    d.reasons.push_back(
        fmt::format("the project declares Python {} ({}); the profile's venv runs Python {} ({}): code or a "
                    "requires-python that excludes it needs a look",
                    python.spec, python.file, target.python, target.name));
  }
}

// --profile NAME: that profile, when the pins (and a Keras 3 requirement) allow its series; else the
// decision is ambiguous with the reason.
void choose_asked_profile(const DecideInput& in, const VersionSpec& spec, TfDecision& d) {
  auto asked = std::find_if(in.profiles.begin(), in.profiles.end(),
                            [&](const ShippedProfile& p) { return p.name == in.profile; });
  if (asked == in.profiles.end()) {
    d.decision = Decision::ambiguous;
    d.reasons.push_back(
        fmt::format("--profile {}: no shipped WSL profile has that name (shipped: {})", in.profile, [&] {
          std::string names;
          for (const auto& p : in.profiles) names += (names.empty() ? "" : ", ") + p.name;
          return names;
        }()));
    return;
  }
  const bool keras3 = requires_keras3(in.scan);
  if (!series_allowed(spec, asked->series) || (keras3 && asked->series < in.facts.keras3_from)) {
    d.decision = Decision::ambiguous;
    d.reasons.push_back(fmt::format(
        "--profile {} is refused: {}", in.profile,
        keras3 && asked->series < in.facts.keras3_from
            ? fmt::format("the project requires Keras 3, which TF {} does not have", asked->series.to_string())
            : fmt::format("the pins ({}) exclude TF {}", d.spec_as_written(), asked->series.to_string())));
    d.choices.push_back(
        fmt::format("change the pins to allow TF {}, or leave --profile out", asked->series.to_string()));
    return;
  }
  d.target = *asked;
  d.reasons.push_back(fmt::format("target {} ({}): asked for with --profile", asked->series.to_string(), asked->name));
  if (in.scan.python) check_python(*in.scan.python, *asked, python_fits(*in.scan.python, asked->python), d);
}

void choose_target(const DecideInput& in, const VersionSpec& spec, TfDecision& d) {
  if (!in.profile.empty()) {
    choose_asked_profile(in, spec, d);
    return;
  }
  std::vector<const ShippedProfile*> allowed;
  const bool keras3 = requires_keras3(in.scan);
  for (const auto& p : in.profiles) {
    if (series_allowed(spec, p.series) && !(keras3 && p.series < in.facts.keras3_from)) allowed.push_back(&p);
  }
  if (allowed.empty()) return;
  std::vector<const ShippedProfile*> fitting = allowed;
  if (d.python_project) {
    std::erase_if(fitting, [&](const ShippedProfile* p) { return !python_fits(*in.scan.python, p->python); });
  }
  const auto& pool = fitting.empty() ? allowed : fitting;
  auto preferred = std::find_if(pool.begin(), pool.end(),
                                [&](const ShippedProfile* p) { return p->series == in.facts.preferred_series; });
  const ShippedProfile* pick = preferred != pool.end() ? *preferred : pool.back();
  d.target = *pick;
  const char* lead = d.decision == Decision::native_ok ? "with --force, target" : "target";
  if (preferred != pool.end()) {
    d.reasons.push_back(
        fmt::format("{} {} ({}): the spec allows it, and it is the last release whose tf.keras is Keras 2 "
                    "(the default profile)",
                    lead, pick->series.to_string(), pick->name));
  } else {
    d.reasons.push_back(fmt::format("{} {} ({}): the newest shipped release the spec allows{}", lead,
                                    pick->series.to_string(), pick->name,
                                    keras3 ? " (the project requires Keras 3, so TF >= 2.16)" : ""));
  }
  if (in.scan.python) check_python(*in.scan.python, *pick, !fitting.empty(), d);
}

void decide_keras(const DecideInput& in, TfDecision& d) {
  if (!d.target || d.target->series < in.facts.keras3_from) return;
  if (!in.scan.keras2_apis.empty()) {
    const auto& use = in.scan.keras2_apis.front();
    d.legacy_keras = true;
    d.reasons.push_back(
        fmt::format("{}:{} uses {}: on TF {} tf.keras is Keras 3, so the venv gets tf-keras and TF_USE_LEGACY_KERAS=1",
                    use.file, use.line, use.what, d.target->series.to_string()));
  } else if (pins_keras2(in.scan)) {
    d.legacy_keras = true;
    d.reasons.push_back(
        fmt::format("the requirements pin Keras 2: on TF {} that is tf-keras with TF_USE_LEGACY_KERAS=1",
                    d.target->series.to_string()));
  }
}

void refuse_tf1(TfDecision& d) {
  d.decision = Decision::refuse_tf1;
  d.reasons.push_back(
      "only TensorFlow 1.x is allowed: TF 1 has no CUDA 12 build; port the code to TF 2 first "
      "(tensorflow.org/guide/migrate: tf_upgrade_v2, then tf.compat.v1 removed step by step), then pin TF 2");
}

// Every pin on its own allows TF 1.x only (pins that also disagree with each other are still TF 1).
bool only_tf1(const std::vector<TfPin>& pins) {
  for (const auto& p : pins) {
    auto one = allows(diagnose::to_pep440_spec(p.spec, p.conda), p.and_cuda);
    if (!one || !one->any || one->tf2) return false;
  }
  return true;
}

std::string shipped_series_list(const std::vector<ShippedProfile>& profiles) {
  std::string out;
  for (const auto& p : profiles) out += (out.empty() ? "" : ", ") + p.series.to_string();
  return out;
}

}  // namespace

const char* to_string(Decision decision) {
  switch (decision) {
    case Decision::native_ok:
      return "native-ok";
    case Decision::needs_wsl:
      return "needs-wsl";
    case Decision::refuse_tf1:
      return "refuse-tf1";
    case Decision::ambiguous:
      return "ambiguous";
  }
  return "ambiguous";
}

std::string TfPin::text() const { return fmt::format("{}{} ({}:{})", package, spec, file, line); }

std::string TfDecision::spec_as_written() const {
  std::vector<std::string> seen;
  for (const auto& p : pins) {
    if (!p.spec.empty() && std::find(seen.begin(), seen.end(), p.spec) == seen.end()) seen.push_back(p.spec);
  }
  std::string out;
  for (const auto& s : seen) out += (out.empty() ? "" : ",") + s;
  return out;
}

bool marker_excludes_linux(std::string_view marker) {
  if (trim(marker).empty()) return false;
  // The Pythons of the shipped WSL profiles, read once.
  static const std::vector<std::string> pythons = [] {
    std::vector<std::string> out;
    for (const auto& profile : shipped_wsl_profiles()) {
      if (!profile.python.empty() && std::find(out.begin(), out.end(), profile.python) == out.end())
        out.push_back(profile.python);
    }
    return out;
  }();
  for (const auto& python : pythons) {
    const auto applies = provision::evaluate_marker(marker, provision::linux_marker_environment(python, "x86_64"));
    if (!applies || *applies) return false;  // applies there, or cannot be evaluated: kept
  }
  return !pythons.empty();
}

std::vector<ShippedProfile> shipped_wsl_profiles() {
  std::vector<ShippedProfile> out;
  for (const auto& name : shipped_profile_names()) {
    auto profile = load_valid_profile(name);
    if (!profile || profile->route.value_or(ProfileRoute::wsl) != ProfileRoute::wsl) continue;
    std::string tf = profile->tensorflow_version.value_or("");
    auto series = Version::parse(tf.ends_with(".*") ? tf.substr(0, tf.size() - 2) : tf);
    if (!series) continue;
    out.push_back({name, *series, profile->python_version.value_or(""), profile->distro.value_or(""),
                   profile->python_venv.value_or("")});
  }
  std::sort(out.begin(), out.end(),
            [](const ShippedProfile& a, const ShippedProfile& b) { return a.series < b.series; });
  return out;
}

namespace {

TfDecision decide_pins(const DecideInput& in, std::vector<TfPin> pins) {
  TfDecision d;
  d.pins = std::move(pins);
  if (in.scan.python) d.python_project = in.scan.python->spec;
  bool and_cuda = false;
  for (const auto& p : d.pins) and_cuda = and_cuda || p.and_cuda;
  for (const auto& p : d.pins) {
    if (!pep440_of(p.spec, p.conda)) {
      d.reasons.push_back(fmt::format("{}: the version spec cannot be read", p.text()));
      d.choices.push_back(fmt::format("write the pin as PEP 440 (e.g. tensorflow[and-cuda]=={}.*)",
                                      in.facts.preferred_series.to_string()));
      return d;
    }
  }
  if (d.pins.empty()) {
    d.reasons.push_back(
        in.scan.imports_tensorflow
            ? "the code imports tensorflow but no requirement file names it: treated as unpinned"
            : "no requirement file names TensorFlow (it may come through a dependency): treated as unpinned");
  }
  const std::string combined = combined_pep440(d.pins);
  auto combined_spec = VersionSpec::parse(combined);
  auto range = allows(combined, and_cuda);
  if (!combined_spec || !range) {
    d.reasons.push_back(fmt::format("the TensorFlow pins together ({}) cannot be read", combined));
    return d;
  }
  if (!d.pins.empty() && only_tf1(d.pins)) {
    for (const auto& p : d.pins) d.reasons.push_back(fmt::format("{} allows only TensorFlow 1.x", p.text()));
    refuse_tf1(d);
    return d;
  }
  if (!range->any) {
    for (const auto& p : d.pins)
      d.reasons.push_back(fmt::format("{} pins TensorFlow {}", p.text(), p.spec.empty() ? "(any)" : p.spec));
    d.reasons.push_back(d.pins.size() > 1 ? "together these pins allow no TensorFlow release"
                                          : "this pin allows no known TensorFlow release");
    for (const auto& p : d.pins)
      d.choices.push_back(fmt::format("keep {} and change the others to match it", p.text()));
    d.choices.push_back(
        fmt::format("or pin every file to tensorflow[and-cuda]=={}.*", in.facts.preferred_series.to_string()));
    return d;
  }
  for (const auto& p : d.pins)
    d.reasons.push_back(fmt::format("{} allows TensorFlow {}", p.text(), p.spec.empty() ? "(any release)" : p.spec));
  if (!range->tf2) {
    refuse_tf1(d);
    return d;
  }
  const bool native_only = range->native_gpu && !range->wsl_only;
  if (native_only) {
    d.decision = Decision::native_ok;
    d.reasons.push_back(
        "every allowed release is 2.10 or older: native Windows still has the GPU (TF 2.10 with CUDA 11.2, cuDNN 8.1); "
        "migrate stops here unless --force, which raises the pin to a shipped WSL profile");
    // With --force migrate installs the preferred series; without, the plan still shows what that would be.
    choose_target(
        in, *VersionSpec::parse(in.profile.empty() ? "==" + in.facts.preferred_series.to_string() + ".*" : ""), d);
  } else {
    d.decision = Decision::needs_wsl;
    choose_target(in, *combined_spec, d);
  }
  if (!d.target && !in.profile.empty()) return d;
  if (!d.target) {
    d.decision = Decision::ambiguous;
    d.reasons.push_back(fmt::format("no shipped profile has a release these pins allow (shipped: {})",
                                    shipped_series_list(in.profiles)));
    for (const auto& p : in.profiles)
      d.choices.push_back(fmt::format("pin tensorflow[and-cuda]=={}.* (profile {})", p.series.to_string(), p.name));
    return d;
  }
  decide_keras(in, d);
  return d;
}

// The sets of pins that may be installed: what a plain install brings, with each conda environment
// file (a whole environment of its own: `conda env create -f` takes one) and, when nothing else pins
// TensorFlow, each extra or group that does ("which extra, which file" is the user's choice).
struct Alternative {
  std::string label;  // "environment-gpu.yml", "setup.py extra 'tensorflow'"
  std::vector<TfPin> pins;
};

std::vector<Alternative> alternatives_of(const std::vector<TfPin>& all, std::vector<TfPin>& base) {
  std::vector<Alternative> alternatives;
  auto add_to = [&](const std::string& label, const TfPin& pin) {
    auto it =
        std::find_if(alternatives.begin(), alternatives.end(), [&](const Alternative& a) { return a.label == label; });
    if (it == alternatives.end())
      alternatives.push_back({label, {pin}});
    else
      it->pins.push_back(pin);
  };
  bool base_pinned = false;
  for (const auto& p : all) {
    if (p.group.empty() && !p.conda_environment) {
      base.push_back(p);
      base_pinned = true;
    }
  }
  for (const auto& p : all) {
    if (p.group.empty() && p.conda_environment) add_to(p.file, p);
  }
  if (base_pinned || !alternatives.empty()) return alternatives;
  for (const auto& p : all) {
    if (!p.group.empty()) add_to(fmt::format("{} extra '{}'", p.file, p.group), p);
  }
  return alternatives;
}

std::string outcome_text(const TfDecision& d) {
  return d.target ? fmt::format("{}, target {}", to_string(d.decision), d.target->series.to_string())
                  : to_string(d.decision);
}

}  // namespace

bool python_fits(const PythonDeclaration& python, const std::string& profile_python) {
  auto spec = pep440_of(python.spec, python.conda);
  auto v = Version::parse(profile_python);
  return spec && v && spec->allows(*v);
}

// The pins that decide: what the project installs. A constraints file's pins limit versions and
// install nothing, so they count only where they leave no TensorFlow the installs allow (pip with
// `-c` would fail: the files disagree, as two requirements files can).
std::vector<TfPin> deciding_pins(const std::vector<TfPin>& all) {
  std::vector<TfPin> installs;
  std::copy_if(all.begin(), all.end(), std::back_inserter(installs), [](const TfPin& p) { return !p.constraint; });
  if (installs.empty() || installs.size() == all.size()) return installs;
  const auto together = allows(combined_pep440(all), false);
  const bool conflict = together && !together->any;
  return conflict ? all : installs;
}

TfDecision decide(const DecideInput& in) {
  const std::vector<TfPin> all = deciding_pins(tensorflow_pins(in.scan, in.facts));
  std::vector<TfPin> base;
  const std::vector<Alternative> alternatives = alternatives_of(all, base);
  if (alternatives.empty()) return decide_pins(in, base);
  std::vector<TfDecision> outcomes;
  for (const auto& alternative : alternatives) {
    std::vector<TfPin> pins = base;
    pins.insert(pins.end(), alternative.pins.begin(), alternative.pins.end());
    outcomes.push_back(decide_pins(in, std::move(pins)));
  }
  const bool agree = std::all_of(outcomes.begin(), outcomes.end(), [&](const TfDecision& o) {
    return o.decision == outcomes.front().decision && o.target.has_value() == outcomes.front().target.has_value() &&
           (!o.target || o.target->name == outcomes.front().target->name);
  });
  TfDecision d = outcomes.front();
  d.pins = all;
  if (alternatives.size() == 1 && agree) return d;
  if (agree) {
    std::string labels;
    for (const auto& a : alternatives) labels += (labels.empty() ? "" : ", ") + a.label;
    d.reasons.insert(d.reasons.begin(),
                     fmt::format("each alternative ({}) leads to the same plan: {}", labels, outcome_text(d)));
    return d;
  }
  d = TfDecision{};
  d.pins = all;
  if (in.scan.python) d.python_project = in.scan.python->spec;
  d.decision = Decision::ambiguous;
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    std::string pins;
    for (const auto& p : alternatives[i].pins) pins += (pins.empty() ? "" : ", ") + p.text();
    d.reasons.push_back(fmt::format("{} ({}) leads to {}", alternatives[i].label, pins, outcome_text(outcomes[i])));
    d.choices.push_back(
        fmt::format("keep only {} ({}) and run migrate again", alternatives[i].label, outcome_text(outcomes[i])));
  }
  d.reasons.push_back("these alternatives lead to different plans: which one the project means is the user's choice");
  return d;
}

}  // namespace tfwsl::migrate
