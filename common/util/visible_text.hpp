#pragma once
// Text from outside (a project's files, a paste, a process's output, the agent's answer) as it may
// reach a person's terminal: every character a terminal acts on instead of showing is written out,
// so an escape sequence, a carriage return or a line break in a file name cannot retitle the
// window, write the clipboard (OSC 52), erase the screen or forge a line of tfwsl's own output.
// Knows nothing of the product.
//
// Written out, in the text's place:
// - C0 controls and DEL: \n, \r, \t, else \xNN (ESC is \x1b);
// - C1 controls U+0080..U+009F (a terminal may take U+009B as CSI): \u0080..\u009f;
// - the Unicode line and paragraph separators and the bidirectional embeddings, overrides and
//   isolates (U+2028, U+2029, U+202A..U+202E, U+2066..U+2069), which reorder or break what is shown:
//   \u2028 ...;
// - a byte that is not part of well-formed UTF-8 (overlong forms, surrogates and values past
//   U+10FFFF included): \xNN.
// Every other character, printable UTF-8 included, is kept as it is. A backslash is kept too: the
// result is for reading, not for parsing back (a Windows path stays C:\Users\x).

#include <string>
#include <string_view>

namespace tfwsl {

// `text` with every character listed above written out; one line whatever `text` holds.
std::string visible_text(std::string_view text);

// True when visible_text(text) differs from text: the text holds something a terminal would act on
// or cannot show. A command holding such an argument cannot be printed both safely and runnable.
bool needs_visible_text(std::string_view text);

}  // namespace tfwsl
