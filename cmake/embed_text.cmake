# Embeds one text file (a profiles/ data file that is not a profile) into a library as a function
# returning a std::string_view, so the program never reads the source tree at run time. Pure CMake,
# so the MinGW cross build works the same way. Chunks of raw string literals keep MSVC's literal
# limit happy.
#
# Build use:   tfwsl_embed_text(TARGET <lib> INPUT <file> HEADER <include> FUNCTION <ns::name>)
#              adds <lib>'s generated source, remade whenever INPUT changes; HEADER declares the
#              function (`std::string_view name();` in namespace ns).
# Script use:  cmake -DINPUT=... -DOUTPUT=... -DHEADER=... -DFUNCTION=ns::name -P embed_text.cmake

set(_TFWSL_EMBED_TEXT_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

function(tfwsl_embed_text)
  cmake_parse_arguments(E "" "TARGET;INPUT;HEADER;FUNCTION" "" ${ARGN})
  get_filename_component(_stem "${E_INPUT}" NAME_WE)
  set(_output "${CMAKE_CURRENT_BINARY_DIR}/${_stem}_data.cpp")
  file(RELATIVE_PATH _shown "${PROJECT_SOURCE_DIR}" "${E_INPUT}")
  add_custom_command(
    OUTPUT "${_output}"
    COMMAND "${CMAKE_COMMAND}" "-DINPUT=${E_INPUT}" "-DOUTPUT=${_output}" "-DHEADER=${E_HEADER}"
            "-DFUNCTION=${E_FUNCTION}" "-DSHOWN=${_shown}" -P "${_TFWSL_EMBED_TEXT_SCRIPT}"
    DEPENDS "${E_INPUT}" "${_TFWSL_EMBED_TEXT_SCRIPT}"
    COMMENT "Embedding ${_shown}"
    VERBATIM)
  target_sources(${E_TARGET} PRIVATE "${_output}")
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED OUTPUT)
  string(REGEX MATCH "^(.*)::([^:]+)$" _ "${FUNCTION}")
  set(_namespace "${CMAKE_MATCH_1}")
  set(_name "${CMAKE_MATCH_2}")
  file(READ "${INPUT}" _text)
  string(LENGTH "${_text}" _length)
  set(_chunks "")
  set(_offset 0)
  while(_offset LESS _length)
    string(SUBSTRING "${_text}" ${_offset} 8000 _chunk)
    string(APPEND _chunks "    R\"tfwsl_text(${_chunk})tfwsl_text\"\n")
    math(EXPR _offset "${_offset} + 8000")
  endwhile()
  file(WRITE "${OUTPUT}.tmp" "// Generated from ${SHOWN} by cmake/embed_text.cmake: do not edit.\n"
    "#include <string_view>\n\n#include \"${HEADER}\"\n\n"
    "namespace ${_namespace} {\n\nstd::string_view ${_name}() {\n"
    "  static constexpr char k_text[] =\n${_chunks}    \"\";\n"
    "  return std::string_view(k_text, sizeof(k_text) - 1);\n}\n\n}  // namespace ${_namespace}\n")
  file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
  file(REMOVE "${OUTPUT}.tmp")
endif()
