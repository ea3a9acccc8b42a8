/*
 * The apgr writer (INTEROP.md "apgr", formats/apgr.md): one JSON object per
 * record, a JSON array when there are several, valid against Abstract
 * Play's schema "AP Game Record" 1-0-0: the required header keys (site
 * `unknown` when the record has none, dates as date-times), players in
 * seating order (turn order from the side that moves first) with the
 * extra properties `side` and `rating` the schema allows, moves in rounds
 * of one entry per seat (null for a seat that did not move), and the extra
 * header object `kifu` with everything the schema has no place for, so
 * that reading the output back gives the same record. The time of writing
 * is SOURCE_DATE_EPOCH when set (reproducible output), else the clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import_impl.h"
#include "json_pos.h"

/*
 * Whether s, written bare, is a JSON number that the reader turns back into
 * the same text and type: parsed by jansson and formatted as the reader
 * formats it ("-0", "1.50" or "0x1F" are not).
 */
static int json_number_ok(const char *s, int is_float)
{
	json_t *v;
	char buf[64];
	int ok;

	if (!((s[0] >= '0' && s[0] <= '9') || (s[0] == '-' && s[1] >= '0' && s[1] <= '9')) ||
	    strlen(s) > 40)
		return 0;
	v = json_loads(s, JSON_DECODE_ANY, NULL);
	if (!v)
		return 0;
	ok = (is_float ? json_is_real(v) : json_is_integer(v));
	if (ok) {
		kifu_apgr_number_text_(v, buf, sizeof(buf));
		ok = !strcmp(buf, s);
	}
	json_decref(v);
	return ok;
}

static void put_tag_value(struct kifu_buf *out, const struct kifu_tag *t)
{
	switch (t->type) {
	case KIFU_SCALAR_INT:
	case KIFU_SCALAR_FLOAT:
		if (json_number_ok(t->value, t->type == KIFU_SCALAR_FLOAT)) {
			kifu_buf_puts(out, t->value);
			return;
		}
		break;
	case KIFU_SCALAR_BOOL:
		if (!strcmp(t->value, "true") || !strcmp(t->value, "false")) {
			kifu_buf_puts(out, t->value);
			return;
		}
		break;
	case KIFU_SCALAR_NULL:
		if (!strcmp(t->value, "null")) {
			kifu_buf_puts(out, "null");
			return;
		}
		break;
	case KIFU_SCALAR_STR:
		kifu_buf_json_string(out, t->value);
		return;
	default:
		break;
	}
	/* a plain YAML scalar JSON has no literal for ("0x1F", "on", "~", a date) */
	kifu_buf_puts(out, "{\"yaml\": ");
	kifu_buf_json_string(out, t->value);
	kifu_buf_putc(out, '}');
}

static void put_member(struct kifu_buf *out, const char *indent, const char *key, const char *value,
		       int *first)
{
	if (!value)
		return;
	kifu_buf_printf(out, "%s\n%s\"%s\": ", *first ? "" : ",", indent, key);
	kifu_buf_json_string(out, value);
	*first = 0;
}

