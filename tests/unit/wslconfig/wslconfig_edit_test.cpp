// `tfwsl wslconfig set/unset` as plans: where a key goes, what is refused and why, the diff.
#include "common/wslconfig/wslconfig_edit.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;
using namespace tfwsl::wslconfig;

namespace {

const std::string k_edit_sample =
    "# mine\r\n[wsl2]\r\nmemory=8GB\r\nprocessors=4\r\n\r\n[experimental]\r\nnetworkingMode=mirrored\r\n";

Result<EditPlan> plan_set(const std::string& bytes, const std::string& assignment,
                          std::optional<std::uint64_t> ram = std::nullopt) {
  const Document doc = Document::parse(bytes);
  auto a = parse_assignment(assignment, doc);
  if (!a) return tl::unexpected(a.error());
  return plan_edit(doc, bytes, {*a}, {}, EditOptions{ram});
}

}  // namespace

TEST_CASE("keys go to the section WSL reads them from", "[wslconfig][edit]") {
  const Document doc = Document::parse(k_edit_sample);
  CHECK(resolve_key("memory", doc)->section == "wsl2");
  CHECK(resolve_key("MEMORY", doc)->key == "memory");
  CHECK(resolve_key("sparseVhd", doc)->section == "experimental");
  // Read in both sections: stays where the file has it, else [wsl2].
  CHECK(resolve_key("networkingMode", doc)->section == "experimental");
  CHECK(resolve_key("firewall", doc)->section == "wsl2");
  CHECK(resolve_key("wsl2.networkingMode", doc)->section == "wsl2");
}

TEST_CASE("unknown keys and sections are refused with a suggestion", "[wslconfig][edit]") {
  const Document doc = Document::parse(k_edit_sample);
  auto typo = resolve_key("memroy", doc);
  REQUIRE_FALSE(typo);
  CHECK(typo.error().message.find("did you mean 'memory'") != std::string::npos);
  auto wrong_section = resolve_key("boot.memory", doc);
  REQUIRE_FALSE(wrong_section);
  CHECK(wrong_section.error().message.find("not a .wslconfig section") != std::string::npos);
  CHECK_FALSE(parse_assignment("memory", doc));
  CHECK(parse_assignment("memory=", doc).error().message.find("unset memory") != std::string::npos);
}

TEST_CASE("set changes the one value and keeps every other byte", "[wslconfig][edit]") {
  auto plan = plan_set(k_edit_sample, "memory=16GB");
  REQUIRE(plan);
  CHECK(plan->new_bytes ==
        "# mine\r\n[wsl2]\r\nmemory=16GB\r\nprocessors=4\r\n\r\n[experimental]\r\nnetworkingMode=mirrored\r\n");
  REQUIRE(plan->changes.size() == 1);
  CHECK(plan->changes[0].before == "8GB");
  CHECK(plan->changes[0].after == "16GB");
  CHECK(plan->changes[0].line == 3);
  CHECK(plan->changes_bytes);
  CHECK(line_diff(k_edit_sample, plan->new_bytes) == "-3: memory=8GB\n+3: memory=16GB\n");
}

TEST_CASE("setting the value the file has changes nothing", "[wslconfig][edit]") {
  auto plan = plan_set(k_edit_sample, "memory=8GB");
  REQUIRE(plan);
  CHECK_FALSE(plan->changes_bytes);
  CHECK(line_diff(k_edit_sample, plan->new_bytes).empty());
}

TEST_CASE("memory above the machine's RAM is refused with the reason", "[wslconfig][edit]") {
  auto plan = plan_set(k_edit_sample, "memory=64TB", 16ULL << 30);
  REQUIRE_FALSE(plan);
  CHECK(plan.error().code == ErrorCode::invalid_input);
  CHECK(plan.error().message.find("more than this machine's 16.0 GiB of RAM") != std::string::npos);
  CHECK(plan.error().message.find("at most 16GB") != std::string::npos);
  CHECK(plan_set(k_edit_sample, "memory=16GB", 16ULL << 30));
}

