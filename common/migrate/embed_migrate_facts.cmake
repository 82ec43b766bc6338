# Writes OUTPUT (a .cpp) holding INPUT (profiles/migrate.yaml) as a string, so the program never
# reads the source tree at run time. Chunks of raw string literals keep MSVC's literal limit happy.
file(READ "${INPUT}" _text)
string(LENGTH "${_text}" _length)
set(_chunks "")
set(_offset 0)
while(_offset LESS _length)
  string(SUBSTRING "${_text}" ${_offset} 8000 _chunk)
  string(APPEND _chunks "    R\"tfwsl_mig(${_chunk})tfwsl_mig\"\n")
  math(EXPR _offset "${_offset} + 8000")
endwhile()
file(WRITE "${OUTPUT}.tmp" "// Generated from profiles/migrate.yaml by embed_migrate_facts.cmake: do not edit.\n"
  "#include <string_view>\n\n#include \"common/migrate/migrate_facts.hpp\"\n\n"
  "namespace tfwsl::migrate {\n\nstd::string_view builtin_migrate_facts_yaml() {\n"
  "  static constexpr char k_text[] =\n${_chunks}    \"\";\n"
  "  return std::string_view(k_text, sizeof(k_text) - 1);\n}\n\n}  // namespace tfwsl::migrate\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