static void put_kifu(struct kifu_buf *out, const struct kifu_record *rec,
		     const struct kifu_replay *rp)
{
	const char *term = kifu_record_termination(rec);
	int first = 1;
	size_t i, xi;

	kifu_buf_puts(out, ",\n    \"kifu\": {");
	put_member(out, "      ", "result", kifu_record_result(rec), &first);
	put_member(out, "      ", "termination", term, &first);
	put_member(out, "      ", "date", rec->date, &first);
	put_member(out, "      ", "first", rec->first, &first);
	put_member(out, "      ", "annotator", rec->annotator, &first);
	put_member(out, "      ", "source", rec->source, &first);
	if (rec->ntags) {
		kifu_buf_puts(out, ",\n      \"tags\": {");
		for (i = 0; i < rec->ntags; i++) {
			kifu_buf_puts(out, i ? ", " : "");
			kifu_buf_json_string(out, rec->tags[i].key);
			kifu_buf_puts(out, ": ");
			put_tag_value(out, &rec->tags[i]);
		}
		kifu_buf_putc(out, '}');
	}
	first = 1;
	for (i = 0, xi = 0; i < rec->nturns; xi += kifu_turn_texts(&rec->turns[i]), i++) {
		const struct kifu_turn *t = &rec->turns[i];
		int any = 0;

		if (!t->comment && !t->clock && !t->nag && !t->eval)
			continue;
		kifu_buf_printf(out, "%s\n        \"%zu\": {", first ? ",\n      \"turns\": {" : ",",
				i + 1);
		first = 0;
		if (t->comment) {
			kifu_buf_puts(out, "\"comment\": ");
			kifu_buf_json_string(out, t->comment);
			any = 1;
		}
		if (t->clock) {
			kifu_buf_puts(out, any ? ", \"clock\": " : "\"clock\": ");
			if (json_number_ok(t->clock, strpbrk(t->clock, ".eE") != NULL))
				kifu_buf_puts(out, t->clock);
			else
				kifu_buf_json_string(out, t->clock);
			any = 1;
		}
		if (t->nag) {
			kifu_buf_puts(out, any ? ", \"nag\": " : "\"nag\": ");
			kifu_buf_json_string(out, t->nag);
			any = 1;
		}
		if (t->eval) {
			const char *best = kifu_replay_xtext(rp, xi);
			const char *x = t->eval->expected ? t->eval->expected : "0";

			kifu_buf_puts(out, any ? ", \"eval\": {\"engine\": " : "\"eval\": {\"engine\": ");
			kifu_buf_json_string(out, t->eval->engine ? t->eval->engine : "");
			kifu_buf_puts(out, ", \"expected\": ");
			if (json_number_ok(x, strpbrk(x, ".eE") != NULL))
				kifu_buf_puts(out, x);
			else
				kifu_buf_printf(out, "%.17g", t->eval->expected_value);
			kifu_buf_puts(out, ", \"best\": ");
			kifu_buf_json_string(out, best ? best : t->eval->best ? t->eval->best : "");
			kifu_buf_putc(out, '}');
		}
		kifu_buf_putc(out, '}');
	}
	if (!first)
		kifu_buf_puts(out, "\n      }");
	kifu_buf_puts(out, "\n    }");
}

static void date_time(char *buf, size_t size, const char *date, const char *now)
{
	size_t n = date ? strlen(date) : 0;

	if (n == 4)
		snprintf(buf, size, "%s-01-01T00:00:00Z", date);
	else if (n == 7)
		snprintf(buf, size, "%s-01T00:00:00Z", date);
	else if (n == 10)
		snprintf(buf, size, "%sT00:00:00Z", date);
	else
		snprintf(buf, size, "%s", now);
	if (n && !(buf[0] >= '0' && buf[0] <= '9' && buf[4] == '-'))
		snprintf(buf, size, "%s", now); /* not a date: the record is invalid anyway */
}