TEST_CASE("sizes and values WSL does not accept are explained", "[wslconfig][edit]") {
  auto lower = plan_set(k_edit_sample, "memory=16gb");
  REQUIRE_FALSE(lower);
  CHECK(lower.error().message.find("upper-case unit") != std::string::npos);
  auto spaced = plan_set(k_edit_sample, "swap=4 GB");
  REQUIRE_FALSE(spaced);
  CHECK(spaced.error().message.find("not a size WSL accepts") != std::string::npos);
  auto boolean = plan_set(k_edit_sample, "sparseVhd=yes");
  REQUIRE_FALSE(boolean);
  CHECK(boolean.error().message.find("true or false") != std::string::npos);
  CHECK_FALSE(plan_set(k_edit_sample, "processors=four"));
  CHECK_FALSE(plan_set(k_edit_sample, "kernelCommandLine=a\nb"));
}

TEST_CASE("unset removes the key's lines and says what it was", "[wslconfig][edit]") {
  const Document doc = Document::parse(k_edit_sample);
  auto plan = plan_edit(doc, k_edit_sample, {}, {*resolve_key("processors", doc)}, {});
  REQUIRE(plan);
  CHECK(plan->new_bytes.find("processors") == std::string::npos);
  CHECK(plan->changes[0].before == "4");
  CHECK_FALSE(plan->changes[0].after);
  CHECK(plan->changes[0].line == 0);
  CHECK(line_diff(k_edit_sample, plan->new_bytes) == "-4: processors=4\n");
}

TEST_CASE("a key of a section the file lacks adds the section", "[wslconfig][edit]") {
  const std::string bytes = "[wsl2]\nmemory=8GB\n";
  auto plan = plan_set(bytes, "sparseVhd=true");
  REQUIRE(plan);
  CHECK(plan->new_bytes == "[wsl2]\nmemory=8GB\n[experimental]\nsparseVhd=true\n");
  CHECK(line_diff(bytes, plan->new_bytes) == "+3: [experimental]\n+4: sparseVhd=true\n");
}

// Issue 22, item 15: the lint was of the file as read, so rewriting a UTF-16 or BOM file as UTF-8
// still reported "the file is utf-16le with BOM" (and set exited 1).
TEST_CASE("set lints what it writes, not the bytes it read", "[wslconfig][edit]") {
  const std::string text = "[wsl2]\r\nmemory=8GB\r\n";
  std::string utf16 = "\xFF\xFE";
  for (char c : text) utf16 += std::string{c, '\0'};
  for (const std::string& bytes : {utf16, "\xEF\xBB\xBF" + text}) {
    auto plan = plan_set(bytes, "memory=16GB");
    REQUIRE(plan);
    CHECK(plan->new_bytes == "[wsl2]\r\nmemory=16GB\r\n");
    CHECK(plan->changes_bytes);
    for (const Finding& f : plan->findings) CHECK(f.id != "wslconfig.encoding");
  }
  // What stays wrong after the write is still reported: bytes that are not UTF-8 are kept as they are.
  auto invalid = plan_set("[wsl2]\nmemory=8GB # \xE9t\xE9\n", "memory=16GB");
  REQUIRE(invalid);
  bool encoding_reported = false;
  for (const Finding& f : invalid->findings) encoding_reported |= f.id == "wslconfig.encoding";
  CHECK(encoding_reported);
}

// A file of a megabyte (the most `wslconfig` reads) made the line table quadratic: 200,000 lines
// ran for minutes. The lines both texts share at the start and the end are left out of it.
TEST_CASE("the diff of a long file is only its changed lines, at once", "[wslconfig][edit]") {
  std::string old_text = "[wsl2]\n";
  for (int i = 0; i < 100000; ++i) old_text += "# padding\n";
  const std::string new_text = "[wsl2]\nmemory=16GB\n" + old_text.substr(7) + "swap=0\n";
  CHECK(line_diff(old_text, new_text) == "+2: memory=16GB\n+100003: swap=0\n");
  CHECK(line_diff(old_text, old_text).empty());
}
