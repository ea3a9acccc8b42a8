/*
 * kifu-play's summary of a series of games, from the figures lib/engine/
 * match.c gathers: a table on stderr (one line per distinct SPEC and, for
 * two SPECs of a two-sided game, the first one's Elo difference with its 95%
 * interval), or one JSON object (--json) with the same figures and each
 * side's wins (the first mover's edge).
 */
#include <math.h>
#include <stdio.h>

#include "cli.h"
#include "play_summary.h"

/* Player k's name: its SPEC, or 'SPEC #k' for a seat of one SPEC on every side. */
static const char *player_name(char *buf, size_t size, const char *const *specs,
			       const struct kifu_match *m, int k)
{
	if (!m->by_seat)
		return specs[k];
	snprintf(buf, size, "%s #%d", specs[0], k + 1);
	return buf;
}

void play_summary_text(FILE *fp, const char *const *specs, const struct kifu_match *m)
{
	double diff, margin;
	char na[256], nb[256], nw[256];
	int k, a, b;

	fprintf(fp, "%s:   %-16s %6s %6s %6s %6s %10s %6s %12s\n", cli_progname(), "player",
		"games", "wins", "draws", "losses", "unfinished", "score", "cpu/move");
	for (k = 0; k < m->nspecs; k++) {
		const struct kifu_match_spec *s = &m->spec[k];
		double score = kifu_match_score(s, m->nsides);

		if (m->group[k] != k)
			continue;
		fprintf(fp, "%s:   %-16s %6ld %6ld %6ld %6ld %10ld ", cli_progname(),
			player_name(na, sizeof(na), specs, m, k),
			s->games, s->wins, s->draws, s->losses, s->unfinished);
		if (isfinite(score))
			fprintf(fp, "%6.3f", score);
		else
			fprintf(fp, "%6s", "-");
		fprintf(fp, " %10.4f s\n", s->moves ? s->cpu / (double)s->moves : 0.0);
	}
	if (!kifu_match_pair(m, &a, &b))
		return;
	if (kifu_match_elo(&diff, &margin, m->spec[a].wins, m->spec[a].draws, m->spec[a].losses))
		fprintf(fp, "%s:   Elo difference of %s against %s: %.1f +/- %.1f (95%%)\n",
			cli_progname(), player_name(na, sizeof(na), specs, m, a),
			player_name(nb, sizeof(nb), specs, m, b), diff, margin);
	else if (m->spec[a].wins + m->spec[a].draws + m->spec[a].losses && isfinite(diff))
		fprintf(fp, "%s:   Elo difference of %s against %s: %.1f (no interval)\n",
			cli_progname(), player_name(na, sizeof(na), specs, m, a),
			player_name(nb, sizeof(nb), specs, m, b), diff);
	else if (m->spec[a].wins + m->spec[a].draws + m->spec[a].losses)
		/* one side won every game: no finite difference to give (CLI.md) */
		fprintf(fp, "%s:   Elo difference of %s against %s: every game won by %s\n",
			cli_progname(), player_name(na, sizeof(na), specs, m, a),
			player_name(nb, sizeof(nb), specs, m, b),
			player_name(nw, sizeof(nw), specs, m, diff > 0 ? a : b));
}

/* A number, or null where there is none (NaN, infinite). */
static void json_number(FILE *fp, const char *key, double v, const char *after)
{
	if (isfinite(v))
		fprintf(fp, "\"%s\": %.6g%s", key, v, after);
	else
		fprintf(fp, "\"%s\": null%s", key, after);
}

static void json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

void play_summary_json(FILE *fp, const struct kifu_game *g, int variant, const char *const *specs,
		       long games, const struct kifu_match *m)
{
	double diff, margin;
	char name[256];
	int k, a, b, first = 1, have;

	fprintf(fp, "{\"game\": ");
	json_string(fp, g->name);
	fprintf(fp, ", \"variant\": ");
	json_string(fp, g->variants[variant]);
	fprintf(fp, ", \"games\": %ld, \"decided\": %ld, \"draws\": %ld, \"unfinished\": %ld,\n",
		games, m->decided, m->draws, m->unfinished);
	fprintf(fp, " \"sides\": [");
	for (k = 0; k < g->nsides && k < KIFU_MATCH_MAX; k++) {
		fprintf(fp, "%s{\"side\": ", k ? ", " : "");
		json_string(fp, g->sides[k]);
		fprintf(fp, ", \"wins\": %ld}", m->side_wins[k]);
	}
	fprintf(fp, "],\n \"players\": [");
	for (k = 0; k < m->nspecs; k++) {
		const struct kifu_match_spec *s = &m->spec[k];

		if (m->group[k] != k)
			continue;
		fprintf(fp, "%s\n  {\"spec\": ", first ? "" : ",");
		first = 0;
		json_string(fp, m->by_seat ? specs[0] : specs[k]);
		if (m->by_seat) {
			fprintf(fp, ", \"player\": ");
			json_string(fp, player_name(name, sizeof(name), specs, m, k));
		}
		fprintf(fp, ", \"games\": %ld, \"wins\": %ld, \"draws\": %ld, \"losses\": %ld, "
			"\"unfinished\": %ld, ", s->games, s->wins, s->draws, s->losses, s->unfinished);
		json_number(fp, "score", kifu_match_score(s, m->nsides), ", ");
		fprintf(fp, "\"moves\": %ld, ", s->moves);
		json_number(fp, "cpu_per_move", s->moves ? s->cpu / (double)s->moves : NAN, "}");
	}
	fprintf(fp, "]");
	if (kifu_match_pair(m, &a, &b)) {
		const struct kifu_match_spec *s = &m->spec[a];

		have = kifu_match_elo(&diff, &margin, s->wins, s->draws, s->losses);
		fprintf(fp, ",\n \"elo\": {\"spec\": ");
		json_string(fp, player_name(name, sizeof(name), specs, m, a));
		fprintf(fp, ", \"against\": ");
		json_string(fp, player_name(name, sizeof(name), specs, m, b));
		fprintf(fp, ", ");
		json_number(fp, "difference", diff, ", ");
		json_number(fp, "margin95", have ? margin : NAN, "}");
	}
	fprintf(fp, "}\n");
}
