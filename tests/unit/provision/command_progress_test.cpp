#include "common/provision/command_progress.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/provision/output_lines.hpp"
#include "common/provision/progress_event.hpp"
#include "common/provision/provision_catalogue.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

std::vector<ProgressEvent> feed(CommandProgress& progress, const std::string& output) {
  std::vector<ProgressEvent> events;
  OutputLines lines;
  for (const auto& line : lines.feed(output))
    if (auto e = progress.line(line)) events.push_back(*e);
  return events;
}

ProgressEvent ev(std::string step, std::string phase, std::string item, std::optional<std::uint64_t> done,
                 std::optional<std::uint64_t> total) {
  return {std::move(step), std::move(phase), std::move(item), done, total};
}

}  // namespace

TEST_CASE("sizes are read as apt and pip print them", "[provision][progress]") {
  CHECK(parse_size_words("301 kB") == 301000u);
  CHECK(parse_size_words("1,167 kB") == 1167000u);
  CHECK(parse_size_words("475.2 MB") == 475200000u);
  CHECK(parse_size_words("2.9 GB") == 2900000000u);
  CHECK(parse_size_words("307 B") == 307u);
  CHECK(parse_size_words("845 bytes") == 845u);
  CHECK_FALSE(parse_size_words("kB"));
  CHECK_FALSE(parse_size_words("12 parsecs"));
}

// Recorded from apt 2.6.2 (Debian 12): `LC_ALL=C apt-get -q -y --download-only install demo-blob`
// against a flat copy: repository (the lines apt-get install -q prints before dpkg runs). The dists
// line and dpkg's lines after it are the form an Ubuntu 22.04 apt-get install prints (apt's
// acqprogress.cc: "Get:" ID, the item's description, " [" size "]"; dpkg's "Unpacking %s (%s) ..."
// and "Setting up %s (%s) ...").
TEST_CASE("apt-get install's output becomes download then install progress", "[provision][progress]") {
  const std::string out =
      "Reading package lists...\n"
      "Building dependency tree...\n"
      "Reading state information...\n"
      "The following NEW packages will be installed:\n"
      "  demo-blob\n"
      "0 upgraded, 1 newly installed, 0 to remove and 0 not upgraded.\n"
      "Need to get 301 kB of archives.\n"
      "After this operation, 0 B of additional disk space will be used.\n"
      "Get:1 copy:/tmp/wtp-samples/repo ./ demo-blob 1.0 [301 kB]\n"
      "Get:2 http://archive.ubuntu.com/ubuntu jammy-updates/main amd64 libcurl4 amd64 7.81.0-1ubuntu1.16 [289 kB]\n"
      "Fetched 301 kB in 0s (3766 kB/s)\n"
      "Selecting previously unselected package libcurl4:amd64.\n"
      "Unpacking libcurl4:amd64 (7.81.0-1ubuntu1.16) ...\n"
      "Setting up libcurl4:amd64 (7.81.0-1ubuntu1.16) ...\n";
  auto progress = command_progress_for("apt.prerequisites", apt_install_argv({"curl"}, {}), std::nullopt);
  REQUIRE(progress);
  const auto events = feed(*progress, out);
  REQUIRE(events.size() == 6);
  CHECK(events[0] == ev("apt.prerequisites", "downloading", "", 0, 301000));
  CHECK(events[1] == ev("apt.prerequisites", "downloading", "demo-blob", 0, 301000));
  CHECK(events[2] == ev("apt.prerequisites", "downloading", "libcurl4", 301000, 301000));
  CHECK(events[3].done == 301000u);
  CHECK(events[4] == ev("apt.prerequisites", "installing", "libcurl4", 301000, 301000));
  CHECK(progress_words(events[2]) == "apt.prerequisites: downloading libcurl4, 293.9 KiB of 293.9 KiB (100%)");
}

