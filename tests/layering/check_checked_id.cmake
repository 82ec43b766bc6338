# layering.checked-id: common/check/check_rows.hpp's checked_id holds ids spelled in code to the
# check table as they compile. Builds the probe with a real id (must compile: the control) and with
# a misspelt one (must fail, naming checked_id), through the build tree's own targets.
#   cmake -DBUILD_DIR=... -P check_checked_id.cmake
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target tfwsl_checked_id_probe_known
                RESULT_VARIABLE known_rc OUTPUT_VARIABLE known_out ERROR_VARIABLE known_out)
if(NOT known_rc EQUAL 0)
  message(FATAL_ERROR "the probe with a known id (tf.gpu) did not compile, so the check proves nothing:\n${known_out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target tfwsl_checked_id_probe_misspelt
                RESULT_VARIABLE bad_rc OUTPUT_VARIABLE bad_out ERROR_VARIABLE bad_out)
if(bad_rc EQUAL 0)
  message(FATAL_ERROR "checked_id(\"tf.gpus\") compiled: a misspelt check id would go unnoticed")
endif()
if(NOT bad_out MATCHES "checked_id")
  message(FATAL_ERROR "the misspelt probe failed, but not on checked_id:\n${bad_out}")
endif()
message(STATUS "checked_id: tf.gpu compiles, tf.gpus does not")
