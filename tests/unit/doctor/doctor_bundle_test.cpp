// `tfwsl doctor --bundle`: the redaction of user names and tokens, and the tar archive itself
// (read back member by member: names, sizes, header checksums, the two closing zero blocks).
#include "win/tasks/doctor_bundle.hpp"

#include <catch2/catch.hpp>
#include <cstring>

#include "common/text/utf_convert.hpp"
#include "common/util/ascii.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
using tfwsl::cli::redact;

TEST_CASE("redact: a user name is replaced as a whole path component or word, never inside another word") {
  const std::vector<std::string> users{"me"};
  CHECK(redact("C:\\Users\\me\\AppData", users) == "C:\\Users\\<user>\\AppData");
  CHECK(redact("/home/me/data", users) == "/home/<user>/data");
  CHECK(redact("user me logged in", users) == "user <user> logged in");
  CHECK(redact("me", users) == "<user>");
  // Inside other words it stays: memory, some, name, "me2".
  CHECK(redact("memory: 16 GiB, some name, me2", users) == "memory: 16 GiB, some name, me2");
  CHECK(redact("{\"path\":\"/home/me\"}", users) == "{\"path\":\"/home/<user>\"}");
}

TEST_CASE("redact: names with dots or dashes, several names, and one-letter names") {
  CHECK(redact("C:\\Users\\jane.doe\\x jane.doex", {"jane.doe"}) == "C:\\Users\\<user>\\x jane.doex");
  CHECK(redact("/home/ann-lee/ann-leer", {"ann-lee"}) == "/home/<user>/ann-leer");
  CHECK(redact("/home/bob and /home/alice", {"alice", "bob"}) == "/home/<user> and /home/<user>");
  // A one-letter name would blank too much as a word; it is left alone there. A home folder's name
  // is the user's whatever its length (issue 38, item 5).
  CHECK(redact("a b a", {"a"}) == "a b a");
  CHECK(redact("/home/a/x", {"a"}) == "/home/<user>/x");
}

TEST_CASE("redact: runs of 32 or more hex digits become <redacted>, shorter ones stay") {
  const std::string token(64, 'a');
  CHECK(redact("token " + token + " end", {}) == "token <redacted> end");
  CHECK(redact("driver 546.80 build 22631", {}) == "driver 546.80 build 22631");
  CHECK(redact(std::string(31, 'f'), {}) == std::string(31, 'f'));
}

namespace {

struct TarMember {
  std::string name;
  std::string data;
};

unsigned long long octal_field(const std::string& block, std::size_t at, std::size_t size) {
  return std::stoull(std::string(block.data() + at, strnlen(block.data() + at, size)), nullptr, 8);
}

// A strict ustar reader: each header's checksum, the "ustar" magic, regular files only, data padded to
// 512 bytes, and the two zero blocks at the end.
std::vector<TarMember> read_tar(const std::string& archive) {
  std::vector<TarMember> members;
  REQUIRE(archive.size() % 512 == 0);
  std::size_t at = 0;
  while (true) {
    REQUIRE(at + 512 <= archive.size());
    const std::string block = archive.substr(at, 512);
    if (block == std::string(512, '\0')) break;
    std::string for_sum = block;
    std::fill(for_sum.begin() + 148, for_sum.begin() + 156, ' ');
    unsigned sum = 0;
    for (unsigned char c : for_sum) sum += c;
    CHECK(octal_field(block, 148, 8) == sum);
    CHECK(block.compare(257, 5, "ustar") == 0);
    CHECK(block[156] == '0');
    const auto size = octal_field(block, 124, 12);
    TarMember m{std::string(block.data(), strnlen(block.data(), 100)), archive.substr(at + 512, size)};
    members.push_back(m);
    at += 512 + (size + 511) / 512 * 512;
  }
  CHECK(archive.substr(at) == std::string(1024, '\0'));
  return members;
}

doctor::DoctorResult sample_result() {
  doctor::DoctorResult result;
  CheckResult agent = make_check("wsl.agent", CheckStatus::ok, "tfwsl-agent 0.1.0 in Ubuntu over http");
  agent.details = {"token " + std::string(64, 'c'), "memory seen by me"};
  result.report.checks = {agent, make_check("wsl.distro", CheckStatus::warn, "C:\\Users\\me\\AppData", "fix it")};
  result.facts = {{"wslconfig", {{"path", "C:\\Users\\me\\.wslconfig"}}}, {"memory", "some"}};
  result.wsl_starts = 3;
  result.elapsed = std::chrono::milliseconds(1234);
  return result;
}

}  // namespace

TEST_CASE("the bundle is a valid tar of summary.json, facts.json and report.txt, all three redacted") {
  auto members = read_tar(cli::doctor_bundle_archive(sample_result(), {"me"}));
  REQUIRE(members.size() == 4);
  CHECK(members[0].name == "tfwsl-doctor/summary.json");
  CHECK(members[1].name == "tfwsl-doctor/facts.json");
  CHECK(members[2].name == "tfwsl-doctor/report.txt");

  auto summary = nlohmann::json::parse(members[0].data);
  CHECK(summary["wsl_starts"] == 3);
  CHECK(summary["elapsed_ms"] == 1234);
  REQUIRE(summary["checks"].size() == 2);
  CHECK(summary["checks"][1]["summary"] == "C:\\Users\\<user>\\AppData");
  auto facts = nlohmann::json::parse(members[1].data);
  CHECK(facts["wslconfig"]["path"] == "C:\\Users\\<user>\\.wslconfig");
  CHECK(facts["memory"] == "some");
  for (const auto& m : members) {
    INFO(m.name);
    CHECK(m.data.find(std::string(64, 'c')) == std::string::npos);
    CHECK(m.data.find("\\me\\") == std::string::npos);
  }
  CHECK(members[2].data.find("memory seen by <user>") != std::string::npos);
  CHECK(members[2].data.find("<redacted>") != std::string::npos);
}

