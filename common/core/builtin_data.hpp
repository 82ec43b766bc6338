#pragma once
// Data built into the binaries (profiles/*.yaml embedded at build time) is part of the program: if
// it does not load, the build is broken, and the program stops at once naming what and why rather
// than running on without the facts.

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "common/core/error.hpp"

namespace tfwsl {

// The loaded value, or (never in a working build) a message on stderr and abort().
template <class T>
T builtin_or_abort(Result<T> loaded, const char* what) {
  if (!loaded) {
    std::fprintf(stderr, "tfwsl: the built-in %s do not load: %s\n", what, loaded.error().describe().c_str());
    std::abort();
  }
  return std::move(*loaded);
}

}  // namespace tfwsl
