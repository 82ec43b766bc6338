# Writes OUTPUT (a .cpp) holding INPUT (profiles/signatures.yaml) as a string, so the program never
# reads the source tree at run time. Chunks of raw string literals keep MSVC's literal limit happy.
file(READ "${INPUT}" _text)
string(LENGTH "${_text}" _length)
set(_chunks "")
set(_offset 0)
while(_offset LESS _length)
  string(SUBSTRING "${_text}" ${_offset} 8000 _chunk)
  string(APPEND _chunks "    R\"tfwsl_sig(${_chunk})tfwsl_sig\"\n")
  math(EXPR _offset "${_offset} + 8000")
endwhile()
file(WRITE "${OUTPUT}.tmp" "// Generated from profiles/signatures.yaml by embed_signatures.cmake: do not edit.\n"
  "#include <string_view>\n\n#include \"common/diagnose/signature_base.hpp\"\n\n"
  "namespace tfwsl::diagnose {\n\nstd::string_view builtin_signatures_yaml() {\n"
  "  static constexpr char k_text[] =\n${_chunks}    \"\";\n"
  "  return std::string_view(k_text, sizeof(k_text) - 1);\n}\n\n}  // namespace tfwsl::diagnose\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
