/* libFuzzer harness of the apgr reader and writer (see fuzz_format.h). */
#include "import_impl.h"

#define FUZZ_FORMAT kifu_format_apgr_
#include "fuzz_format.h"
