// Text from files, pastes, processes and the agent as it reaches a terminal (issue 38, item 4):
// every character a terminal acts on is written out, printable UTF-8 is kept as it is.
#include "common/util/visible_text.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace tfwsl;

TEST_CASE("visible_text writes out escape sequences, line breaks and other C0 controls", "[visible_text]") {
  CHECK(visible_text("x\x1b]0;OWNED\x07\x1b[1A\x1b[2K") == "x\\x1b]0;OWNED\\x07\\x1b[1A\\x1b[2K");
  CHECK(visible_text("a\nRequirements:\r\tb") == "a\\nRequirements:\\r\\tb");
  CHECK(visible_text(std::string("nul\0end", 7)) == "nul\\x00end");
  CHECK(visible_text("del\x7f") == "del\\x7f");
}

TEST_CASE("visible_text writes out C1 controls, bidirectional overrides and broken UTF-8", "[visible_text]") {
  CHECK(visible_text("csi\xC2\x9b"
                     "2J") == "csi\\u009b2J");  // U+009B, a CSI to some terminals
  CHECK(visible_text("osc\xC2\x9d"
                     "52;c;x\xC2\x9c") == "osc\\u009d52;c;x\\u009c");
  CHECK(visible_text("abc\xE2\x80\xAE"
                     "fdp.exe") == "abc\\u202efdp.exe");  // right-to-left override
  CHECK(visible_text("line\xE2\x80\xA8sep") == "line\\u2028sep");
  CHECK(visible_text("bad\xFF\xC3") == "bad\\xff\\xc3");              // a stray byte, a cut sequence
  CHECK(visible_text("\xC0\x9B") == "\\xc0\\x9b");                    // an overlong ESC is no character
  CHECK(visible_text("\xED\xA0\x80") == "\\xed\\xa0\\x80");           // a surrogate
  CHECK(visible_text("\xF4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST_CASE("visible_text keeps printable text, UTF-8 and backslashes as they are", "[visible_text]") {
  const std::string kept =
      "C:\\Users\\r\xC3\xB6"
      "bert\\caf\xC3\xA9 \xE2\x82\xAC \xE4\xB8\xAD \xF0\x9F\x98\x80 \xC2\xA0~";
  CHECK(visible_text(kept) == kept);
  CHECK_FALSE(needs_visible_text(kept));
  CHECK(needs_visible_text("a\x1b"));
  CHECK(needs_visible_text("a\xC2\x85"));
  CHECK(needs_visible_text("a\x80"));
  CHECK(visible_text(visible_text("\x1b\n\xC2\x9b")) == visible_text("\x1b\n\xC2\x9b"));
}
