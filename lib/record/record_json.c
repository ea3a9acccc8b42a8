/*
 * A record as the members of one JSON object (kifu-export --to json and
 * kifu-analyse --to json share it): the game, variant and first side of the
 * replay, the headers, players, the moves in canonical notation with their
 * comments, clocks and format 2's nags, evals and lines, result,
 * termination and tags. Tools add their own
 * members after these and close the object.
 */
#include <math.h>
#include <string.h>

#include "kifu/record.h"
#include "kifu/record_write.h"
#include "kifu/replay.h"

/* Whether s is a number as JSON writes one (a YAML clock may not be: "1e5" is, ".5" is not). */
static int json_number(const char *s)
{
	const char *p = s;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return 0;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

static void json_clock(struct kifu_buf *b, const struct kifu_turn *t)
{
	kifu_buf_puts(b, ",\"clock\":");
	if (json_number(t->clock))
		kifu_buf_puts(b, t->clock);
	else if (isfinite(t->clock_seconds))
		kifu_buf_printf(b, "%.17g", t->clock_seconds);
	else
		kifu_buf_puts(b, "null");
}

/*
 * Format 2's members of turn t at ply: nag, eval ({engine, expected, best})
 * and variations (arrays of turn objects with their ply), the canonical
 * texts taken from the replay in its walk order from *xi on.
 */
static void json_extras(struct kifu_buf *b, const struct kifu_turn *t, size_t ply,
			const struct kifu_replay *rp, size_t *xi)
{
	size_t j, k;

	if (t->nag) {
		kifu_buf_puts(b, ",\"nag\":");
		kifu_buf_json_string(b, t->nag);
	}
	if (t->eval) {
		const char *best = kifu_replay_xtext(rp, (*xi)++);

		kifu_buf_puts(b, ",\"eval\":{\"engine\":");
		kifu_buf_json_string(b, t->eval->engine ? t->eval->engine : "");
		kifu_buf_puts(b, ",\"expected\":");
		if (t->eval->expected && json_number(t->eval->expected))
			kifu_buf_puts(b, t->eval->expected);
		else
			kifu_buf_printf(b, "%.17g", t->eval->expected_value);
		kifu_buf_puts(b, ",\"best\":");
		kifu_buf_json_string(b, best ? best : t->eval->best ? t->eval->best : "");
		kifu_buf_putc(b, '}');
	}
	if (!t->nlines)
		return;
	kifu_buf_puts(b, ",\"variations\":[");
	for (j = 0; j < t->nlines; j++) {
		kifu_buf_puts(b, j ? ",[" : "[");
		for (k = 0; k < t->lines[j].nturns; k++) {
			const struct kifu_turn *lt = &t->lines[j].turns[k];
			const char *text = kifu_replay_xtext(rp, (*xi)++);

			kifu_buf_printf(b, "%s{\"ply\":%zu,\"move\":", k ? "," : "", ply + k);
			kifu_buf_json_string(b, text ? text : lt->text ? lt->text : "");
			if (lt->comment) {
				kifu_buf_puts(b, ",\"comment\":");
				kifu_buf_json_string(b, lt->comment);
			}
			if (lt->clock)
				json_clock(b, lt);
			json_extras(b, lt, ply + k, rp, xi);
			kifu_buf_putc(b, '}');
		}
		kifu_buf_putc(b, ']');
	}
	kifu_buf_putc(b, ']');
}

int kifu_record_write_json_head(struct kifu_buf *b, const struct kifu_record *rec,
				const struct kifu_replay *rp)
{
	const struct kifu_game *g = rp->game;
	const char *result, *term;
	size_t i, xi = 0;
	int k, first;

	result = kifu_record_result(rec);
	term = kifu_record_termination(rec);
	kifu_buf_puts(b, "{\n  \"game\":");
	kifu_buf_json_string(b, g->name);
	kifu_buf_puts(b, ",\n  \"variant\":");
	kifu_buf_json_string(b, g->variants[rp->variant]);
	kifu_buf_puts(b, ",\n  \"first\":");
	kifu_buf_json_string(b, g->sides[rp->first]);
	kifu_buf_puts(b, ",\n  \"headers\":{");
	first = 1;
	for (k = KIFU_KEY_EVENT; k <= KIFU_KEY_DATE; k++) {
		const char *v = kifu_record_get(rec, k);

		if (!v)
			continue;
		if (!first)
			kifu_buf_putc(b, ',');
		kifu_buf_json_string(b, kifu_key_name(k));
		kifu_buf_putc(b, ':');
		kifu_buf_json_string(b, v);
		first = 0;
	}
	kifu_buf_puts(b, "},\n  \"players\":{");
	for (i = 0; i < rec->nplayers; i++) {
		const struct kifu_record_player *p = &rec->players[i];

		if (i)
			kifu_buf_putc(b, ',');
		kifu_buf_json_string(b, p->side);
		kifu_buf_puts(b, ":{\"name\":");
		kifu_buf_json_string(b, p->name ? p->name : "");
		if (p->has_rating)
			kifu_buf_printf(b, ",\"rating\":%ld", p->rating);
		kifu_buf_putc(b, '}');
	}
	kifu_buf_puts(b, "},\n  \"moves\":[");
	for (i = 0; i < rp->nplies; i++) {
		const struct kifu_turn *t = &rec->turns[i];

		kifu_buf_printf(b, "%s\n    {\"ply\":%zu,\"move\":", i ? "," : "", i + 1);
		kifu_buf_json_string(b, kifu_replay_text(rp, i + 1));
		if (t->comment) {
			kifu_buf_puts(b, ",\"comment\":");
			kifu_buf_json_string(b, t->comment);
		}
		if (t->clock)
			json_clock(b, t);
		json_extras(b, t, i + 1, rp, &xi);
		kifu_buf_putc(b, '}');
	}
	kifu_buf_puts(b, rp->nplies ? "\n  ],\n  \"result\":" : "],\n  \"result\":");
	kifu_buf_json_string(b, result);
	kifu_buf_puts(b, ",\n  \"termination\":");
	if (term)
		kifu_buf_json_string(b, term);
	else
		kifu_buf_puts(b, "null");
	kifu_buf_puts(b, ",\n  \"tags\":{");
	for (i = 0; i < rec->ntags; i++) {
		if (i)
			kifu_buf_putc(b, ',');
		kifu_buf_json_string(b, rec->tags[i].key);
		kifu_buf_putc(b, ':');
		kifu_buf_json_string(b, rec->tags[i].value);
	}
	kifu_buf_putc(b, '}');
	return b->failed ? KIFU_ENOMEM : 0;
}
