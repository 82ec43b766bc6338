#include "common/wslconfig/wslconfig_document.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "common/text/utf_convert.hpp"

using namespace tfwsl;
using namespace tfwsl::wslconfig;

namespace {

std::string utf16_bytes(const std::string& utf8, bool big_endian, bool bom) {
  std::string bytes = bom ? (big_endian ? std::string("\xFE\xFF") : std::string("\xFF\xFE")) : std::string();
  for (char16_t c : utf8_to_utf16(utf8)) {
    const char lo = static_cast<char>(c & 0xFF);
    const char hi = static_cast<char>(c >> 8);
    bytes.push_back(big_endian ? hi : lo);
    bytes.push_back(big_endian ? lo : hi);
  }
  return bytes;
}

const std::string k_sample =
    "# my settings\r\n"
    "[wsl2]\r\n"
    "Memory = 4GB\r\n"
    "processors=4\r\n"
    "\r\n"
    "; swap below\r\n"
    "[experimental]\r\n"
    "sparseVhd=true\r\n";

}  // namespace

TEST_CASE("an unedited document serializes to the same bytes", "[wslconfig]") {
  for (const std::string& text : {k_sample, std::string("[wsl2]\nmemory=8GB"), std::string(), std::string("\n\n"),
                                  std::string("[wsl2]\r\r\nmemory=8GB\r\n"), std::string("x\xFF\xFEy\n")}) {
    CHECK(Document::parse(text).serialize() == text);
  }
}

TEST_CASE("lines are classified the way wsl.exe reads them", "[wslconfig]") {
  const auto doc = Document::parse("# c\n[wsl2]\nmemory=26GB # limit\n[wsl2] memory=48GB\n\n[ws12]\nswap=0\nfoo bar\n");
  const auto& l = doc.lines();
  REQUIRE(l.size() == 8);
  CHECK(l[0].kind == LineKind::comment);
  CHECK(l[1].kind == LineKind::section);
  CHECK(l[1].section == "wsl2");
  CHECK(l[2].kind == LineKind::key_value);
  CHECK(l[2].value == "26GB");
  CHECK(l[2].inline_comment);
  CHECK(l[3].kind == LineKind::malformed);
  CHECK(l[4].kind == LineKind::blank);
  CHECK(l[5].section == "ws12");
  CHECK(l[6].section == "ws12");
  CHECK(l[7].kind == LineKind::malformed);
}

TEST_CASE("set replaces only the value, keeping key spelling, spacing, CRLF and every other byte", "[wslconfig]") {
  auto doc = Document::parse(k_sample);
  doc.set("wsl2", "memory", "16GB");
  std::string expected = k_sample;
  expected.replace(expected.find("4GB"), 3, "16GB");
  CHECK(doc.serialize() == expected);
  CHECK(doc.get("WSL2", "MEMORY") == std::optional<std::string>("16GB"));
}

TEST_CASE("set keeps an inline comment after the new value", "[wslconfig]") {
  auto doc = Document::parse("[wsl2]\nmemory=26GB # Limits VM memory\n");
  doc.set("wsl2", "memory", "32GB");
  CHECK(doc.serialize() == "[wsl2]\nmemory=32GB # Limits VM memory\n");
}

TEST_CASE("set adds a missing key after the section's last key, with the file's line end", "[wslconfig]") {
  auto doc = Document::parse(k_sample);
  doc.set("wsl2", "swap", "0");
  std::string expected = k_sample;
  expected.insert(expected.find("\r\n\r\n; swap") + 2, "swap=0\r\n");
  CHECK(doc.serialize() == expected);
}

TEST_CASE("set adds the section when it is absent, a file without a last line end keeps it so", "[wslconfig]") {
  auto a = Document::parse("[experimental]\nsparseVhd=true");
  a.set("wsl2", "memory", "16GB");
  CHECK(a.serialize() == "[experimental]\nsparseVhd=true\n[wsl2]\nmemory=16GB");
  auto b = Document::parse("");
  b.set("wsl2", "memory", "16GB");
  CHECK(b.serialize() == "[wsl2]\r\nmemory=16GB\r\n");
  auto c = Document::parse("[wsl2]\nmemory=6GB\nswapFile=D:\\\\swap.vhdx");
  c.set("wsl2", "processors", "8");
  CHECK(c.serialize() == "[wsl2]\nmemory=6GB\nswapFile=D:\\\\swap.vhdx\nprocessors=8");
}

TEST_CASE("a key in a misspelt section or before any section is not the key", "[wslconfig]") {
  auto doc = Document::parse("memory=2GB\n[ws12]\nmemory=4GB\n");
  CHECK_FALSE(doc.get("wsl2", "memory").has_value());
  doc.set("wsl2", "memory", "16GB");
  CHECK(doc.serialize() == "memory=2GB\n[ws12]\nmemory=4GB\n[wsl2]\nmemory=16GB\n");
}

