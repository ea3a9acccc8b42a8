/* libFuzzer harness of the pgn reader and writer (see fuzz_format.h). */
#include "import_impl.h"

#define FUZZ_FORMAT kifu_format_pgn_
#include "fuzz_format.h"
