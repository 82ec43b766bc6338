// Compiled by layering.checked-id twice: with a check id of the table (it must compile) and with a
// misspelt one (it must not). TFWSL_PROBE_ID is given on the compiler's command line.
#include <string_view>

#include "common/check/check_rows.hpp"

std::string_view probe_checked_id() { return tfwsl::checked_id(TFWSL_PROBE_ID); }
