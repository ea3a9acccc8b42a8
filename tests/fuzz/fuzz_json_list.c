/*
 * libFuzzer harness of the move-list reader (lib/util/json_list.c), which
 * reads game_data.moves from database files that may come from strangers:
 * it must never read past its input, and where jansson reads the input as
 * an array of strings and numbers, it must find the same elements.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/json_list.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kifu_json_list l;
	struct kifu_json_item it;
	char *copy = malloc(size), buf[256];
	json_t *all;
	size_t n = 0;
	int r = -1, decoded;

	if (!copy)
		return 0;
	memcpy(copy, data, size); /* exactly size bytes: a read past them is caught */
	all = json_loadb((const char *)data, size, JSON_DISABLE_EOF_CHECK, NULL);
	if (kifu_json_list_open_(&l, copy, size) == 0) {
		while ((r = kifu_json_list_next_(&l, &it)) == 1) {
			json_t *e = json_array_get(all, n++);

			decoded = kifu_json_item_decode_(buf, sizeof(buf), &it);
			if (json_is_string(e) && decoded == 0 && strcmp(buf, json_string_value(e)))
				abort(); /* a string read otherwise than jansson reads it */
			if (json_is_array(all) && it.is_string != json_is_string(e))
				abort();
		}
		if (r == 0 && json_is_array(all) && n != json_array_size(all))
			abort(); /* elements missed or invented */
	}
	json_decref(all);
	free(copy);
	return 0;
}
