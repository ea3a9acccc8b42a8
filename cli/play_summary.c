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

void play_summary_text(FILE *fp, const char *const *specs, const struct kifu_match *m)
{
	double diff, margin;
	int k, a, b;

	fprintf(fp, "%s:   %-16s %6s %6s %6s %6s %10s %6s %12s\n", cli_progname(), "player",
		"games", "wins", "draws", "losses", "unfinished", "score", "cpu/move");
	for (k = 0; k < m->nspecs; k++) {
		const struct kifu_match_spec *s = &m->spec[k];
		double score = kifu_match_score(s, m->nsides);

		if (m->group[k] != k)
			continue;
		fprintf(fp, "%s:   %-16s %6ld %6ld %6ld %6ld %10ld ", cli_progname(), specs[k],
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
			cli_progname(), specs[a], specs[b], diff, margin);
	else if (m->spec[a].wins + m->spec[a].draws + m->spec[a].losses)
		fprintf(fp, "%s:   Elo difference of %s against %s: %s (no interval)\n",
			cli_progname(), specs[a], specs[b],
			diff > 0 ? "+inf" : diff < 0 ? "-inf" : "0.0");
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
		json_string(fp, specs[k]);
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
		json_string(fp, specs[a]);
		fprintf(fp, ", \"against\": ");
		json_string(fp, specs[b]);
		fprintf(fp, ", ");
		json_number(fp, "difference", diff, ", ");
		json_number(fp, "margin95", have ? margin : NAN, "}");
	}
	fprintf(fp, "}\n");
}