TEST_CASE("the last assignment wins, and set changes that one", "[wslconfig]") {
  auto doc = Document::parse("[wsl2]\nmemory=4GB\n[wsl2]\nmemory=8GB\n");
  CHECK(doc.get("wsl2", "memory") == std::optional<std::string>("8GB"));
  CHECK(doc.line_of("wsl2", "memory") == 4);
  doc.set("wsl2", "memory", "12GB");
  CHECK(doc.serialize() == "[wsl2]\nmemory=4GB\n[wsl2]\nmemory=12GB\n");
}

TEST_CASE("unset removes every assignment of the key and nothing else", "[wslconfig]") {
  auto doc = Document::parse("[wsl2]\nmemory=4GB\nprocessors=2\nMEMORY=8GB");
  CHECK(doc.unset("wsl2", "memory") == 2);
  CHECK(doc.serialize() == "[wsl2]\nprocessors=2");
  CHECK(doc.unset("wsl2", "memory") == 0);
  CHECK(doc.unset("experimental", "processors") == 0);
}

TEST_CASE("UTF-8 with BOM and UTF-16LE/BE (with BOM and without) come out as UTF-8 without BOM", "[wslconfig]") {
  const std::string text = "# caf\xC3\xA9 \xE2\x82\xAC\r\n[wsl2]\r\nmemory=48GB\r\n";
  const std::vector<std::pair<std::string, FileEncoding>> inputs{
      {"\xEF\xBB\xBF" + text, FileEncoding::utf8_bom},
      {utf16_bytes(text, false, true), FileEncoding::utf16le_bom},
      {utf16_bytes(text, true, true), FileEncoding::utf16be_bom},
      {utf16_bytes(text, false, false), FileEncoding::utf16le},
      // Read as UTF-8 before: set then wrote a file mixing UTF-16BE and UTF-8 (issue 22, item 16).
      {utf16_bytes(text, true, false), FileEncoding::utf16be},
  };
  for (const auto& [bytes, encoding] : inputs) {
    INFO(to_string(encoding));
    auto doc = Document::parse(bytes);
    CHECK(doc.encoding() == encoding);
    CHECK(doc.serialize() == text);
    CHECK(doc.get("wsl2", "memory") == std::optional<std::string>("48GB"));
    doc.set("wsl2", "memory", "16GB");
    CHECK(doc.serialize() == "# caf\xC3\xA9 \xE2\x82\xAC\r\n[wsl2]\r\nmemory=16GB\r\n");
  }
  CHECK(Document::parse(text).encoding() == FileEncoding::utf8);
  CHECK(Document::parse("[wsl2]\nmemory=4GB # \xE9t\xE9\n").encoding() == FileEncoding::invalid_utf8);
}

TEST_CASE("a UTF-8 BOM file whose text is not UTF-8 is written back as text, never as a UTF-16 BOM") {
  // Found by fuzz_wslconfig: the body after the BOM began with FF FE; written back without the BOM
  // those bytes read as a UTF-16LE byte-order mark and the edited memory= vanished.
  const std::string bytes = std::string("\xEF\xBB\xBF\xFF\xFE\xFE\xDB", 7);
  Document doc = Document::parse(bytes);
  CHECK(doc.encoding() == FileEncoding::utf8_bom);
  doc.set("wsl2", "memory", "16GB");
  const std::string out = doc.serialize();
  CHECK(out.rfind("\xFF\xFE", 0) != 0);
  CHECK(tfwsl::is_valid_utf8(out));
  CHECK(Document::parse(out).get("wsl2", "memory") == std::optional<std::string>("16GB"));
}

TEST_CASE("a BOM written twice is one BOM: the header after it is read, and the file written has none", "[wslconfig]") {
  // fuzz_wslconfig's finding (tests/fuzz/regressions/fuzz_wslconfig/bom-twice-then-unset): the
  // second BOM became the written file's first, so the next read took "[wsl2]" for a header and
  // found a key that an unset had just "removed".
  const std::string twice = "\xEF\xBB\xBF\xEF\xBB\xBF[wsl2]\nmemory=8G\n";
  Document doc = Document::parse(twice);
  CHECK(doc.encoding() == FileEncoding::utf8_bom);
  CHECK(doc.get("wsl2", "memory") == std::optional<std::string>("8G"));
  doc.set("wsl2", "swap", "0");
  CHECK_FALSE(doc.serialize().starts_with("\xEF\xBB\xBF"));
  CHECK(doc.unset("wsl2", "memory") == 1);
  const std::string written = doc.serialize();
  CHECK(written == "[wsl2]\nswap=0\n");
  CHECK_FALSE(Document::parse(written).get("wsl2", "memory").has_value());
  // The same in UTF-16: a U+FEFF after the BOM is not text.
  const std::string utf16 = std::string("\xFF\xFE\xFF\xFE", 4) + utf16_bytes("[wsl2]\nmemory=8G\n", false, false);
  CHECK(Document::parse(utf16).get("wsl2", "memory") == std::optional<std::string>("8G"));
  CHECK_FALSE(Document::parse(utf16).serialize().starts_with("\xEF\xBB\xBF"));
}
