/* kifu-play's summary of a series (cli/play_summary.c). */
#ifndef KIFU_CLI_PLAY_SUMMARY_H
#define KIFU_CLI_PLAY_SUMMARY_H

#include <stdio.h>

#include "kifu/game.h"
#include "kifu/player.h"

/* The table per distinct SPEC and, for two SPECs of a two-sided game, the Elo line. */
void play_summary_text(FILE *fp, const char *const *specs, const struct kifu_match *m);

/* The figures as one JSON object and a newline. */
void play_summary_json(FILE *fp, const struct kifu_game *g, int variant, const char *const *specs,
		       long games, const struct kifu_match *m);

#endif