TEST_CASE("write_doctor_bundle writes the archive, and an unwritable path is an error naming it") {
  tfwsl::test::TempDir dir;
  const auto path = dir.path() / "bundle.tar";
  REQUIRE(cli::write_doctor_bundle(path_to_utf8(path), sample_result()));
  auto members = read_tar(tfwsl::test::read_file(path));
  CHECK(members.size() == 4);
  auto bad = cli::write_doctor_bundle(path_to_utf8(dir.path() / "missing" / "bundle.tar"), sample_result());
  REQUIRE(!bad);
  CHECK(bad.error().message.find("missing") != std::string::npos);
}

TEST_CASE("doctor --bundle replaces only a bundle tfwsl wrote: another file is refused by name and keeps its bytes") {
  tfwsl::test::TempDir dir;
  const auto notes = dir.path() / "notes.txt";
  tfwsl::test::write_file(notes, "my own notes");
  auto refused = cli::check_bundle_destination(path_to_utf8(notes));
  REQUIRE(!refused);
  CHECK(refused.error().message.find("notes.txt exists and is not a bundle tfwsl wrote") != std::string::npos);
  CHECK(!cli::write_doctor_bundle(path_to_utf8(notes), sample_result()));
  CHECK(tfwsl::test::read_file(notes) == "my own notes");

  const auto bundle = dir.path() / "bundle.tar";
  REQUIRE(cli::write_doctor_bundle(path_to_utf8(bundle), sample_result()));
  REQUIRE(cli::check_bundle_destination(path_to_utf8(bundle)));  // an earlier bundle may be replaced
  REQUIRE(cli::write_doctor_bundle(path_to_utf8(bundle), sample_result()));
  CHECK(read_tar(tfwsl::test::read_file(bundle)).size() == 4);
  // The folder probe leaves nothing behind.
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 2);
}

// Issue 38, item 5: with USERNAME=Robert the bundle kept the distro user's home (/home/rt3bob), a
// project under it and the Windows profile folder in lower case (/mnt/c/Users/robert/...).
TEST_CASE("the bundle redacts the Windows user, the distro user and every home path, in any case, and says so") {
  doctor::DoctorResult result;
  CheckResult data =
      make_check("data.location", CheckStatus::warn, "on a Windows drive: /mnt/c/Users/robert/datasets/x",
                 "tfwsl data push 'C:\\Users\\ROBERT\\datasets\\x'");
  data.details = {"/home/rt3bob/project: the distro's own filesystem", "owner rt3bob, uid 1000; Robert's laptop"};
  result.report.checks = {data};
  result.facts = {{"agent", {{"info", {{"home", "/home/rt3bob"}, {"uid", 1000}}}}},
                  {"system", {{"data_paths", {"/home/rt3bob/project", "/mnt/c/Users/robert/Documents/x"}}}},
                  {"wsl", {{"unc", "\\\\wsl.localhost\\Ubuntu\\home\\rt3bob"}}},
                  {"wslconfig", {{"path", "C:\\Users\\Robert\\.wslconfig"}}}};
  auto members = read_tar(cli::doctor_bundle_archive(result, {"Robert"}));
  REQUIRE(members.size() == 4);
  for (const auto& m : members) {
    INFO(m.name << ":\n" << m.data);
    CHECK(m.data.find("rt3bob") == std::string::npos);
    CHECK(ascii_lower(m.data).find("robert") == std::string::npos);
  }
  const auto facts = nlohmann::json::parse(members[1].data);
  CHECK(facts["agent"]["info"]["home"] == "/home/<user>");
  CHECK(facts["system"]["data_paths"][0] == "/home/<user>/project");
  CHECK(facts["system"]["data_paths"][1] == "/mnt/c/Users/<user>/Documents/x");
  CHECK(facts["wsl"]["unc"] == "\\\\wsl.localhost\\Ubuntu\\home\\<user>");
  CHECK(facts["wslconfig"]["path"] == "C:\\Users\\<user>\\.wslconfig");
  CHECK(members[2].data.find("owner <user>, uid 1000; <user>'s laptop") != std::string::npos);
  CHECK(members[3].name == "tfwsl-doctor/README.txt");
  CHECK(members[3].data.find("Redacted (each replaced by <user> or <redacted>):\n- Windows user name\n- distro user "
                             "name\n- home paths\n") != std::string::npos);
}

TEST_CASE("redact: Windows's shared profile folders stay, a profile folder with a space goes whole") {
  CHECK(redact("C:\\Users\\Public\\x and C:\\Users\\Default\\y", {}) ==
        "C:\\Users\\Public\\x and C:\\Users\\Default\\y");
  CHECK(redact("C:\\Users\\Jane Doe\\AppData", {}) == "C:\\Users\\<user>\\AppData");
  CHECK(redact("/HOME/Ann and /home/ann", {}) == "/HOME/<user> and /home/<user>");
}
