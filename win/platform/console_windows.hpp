#pragma once

namespace tfwsl {

// UTF-8 output code page and VT colour sequences on the Windows console. Returns whether stdout is
// a console (false when redirected to a file or pipe: no colours, no live progress line).
bool setup_windows_console();

}  // namespace tfwsl
