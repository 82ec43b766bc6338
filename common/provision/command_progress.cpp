#include "common/provision/command_progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "common/util/ascii.hpp"

namespace tfwsl::provision {
namespace {

std::vector<std::string> words_of(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

// "libcurl4:amd64" -> "libcurl4" (dpkg names a multi-arch package with its architecture).
std::string package_name(std::string_view word) { return std::string(word.substr(0, word.find(':'))); }

// apt-get install -q (and update): the archive now fetched, the total from "Need to get".
class AptProgress final : public CommandProgress {
 public:
  explicit AptProgress(std::string step) : m_step(std::move(step)) {}

  std::optional<ProgressEvent> line(std::string_view text) override {
    if (starts_with(text, "Need to get ")) return need_to_get(text.substr(12));
    if (starts_with(text, "Get:")) return get(text);
    if (starts_with(text, "Fetched ")) return event("downloading", "", m_total ? m_total : std::optional(m_started));
    for (const auto* verb : {"Unpacking ", "Setting up "}) {
      if (!starts_with(text, verb)) continue;
      const auto words = words_of(text.substr(std::string_view(verb).size()));
      if (!words.empty())
        return event("installing", package_name(words.front()), m_total ? m_total : std::optional(m_started));
    }
    return std::nullopt;
  }

 private:
  ProgressEvent event(std::string phase, std::string item, std::optional<std::uint64_t> done) const {
    return {m_step, std::move(phase), std::move(item), done, m_total};
  }

  // "301 kB of archives." or "0 B/2345 kB of archives." (the part already in the cache): the first
  // figure is what this run fetches.
  std::optional<ProgressEvent> need_to_get(std::string_view rest) {
    const auto end = rest.find_first_of("/o");
    m_total = parse_size_words(rest.substr(0, end == std::string_view::npos ? rest.size() : end));
    if (m_total) return event("downloading", "", 0);
    return std::nullopt;
  }

  // "Get:1 http://archive.ubuntu.com/ubuntu jammy/main amd64 curl amd64 7.81.0-1ubuntu1.16 [194 kB]";
  // a flat repository's "Get:1 copy:/repo ./ demo-blob 1.0 [301 kB]"; an index's
  // "Get:2 http://archive.ubuntu.com/ubuntu jammy InRelease [270 kB]".
  std::optional<ProgressEvent> get(std::string_view text) {
    const auto open = text.rfind(" [");
    const auto words = words_of(text.substr(0, open == std::string_view::npos ? text.size() : open));
    if (words.size() < 3) return std::nullopt;
    std::string item;
    if (words.size() >= 7)
      item = words[4];
    else if (words.size() == 5 && words[2] == "./")
      item = words[3];
    else
      for (std::size_t i = 2; i < words.size(); ++i) item += (item.empty() ? "" : " ") + words[i];
    auto e = event("downloading", item, m_started);
    if (open != std::string_view::npos)
      m_started += parse_size_words(text.substr(open + 2, text.size() - open - 3)).value_or(0);
    return e;
  }

  std::string m_step;
  std::optional<std::uint64_t> m_total;
  std::uint64_t m_started = 0;  // the archives begun so far, added up
};

// "tensorflow-2.15.1-cp310-cp310-manylinux_2_17_x86_64.whl" or its URL -> "tensorflow-2.15.1".
std::string wheel_name(std::string_view shown) {
  if (const auto slash = shown.rfind('/'); slash != std::string_view::npos) shown.remove_prefix(slash + 1);
  const auto first = shown.find('-');
  if (first == std::string_view::npos) return std::string(shown);
  const auto second = shown.find('-', first + 1);
  std::string name(shown.substr(0, second));
  if (name.size() > 7 && name.substr(name.size() - 7) == ".tar.gz") name.resize(name.size() - 7);
  return name;
}

// pip install: the wheels downloaded so far added up; the total is the plan's estimate (at least
// what pip has shown).
class PipProgress final : public CommandProgress {
 public:
  PipProgress(std::string step, std::optional<std::uint64_t> expected)
      : m_step(std::move(step)), m_expected(expected) {}

  std::optional<ProgressEvent> line(std::string_view text) override {
    const auto trimmed = trim(text);
    if (starts_with(trimmed, "Collecting "))
      return event("collecting", std::string(trim(trimmed.substr(11))), m_finished);
    if (starts_with(trimmed, "Downloading ")) return downloading(trimmed.substr(12));
    if (starts_with(trimmed, "Installing collected packages:")) return event("installing", "", finish_current());
    if (starts_with(trimmed, "Successfully installed")) return event("installed", "", finish_current());
    if (const auto bar = bar_done(trimmed)) return event("downloading", m_current, m_finished + *bar);
    return std::nullopt;
  }

 private:
  ProgressEvent event(std::string phase, std::string item, std::uint64_t done) const {
    std::optional<std::uint64_t> total = m_expected;
    if (total && *total < done + m_current_size) total = done + m_current_size;
    return {m_step, std::move(phase), std::move(item), done, total};
  }

  std::uint64_t finish_current() {
    m_finished += m_current_size;
    m_current_size = 0;
    return m_finished;
  }

  // "tensorflow-2.15.1-....whl (475.2 MB)": the previous download is done, this one starts.
  std::optional<ProgressEvent> downloading(std::string_view rest) {
    finish_current();
    const auto open = rest.rfind(" (");
    m_current = wheel_name(rest.substr(0, open));
    if (open != std::string_view::npos && rest.back() == ')')
      m_current_size = parse_size_words(rest.substr(open + 2, rest.size() - open - 3)).value_or(0);
    return event("downloading", m_current, m_finished);
  }

  // The bar's figures, "━━━━ 701.1/701.1 kB 379.6 MB/s eta 0:00:00": the first is this file's bytes.
  static std::optional<std::uint64_t> bar_done(std::string_view text) {
    const auto words = words_of(text);
    if (words.size() < 3 || words[0].find("\xe2\x94\x81") == std::string::npos) return std::nullopt;
    const auto slash = words[1].find('/');
    if (slash == std::string::npos) return std::nullopt;
    return parse_size_words(words[1].substr(0, slash) + " " + words[2]);
  }

  std::string m_step;
  std::optional<std::uint64_t> m_expected;
  std::string m_current;
  std::uint64_t m_current_size = 0;
  std::uint64_t m_finished = 0;
};

bool is_apt(const std::vector<std::string>& argv) { return !argv.empty() && argv[0] == "apt-get"; }

// podman pull and build off a terminal (containers/image's copy.go prints to stderr): "Trying to pull
// REF...", "Copying blob sha256:..." as each layer starts (4.3; later versions add " done" or
// " skipped: already exists"), "Copying config sha256:...", "Writing manifest to image destination".
// No sizes off a terminal: the event counts layers; the plan's figure stays the total.
class PodmanProgress final : public CommandProgress {
 public:
  PodmanProgress(std::string step, std::optional<std::uint64_t> expected)
      : m_step(std::move(step)), m_expected(expected) {}

  std::optional<ProgressEvent> line(std::string_view text) override {
    const auto trimmed = trim(text);
    if (starts_with(trimmed, "Trying to pull ")) return event("downloading", "the image's layers");
    if (starts_with(trimmed, "Copying blob ")) {
      const auto words = words_of(trimmed.substr(13));
      std::string digest = words.empty() ? std::string() : std::string(words.front());
      if (digest.size() > 19) digest.resize(19);  // "sha256:" and 12 hex digits, as podman's bar shows it
      const bool present = trimmed.find("skipped: already exists") != std::string_view::npos;
      return event("downloading", fmt::format("layer {} ({}){}", ++m_layers, digest, present ? ", already here" : ""));
    }
    if (starts_with(trimmed, "Copying config ")) return event("downloading", "the image's config");
    if (starts_with(trimmed, "Writing manifest")) return event("installing", "the image's manifest");
    return std::nullopt;
  }

 private:
  ProgressEvent event(std::string phase, std::string item) const {
    return {m_step, std::move(phase), std::move(item), std::nullopt, m_expected};
  }

  std::string m_step;
  std::optional<std::uint64_t> m_expected;
  int m_layers = 0;
};

bool is_podman_fetch(const std::vector<std::string>& argv) {
  return argv.size() > 1 && argv[0] == "podman" && (argv[1] == "pull" || argv[1] == "build");
}

bool is_pip_install(const std::vector<std::string>& argv) {
  return argv.size() > 3 && argv[1] == "-m" && argv[2] == "pip" && argv[3] == "install";
}

}  // namespace

std::unique_ptr<CommandProgress> command_progress_for(const std::string& step, const std::vector<std::string>& argv,
                                                      std::optional<std::uint64_t> expected_total) {
  if (is_apt(argv)) return std::make_unique<AptProgress>(step);
  if (is_pip_install(argv)) return std::make_unique<PipProgress>(step, expected_total);
  if (is_podman_fetch(argv)) return std::make_unique<PodmanProgress>(step, expected_total);
  return nullptr;
}

std::optional<std::uint64_t> parse_size_words(std::string_view text) {
  const auto words = words_of(text);
  if (words.size() != 2) return std::nullopt;
  std::string number;
  for (const char c : words[0])
    if (c != ',') number.push_back(c);
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || value < 0) return std::nullopt;
  const std::string unit = ascii_lower(words[1]);
  double scale = 0;
  if (unit == "b" || unit == "bytes")
    scale = 1;
  else if (unit == "kb")
    scale = 1e3;
  else if (unit == "mb")
    scale = 1e6;
  else if (unit == "gb")
    scale = 1e9;
  if (scale == 0) return std::nullopt;
  return static_cast<std::uint64_t>(std::llround(value * scale));
}

}  // namespace tfwsl::provision
