#include "common/text/console_decoder.hpp"

#include <catch2/catch.hpp>

#include "tests/support/utf16_bytes.hpp"

using namespace tfwsl;

TEST_CASE("wsl.exe's UTF-16LE pipe output is detected by NUL interleaving", "[decoder]") {
  std::string raw = tfwsl::test::ascii_as_utf16le(
      "  NAME            STATE           VERSION\r\n* Ubuntu-22.04    Running         2\r\n");
  auto decoded = decode_console_output(raw);
  CHECK(decoded.encoding == ConsoleEncoding::utf16le);
  CHECK(decoded.text == "  NAME            STATE           VERSION\r\n* Ubuntu-22.04    Running         2\r\n");
}

TEST_CASE("UTF-16LE with non-ASCII text (German, Chinese) decodes", "[decoder]") {
  // "Standardverteilung: Ubuntu" then "默认分发: Ubuntu" as UTF-16LE with a BOM
  std::u16string text = u"Standard: Ubuntu\r\n\u9ED8\u8BA4\u5206\u53D1: Ubuntu";
  std::string raw = "\xFF\xFE";
  for (char16_t c : text) {
    raw += static_cast<char>(c & 0xFF);
    raw += static_cast<char>(c >> 8);
  }
  auto decoded = decode_console_output(raw);
  CHECK(decoded.encoding == ConsoleEncoding::utf16le_bom);
  CHECK(decoded.text == "Standard: Ubuntu\r\n\xE9\xBB\x98\xE8\xAE\xA4\xE5\x88\x86\xE5\x8F\x91: Ubuntu");
}

TEST_CASE("UTF-8 passes through, a UTF-8 BOM is removed", "[decoder]") {
  CHECK(decode_console_output("Default Distribution: Ubuntu\n").encoding == ConsoleEncoding::utf8);
  auto bom = decode_console_output("\xEF\xBB\xBFWSL version: 2.0.9.0");
  CHECK(bom.encoding == ConsoleEncoding::utf8_bom);
  CHECK(bom.text == "WSL version: 2.0.9.0");
}

TEST_CASE("UTF-16BE with a BOM decodes", "[decoder]") {
  auto decoded = decode_console_output(std::string("\xFE\xFF\0o\0k", 6));
  CHECK(decoded.encoding == ConsoleEncoding::utf16be_bom);
  CHECK(decoded.text == "ok");
}

TEST_CASE("empty, one-byte and binary input never crash", "[decoder]") {
  CHECK(decode_console_output("").text.empty());
  CHECK(decode_console_output("x").text == "x");
  std::string binary;
  for (int i = 0; i < 256; ++i) binary += static_cast<char>(i);
  CHECK_NOTHROW(decode_console_output(binary));
}

TEST_CASE("UTF-16BE without a BOM is detected by NUL bytes in even positions", "[decoder]") {
  const std::string text = "[wsl2]\r\nmemory=8GB\r\n";
  std::string be;
  for (char c : text) be += std::string{'\0', c};
  const auto decoded = decode_console_output(be);
  CHECK(decoded.encoding == ConsoleEncoding::utf16be);
  CHECK(decoded.text == text);
}
