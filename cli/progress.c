/*
 * The progress line of the long-running tools (kifu-import, kifu-play,
 * kifu-analyse), one printer for all of them: on stderr when it is a
 * terminal (one line redrawn in place, at most ten times a second), or with
 * --progress anywhere (off a terminal whole lines, one every five seconds at
 * most, for a log: nohup, a pipe, CI). A line says what is done (games, and
 * plies where the tool counts them), the rate, and once some of the work is
 * done and its whole is known, the share done and the time left at that
 * pace: "kifu-play: 3/10 games, 412 plies, 96 plies/s, 30%, ETA 0:14".
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

#define REDRAW_SECONDS 0.1 /* a terminal: a redraw this often at most */
#define LINE_SECONDS 5.0   /* a log: a line this often at most */

/* The progress whose line stands on the terminal, if any. */
static struct cli_progress *drawn;

void cli_progress_init(struct cli_progress *p, int force, int quiet)
{
	int tty = isatty(STDERR_FILENO);

	p->on = force || (!quiet && tty);
	p->lines = p->on && !tty;
	p->shown_any = 0;
	p->started = cli_now();
	p->shown = -1e9;
	p->last_games = -1;
}

void cli_progress_restart(struct cli_progress *p)
{
	p->started = cli_now();
	p->last_games = -1;
	/* a new stage is shown at once (on a terminal; a log keeps its pace) */
	if (!p->lines)
		p->shown = -1e9;
}

void cli_progress_clear(struct cli_progress *p)
{
	if (p->shown_any) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown_any = 0;
		/* what was printed in its place is done: the next call draws it again */
		p->shown = -1e9;
	}
	if (drawn == p)
		drawn = NULL;
}

void cli_progress_clear_any(void)
{
	if (drawn)
		cli_progress_clear(drawn);
}

/* ", 40%, ETA 1:05" or ", 40%, ETA 1:02:05": the time left at the pace so far. */
static void eta_text(char *out, size_t size, double frac, double elapsed)
{
	long left;

	if (frac > 1)
		frac = 1;
	left = (long)(elapsed / frac - elapsed + 0.5);
	if (left >= 3600)
		snprintf(out, size, ", %.0f%%, ETA %ld:%02ld:%02ld", frac * 100, left / 3600,
			 left % 3600 / 60, left % 60);
	else
		snprintf(out, size, ", %.0f%%, ETA %ld:%02ld", frac * 100, left / 60, left % 60);
}

static void show(struct cli_progress *p, const struct cli_progress_counts *c, double t)
{
	double el = t - p->started, rate;
	char games[64], plies[48] = "", eta[64] = "";

	p->shown = t;
	p->last_games = c->games;
	if (c->total > 0)
		snprintf(games, sizeof(games), "%ld/%ld games", c->games, c->total);
	else
		snprintf(games, sizeof(games), "%ld game%s", c->games, c->games == 1 ? "" : "s");
	if (c->plies >= 0)
		snprintf(plies, sizeof(plies), ", %lld pl%s", c->plies, c->plies == 1 ? "y" : "ies");
	rate = el > 0 ? (double)(c->plies >= 0 ? c->plies : c->games) / el : 0.0;
	/* a share of whole games is a pace at once; a share of bytes settles first */
	if (c->frac > 0 && el > 0 && (c->total > 0 || el > 0.5))
		eta_text(eta, sizeof(eta), c->frac, el);
	/* A log gets whole lines; a terminal one line redrawn. */
	fprintf(stderr, "%s%s: %s%s%s%s, %.0f %s/s%s%s", p->lines ? "" : "\r", cli_progname(),
		c->stage ? c->stage : "", c->stage ? ": " : "", games, plies, rate,
		c->plies >= 0 ? "plies" : "games", eta, p->lines ? "\n" : "\033[K");
	fflush(stderr);
	p->shown_any = !p->lines;
	if (p->shown_any)
		drawn = p;
}

void cli_progress_show(struct cli_progress *p, const struct cli_progress_counts *c)
{
	double t;

	if (!p->on)
		return;
	t = cli_now();
	if (t - p->shown < (p->lines ? LINE_SECONDS : REDRAW_SECONDS))
		return;
	show(p, c, t);
}

void cli_progress_step(struct cli_progress *p, const struct cli_progress_counts *c)
{
	if (!p->on)
		return;
	if (p->lines)
		cli_progress_show(p, c);
	else
		show(p, c, cli_now());
}

void cli_progress_end(struct cli_progress *p, const struct cli_progress_counts *c)
{
	if (!p->on)
		return;
	/* a log keeps the last figures (unless its last line has them); a terminal is cleared */
	if (p->lines && c && c->games != p->last_games)
		show(p, c, cli_now());
	cli_progress_clear(p);
}

void cli_progress_note(struct cli_progress *p, const char *text)
{
	if (!p->on)
		return;
	cli_progress_clear(p);
	fprintf(stderr, "%s: %s%s", cli_progname(), text, p->lines ? "\n" : "");
	fflush(stderr);
	p->shown_any = !p->lines;
	if (p->shown_any)
		drawn = p;
}