static int write_one(struct kifu_buf *out, const struct kifu_record *rec,
		     const struct kifu_replay *rp, const char *now, struct kifu_error *err)
{
	const struct kifu_game *g = rec->game ? kifu_game_find(rec->game) : NULL;
	const char *result = kifu_record_result(rec);
	char dt[64], buf[KIFU_TEXT_CLIP + 1];
	int vi, fi, seat, *sides = NULL, ret = 0, s;
	size_t i;

	if (!g)
		return kifu_error_set(err, KIFU_EINVALID, "game %d: unknown game '%s'", rec->number,
				      kifu_text_clip_(buf, rec->game ? rec->game : "", SIZE_MAX));
	vi = rec->variant ? kifu_game_variant_index(g, rec->variant) : 0;
	fi = rec->first ? kifu_game_side_index(g, rec->first) : 0;
	if (vi < 0 || fi < 0)
		return kifu_error_set(
			err, KIFU_EINVALID, "game %d: unknown %s '%s' of %s", rec->number,
			vi < 0 ? "variant" : "side",
			kifu_text_clip_(buf, vi < 0 ? rec->variant : rec->first, SIZE_MAX),
			g->name);
	kifu_buf_puts(out, "{\n  \"header\": {\n    \"game\": {\"name\": ");
	kifu_buf_json_string(out, g->name);
	kifu_buf_puts(out, ", \"variants\": [");
	kifu_buf_json_string(out, g->variants[vi]);
	kifu_buf_puts(out, "]}");
	if (rec->event) {
		kifu_buf_puts(out, ",\n    \"event\": ");
		kifu_buf_json_string(out, rec->event);
	}
	if (rec->round) {
		kifu_buf_puts(out, ",\n    \"round\": ");
		kifu_buf_json_string(out, rec->round);
	}
	kifu_buf_puts(out, ",\n    \"site\": {\"name\": ");
	kifu_buf_json_string(out, rec->site ? rec->site : "unknown");
	for (i = 0; i < rec->ntags; i++)
		if (!strcmp(rec->tags[i].key, "gameid") &&
		    (rec->tags[i].type == KIFU_SCALAR_STR ||
		     (rec->tags[i].type == KIFU_SCALAR_INT && json_number_ok(rec->tags[i].value, 0)))) {
			kifu_buf_puts(out, ", \"gameid\": ");
			put_tag_value(out, &rec->tags[i]);
			break;
		}
	kifu_buf_putc(out, '}');
	date_time(dt, sizeof(dt), rec->date, now);
	kifu_buf_printf(out, ",\n    \"date-start\": \"%s\",\n    \"date-end\": \"%s\"", dt, dt);
	kifu_buf_printf(out, ",\n    \"date-generated\": \"%s\",\n    \"players\": [", now);
	for (seat = 0; seat < g->nsides; seat++) {
		const struct kifu_record_player *pl = NULL;

		s = (fi + seat) % g->nsides;
		for (i = 0; i < rec->nplayers; i++)
			if (rec->players[i].side && !strcmp(rec->players[i].side, g->sides[s]))
				pl = &rec->players[i];
		kifu_buf_puts(out, seat ? ",\n      {\"name\": " : "\n      {\"name\": ");
		kifu_buf_json_string(out, pl && pl->name ? pl->name : "?");
		kifu_buf_puts(out, ", \"side\": ");
		kifu_buf_json_string(out, g->sides[s]);
		kifu_buf_printf(out, ", \"result\": %d", !strcmp(result, g->sides[s]));
		if (pl && pl->has_rating)
			kifu_buf_printf(out, ", \"rating\": %ld", pl->rating);
		kifu_buf_putc(out, '}');
	}
	kifu_buf_puts(out, "\n    ]");
	put_kifu(out, rec, rp);
	kifu_buf_puts(out, "\n  },\n  \"moves\": [");
	if (rec->nturns) {
		sides = malloc(rec->nturns * sizeof(*sides));
		if (!sides || kifu_import_sides_to_move_(sides, rec, g, vi, fi, rp) < 0) {
			ret = kifu_error_set(err, KIFU_ENOMEM, "writing apgr: out of memory");
			goto out;
		}
	}
	seat = g->nsides; /* past the last seat: the next move opens a round */
	for (i = 0; i < rec->nturns; i++) {
		const char *text = rp ? kifu_replay_text(rp, i + 1) : NULL;
		int want = (sides[i] - fi + g->nsides) % g->nsides;

		if (want <= seat && seat < g->nsides) {
			for (seat++; seat < g->nsides; seat++)
				kifu_buf_puts(out, ", null");
			kifu_buf_putc(out, ']');
		}
		if (seat >= g->nsides) {
			kifu_buf_puts(out, i ? ",\n    [" : "\n    [");
			seat = 0;
		} else {
			seat++;
		}
		for (; seat < want; seat++)
			kifu_buf_puts(out, seat ? ", null" : "null");
		if (seat)
			kifu_buf_puts(out, ", ");
		kifu_buf_json_string(out, text ? text : rec->turns[i].text ? rec->turns[i].text : "");
	}
	if (rec->nturns) {
		for (seat++; seat < g->nsides; seat++)
			kifu_buf_puts(out, ", null");
		kifu_buf_puts(out, "]\n  ");
	}
	kifu_buf_puts(out, "]\n}");
out:
	free(sides);
	return ret;
}

int kifu_apgr_write_(struct kifu_buf *out, const struct kifu_record *const *recs,
		     const struct kifu_replay *const *rps, size_t n, struct kifu_error *err)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t t = epoch && *epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
	struct tm tm;
	char now[32];
	size_t i;
	int ret;

	if (!gmtime_r(&t, &tm))
		return kifu_error_set(err, KIFU_ERROR, "writing apgr: no time of day");
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (n != 1)
		kifu_buf_puts(out, "[\n");
	for (i = 0; i < n; i++) {
		if (i)
			kifu_buf_puts(out, ",\n");
		ret = write_one(out, recs[i], rps ? rps[i] : NULL, now, err);
		if (ret < 0)
			return ret;
	}
	kifu_buf_puts(out, n != 1 ? "\n]\n" : "\n");
	if (out->failed)
		return kifu_error_set(err, KIFU_ENOMEM, "writing apgr: out of memory");
	return 0;
}
