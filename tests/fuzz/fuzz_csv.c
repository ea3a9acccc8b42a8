/* libFuzzer harness of the csv reader and writer (see fuzz_format.h). */
#include "import_impl.h"

#define FUZZ_FORMAT kifu_format_csv_
#include "fuzz_format.h"