// Recorded from apt 2.6.2: `apt-get -q update` against the same repository: no total, the indexes
// fetched so far.
TEST_CASE("apt-get update's output counts what it fetched", "[provision][progress]") {
  auto progress = command_progress_for("cuda.repository", apt_update_argv({}), std::nullopt);
  REQUIRE(progress);
  const auto events = feed(*progress,
                           "Ign:1 copy:/tmp/wtp-samples/repo ./ InRelease\n"
                           "Get:3 copy:/tmp/wtp-samples/repo ./ Packages [307 B]\n"
                           "Get:4 http://archive.ubuntu.com/ubuntu jammy InRelease [270 kB]\n"
                           "Fetched 270 kB in 0s (1145 B/s)\n");
  REQUIRE(events.size() == 3);
  CHECK(events[0] == ev("cuda.repository", "downloading", "./ Packages", 0, std::nullopt));
  CHECK(events[1] == ev("cuda.repository", "downloading", "jammy InRelease", 307, std::nullopt));
  CHECK(events[2].done == 270307u);
  CHECK(progress_words(events[1]) == "cuda.repository: downloading jammy InRelease, 307 B so far");
}

// Recorded from pip 23.2.1 (`python -m pip install --disable-pip-version-check --no-input
// --index-url http://127.0.0.1:8765/simple/ demo-pkg`, output to a file: pip's rich bar prints
// only its last state off a terminal); the PyPI line is the form pip prints for files.pythonhosted.org
// (the file name, not the URL: pip's network/download.py).
TEST_CASE("pip install's output becomes downloads against the plan's known total", "[provision][progress]") {
  const std::string out =
      "Looking in indexes: http://127.0.0.1:8765/simple/\n"
      "Collecting demo-pkg\n"
      "  Downloading http://127.0.0.1:8765/files/demo_pkg-1.0-py3-none-any.whl (701 kB)\n"
      "     \xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81\xe2\x94\x81 701.1/701.1 kB 379.6 MB/s eta 0:00:00\n"
      "Collecting tensorflow[and-cuda]==2.15.*\n"
      "  Downloading tensorflow-2.15.1-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (475.2 MB)\n"
      "Installing collected packages: demo-pkg, tensorflow\n"
      "Successfully installed demo-pkg-1.0 tensorflow-2.15.1\n";
  auto progress = command_progress_for("tensorflow.install", pip_install_argv("/v", {"demo-pkg"}, ""), 2'000'000'000);
  REQUIRE(progress);
  const auto events = feed(*progress, out);
  REQUIRE(events.size() == 7);
  CHECK(events[0] == ev("tensorflow.install", "collecting", "demo-pkg", 0, 2'000'000'000));
  CHECK(events[1] == ev("tensorflow.install", "downloading", "demo_pkg-1.0", 0, 2'000'000'000));
  CHECK(events[2] == ev("tensorflow.install", "downloading", "demo_pkg-1.0", 701100, 2'000'000'000));
  CHECK(events[4] == ev("tensorflow.install", "downloading", "tensorflow-2.15.1", 701000, 2'000'000'000));
  CHECK(events[5] == ev("tensorflow.install", "installing", "", 475901000, 2'000'000'000));
  CHECK(events[6].phase == "installed");
  CHECK(progress_words(events[4]) == "tensorflow.install: downloading tensorflow-2.15.1, 684.6 KiB of 1.9 GiB (0%)");
}

TEST_CASE("pip without a known total says the bytes so far", "[provision][progress]") {
  auto progress = command_progress_for("tensorflow.install", pip_install_argv("/v", {"x"}, ""), std::nullopt);
  REQUIRE(progress);
  const auto events = feed(
      *progress, "  Downloading x-1.0-py3-none-any.whl (12.0 MB)\n  Downloading y-2.0-py3-none-any.whl (1.0 MB)\n");
  REQUIRE(events.size() == 2);
  CHECK(events[1].done == 12'000'000u);
  CHECK_FALSE(events[1].total);
}

TEST_CASE("commands with nothing to read get no reader", "[provision][progress]") {
  CHECK_FALSE(command_progress_for("dpkg.health", dpkg_repair_argv(), std::nullopt));
  CHECK_FALSE(command_progress_for("python.venv", venv_create_argv("python3.10", "/v"), std::nullopt));
}

TEST_CASE("progress events travel as JSON lines and nothing else is taken for one", "[provision][progress]") {
  const ProgressEvent e = ev("cuda.toolkit", "downloading", "libcublas-12-2", 1'200'000'000, 2'800'000'000);
  CHECK(progress_from_line(progress_json(e).dump()) == e);
  const ProgressEvent no_total = ev("cuda.toolkit", "checking", "", std::nullopt, std::nullopt);
  CHECK(progress_from_line(progress_json(no_total).dump()) == no_total);
  CHECK_FALSE(progress_from_line("tfwsl-agent provision: another provision run is in progress (PID 12)"));
  CHECK_FALSE(progress_from_line("{\"recap\": {}}"));
  CHECK_FALSE(progress_from_line("{not json"));
  CHECK(progress_words(no_total) == "cuda.toolkit: checking");
}

TEST_CASE("output in pieces is cut into whole lines", "[provision][progress]") {
  OutputLines lines;
  CHECK(lines.feed("Get:1 a [1 kB]\nGet:2 b").size() == 1);
  const auto rest = lines.feed(" [2 kB]\r\n\rbar 1/2\r");
  REQUIRE(rest.size() == 2);
  CHECK(rest[0] == "Get:2 b [2 kB]");
  CHECK(rest[1] == "bar 1/2");
  CHECK(lines.feed("tail").empty());
  CHECK(lines.finish() == std::vector<std::string>{"tail"});
}

TEST_CASE("podman pull's output off a terminal counts the image's layers, with the plan's total",
          "[provision][progress]") {
  // Recorded: Debian 12's podman 4.3.1 pulling an image from a registry on loopback, stderr, no tty.
  const std::string output =
      "Trying to pull 127.0.0.1:38375/t/x@sha256:ec06423396d9d4ed37800ae612169c9d0554b6c0e8c4d0a37cb58ff3471fb7ff...\n"
      "Getting image source signatures\n"
      "Copying blob sha256:eb6aa03b753bb77cfff85c61bfa2e2f8c9f78cefd57e9ab985f302a6dc663e34\n"
      "Copying blob sha256:0f0e1d2c3b4a59687766554433221100ffeeddccbbaa99887766554433221100 skipped: already exists\n"
      "Copying config sha256:6efdc15c1abe6a694aa31245137191287e4f8e2d79c3cbe32beb14ae808b3b0d\n"
      "Writing manifest to image destination\n"
      "Storing signatures\n";
  auto progress = command_progress_for("container.image", image_pull_argv("r@sha256:x"), 9000000000u);
  REQUIRE(progress);
  const auto events = feed(*progress, output);
  REQUIRE(events.size() == 5);
  CHECK(events[0].item == "the image's layers");
  CHECK(events[1].item == "layer 1 (sha256:eb6aa03b753b)");
  CHECK(events[2].item == "layer 2 (sha256:0f0e1d2c3b4a), already here");
  CHECK(events[3].item == "the image's config");
  CHECK(events[4].phase == "installing");
  for (const auto& e : events) {
    CHECK(e.step == "container.image");
    CHECK(e.total == 9000000000u);
    CHECK_FALSE(e.done);
  }
  CHECK(progress_words(events[1]).find("layer 1") != std::string::npos);
  CHECK(command_progress_for("container.image", image_build_argv("t", "f", "c"), std::nullopt));
  CHECK_FALSE(command_progress_for("container.verify", {"podman", "run", "--rm", "x"}, std::nullopt));
}
