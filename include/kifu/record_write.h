/*
 * Writing game records: canonical format-1 YAML (kifu-export, kifu-play,
 * the importers' output), the JSON head of a record (kifu-export --to
 * json), and a YAML scalar that reads back as the string it was given.
 */
#ifndef KIFU_RECORD_WRITE_H
#define KIFU_RECORD_WRITE_H

#include "kifu/buf.h"
#include "kifu/error.h"
#include "kifu/record.h"

struct kifu_replay; /* kifu/replay.h */

/*
 * Appends rec as one canonical YAML document (starting "---") to out:
 * format 1, or format 2 when rec uses its keys (RECORDS.md). With a replay
 * of rec that kept texts (KIFU_VALIDATE_TEXT), moves are written in
 * canonical notation (those of lines and evals' bests when the replay is
 * complete); otherwise as they are in the record.
 * Strings that YAML would type or mangle are quoted. Returns 0 or
 * KIFU_ENOMEM.
 */
int kifu_record_write(struct kifu_buf *out, const struct kifu_record *rec,
		      const struct kifu_replay *rp, struct kifu_error *err);

/*
 * Appends "{" and the members of rec as a JSON object, from "game" to
 * "tags" (kifu-export --to json), without the closing "}": the caller adds
 * its own members (",\n  \"plies\":[...]") and closes it. rp is a complete
 * replay of rec that kept texts (KIFU_VALIDATE_TEXT). Returns 0 or
 * KIFU_ENOMEM.
 */
int kifu_record_write_json_head(struct kifu_buf *out, const struct kifu_record *rec,
				const struct kifu_replay *rp);

/*
 * Appends s as a YAML scalar that reads back as the string s: plain when
 * that is safe, else single- or double-quoted. flow: the scalar stands in
 * a flow collection ({...}).
 */
int kifu_yaml_put_string(struct kifu_buf *out, const char *s, int flow);

#endif
